// The index file format (pure): what it keeps of each rollout, what it refuses, and the migration of version 1.
import { sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODEX_HEADER_INDEX_ENTRIES, CODEX_HEADER_INDEX_ENTRY_BYTES } from '../kit/bounds';
import type { CodexHeader } from './header';
import { decodeIndex, encodeIndex, HEADER_INDEX_VERSION, type DecodedIndex } from './headerIndexCodec';
import type { IndexedHeader, IndexedRollouts } from './headerIndexRows';

const home = '/home/dev/.codex';
/** A rollout's path under `sessions/`. */
const at = (name: string) => ['2026', '04', '20', name].join(sep);

/** Rollouts from (path, entry) pairs, and back. */
function rollouts(pairs: Array<[string, IndexedHeader]>): IndexedRollouts {
  return { paths: pairs.map(([path]) => path), entries: pairs.map(([, entry]) => entry) };
}
function pairsOf(decoded: DecodedIndex): Array<[string, IndexedHeader]> | null {
  return decoded.kind === 'index' ? decoded.rollouts.paths.map((path, index) => [path, decoded.rollouts.entries[index]]) : null;
}

function header(fields: Partial<CodexHeader>): IndexedHeader {
  const full: CodexHeader = { id: 't1', timestamp: null, cwd: null, forkedFromId: null, origin: 'session', parentThreadId: null, agentPath: null, nickname: null, role: null, ...fields };
  return { size: 1234, mtimeMs: 1776000000000.5, read: { kind: 'header', header: full, bytes: 0 } };
}

/** An index text of this version around the given rows (as JSON values). */
function textOf(rows: unknown[], top: Record<string, unknown> = {}): string {
  return JSON.stringify({ version: HEADER_INDEX_VERSION, codexHome: home, rollouts: rows, ...top });
}

const good = ['2026/04/20/rollout-a.jsonl', 10, 1.5, 'session', 'id', null, null, null, null, null, null, null];

describe('the header index file', () => {
  it('keeps sessions, children (every field), helpers and skipped first lines, in order, exactly', () => {
    const entries: Array<[string, IndexedHeader]> = [
      [at('rollout-a.jsonl'), header({ id: 'parent', cwd: '/work/repo', timestamp: '2026-04-20T10:00:00.000Z' })],
      [at('rollout-b.jsonl'), header({ id: 'child', origin: 'child', parentThreadId: 'parent', agentPath: '/root/a', nickname: 'Ada', role: 'explorer', forkedFromId: 'parent' })],
      [at('rollout-c.jsonl'), header({ id: 'review', origin: 'helper' })],
      [at('rollout-d.jsonl'), { size: 70_000, mtimeMs: 1, read: { kind: 'too-long', bytes: 0 } }],
      [at('rollout-e.jsonl'), { size: 3, mtimeMs: 2, read: { kind: 'invalid', bytes: 0 } }],
    ];
    const text = encodeIndex(home, rollouts(entries));
    expect(JSON.parse(text)).toMatchObject({ version: HEADER_INDEX_VERSION, codexHome: home });
    const decoded = decodeIndex(text, home);
    expect(decoded).toMatchObject({ kind: 'index', stale: false });
    expect(pairsOf(decoded)).toEqual(entries);
  });

  it('never records transcript content: one row of file facts and the parsed header fields, null where a header has none', () => {
    const child = header({ id: 'child', origin: 'child', timestamp: 't', cwd: '/w', forkedFromId: 'p', parentThreadId: 'p', agentPath: '/root/a', nickname: 'Ada', role: 'explorer' });
    const text = encodeIndex(home, rollouts([[at('rollout-a.jsonl'), child], [at('rollout-b.jsonl'), header({ id: 'parent' })]]));
    const [full, bare] = (JSON.parse(text) as { rollouts: unknown[][] }).rollouts;
    expect(full).toEqual(['2026/04/20/rollout-a.jsonl', 1234, 1776000000000.5, 'child', 'child', 't', '/w', 'p', 'p', '/root/a', 'Ada', 'explorer']);
    expect(bare).toEqual(['2026/04/20/rollout-b.jsonl', 1234, 1776000000000.5, 'session', 'parent', null, null, null, null, null, null, null]);
  });

  it('leaves out an entry over the entry bound and a path outside the sessions layout', () => {
    const text = encodeIndex(home, rollouts([
      [at('rollout-a.jsonl'), header({ cwd: `/${'x'.repeat(CODEX_HEADER_INDEX_ENTRY_BYTES)}` })],
      [['..', 'elsewhere', 'rollout-b.jsonl'].join(sep), header({})],
      [at('rollout-c.jsonl'), header({ id: 'kept' })],
    ]));
    const decoded = decodeIndex(text, home);
    expect(decoded.kind === 'index' && decoded.rollouts.paths).toEqual([at('rollout-c.jsonl')]);
  });

  it('tells an index of another home apart from a damaged one', () => {
    const text = encodeIndex(home, rollouts([[at('rollout-a.jsonl'), header({})]]));
    expect(decodeIndex(text, '/other/.codex')).toEqual({ kind: 'foreign' });
    expect(decodeIndex('{"version":2}', home)).toMatchObject({ kind: 'unusable', reason: expect.stringContaining('does not hold a valid index') });
    expect(decodeIndex('[]', home)).toMatchObject({ kind: 'unusable', reason: 'has version none, not 2' });
    expect(decodeIndex('{"version":3,"rollouts":[]}', home)).toMatchObject({ kind: 'unusable', reason: 'has version 3, not 2' });
    expect(decodeIndex('{"version":2,"codexHome"', home)).toMatchObject({ kind: 'unusable', reason: expect.stringContaining('not JSON') });
  });

  const refused: Array<[string, string, string]> = [
    ['a row that is not a list', textOf([good, { path: good[0] }]), 'rollouts.1: not a list'],
    ['a path outside the sessions layout', textOf([['../../etc/passwd', ...good.slice(1)]]), 'rollouts.0: path outside the sessions layout'],
    ['a path into another folder', textOf([['2026/04/20/../rollout-a.jsonl', ...good.slice(1)]]), 'rollouts.0: path outside the sessions layout'],
    ['a negative size', textOf([[good[0], -1, ...good.slice(2)]]), 'rollouts.0: size not a whole number of bytes'],
    ['a size in parts of a byte', textOf([[good[0], 1.5, ...good.slice(2)]]), 'rollouts.0: size not a whole number of bytes'],
    ['an mtime as text', textOf([[good[0], 10, '1.5', ...good.slice(3)]]), 'rollouts.0: mtime not a number'],
    ['an unknown kind', textOf([[...good.slice(0, 3), 'header', ...good.slice(4)]]), 'rollouts.0: unknown kind "header"'],
    ['a header row short of a field', textOf([good.slice(0, -1)]), 'rollouts.0: a header row has 11 fields, not 12'],
    ['a skipped row with header fields', textOf([[good[0], 10, 1.5, 'too-long', 'id']]), 'rollouts.0: a too-long row has 5 fields, not 4'],
    ['an empty id', textOf([[...good.slice(0, 4), '', ...good.slice(5)]]), 'rollouts.0: id not a name'],
    ['an empty field (absent is null)', textOf([[...good.slice(0, 6), '', ...good.slice(7)]]), 'rollouts.0: cwd neither text nor null'],
    ['a number for a text field', textOf([[...good.slice(0, 11), 7]]), 'rollouts.0: role neither text nor null'],
    ['an unknown top field', textOf([good], { extra: true }), 'extra: unknown field'],
    ['no home', textOf([good], { codexHome: '' }), 'codexHome: not a path'],
    ['more rows than the bound', textOf(Array.from({ length: CODEX_HEADER_INDEX_ENTRIES + 1 }, () => good)), `rollouts: more than ${CODEX_HEADER_INDEX_ENTRIES} entries`],
  ];
  for (const [what, text, reason] of refused) {
    it(`refuses an index with ${what}, saying where`, () => {
      expect(decodeIndex(text, home)).toEqual({ kind: 'unusable', reason: `does not hold a valid index (${reason})` });
    });
  }

  it('reads a version 1 index (one object per rollout) as the same entries, marked stale so it is written again', () => {
    const v1 = JSON.stringify({
      version: 1,
      codexHome: home,
      rollouts: [
        { path: '2026/04/20/rollout-a.jsonl', size: 1234, mtimeMs: 1776000000000.5, kind: 'header', id: 'parent', timestamp: '2026-04-20T10:00:00.000Z', cwd: '/work/repo', origin: 'session' },
        { path: '2026/04/20/rollout-b.jsonl', size: 1234, mtimeMs: 1776000000000.5, kind: 'header', id: 'child', origin: 'child', parentThreadId: 'parent', agentPath: '/root/a', nickname: 'Ada', role: 'explorer', forkedFromId: 'parent' },
        { path: '2026/04/20/rollout-d.jsonl', size: 70_000, mtimeMs: 1, kind: 'too-long' },
      ],
    });
    const decoded = decodeIndex(v1, home);
    expect(decoded).toMatchObject({ kind: 'index', stale: true });
    expect(pairsOf(decoded)).toEqual([
      [at('rollout-a.jsonl'), header({ id: 'parent', cwd: '/work/repo', timestamp: '2026-04-20T10:00:00.000Z' })],
      [at('rollout-b.jsonl'), header({ id: 'child', origin: 'child', parentThreadId: 'parent', agentPath: '/root/a', nickname: 'Ada', role: 'explorer', forkedFromId: 'parent' })],
      [at('rollout-d.jsonl'), { size: 70_000, mtimeMs: 1, read: { kind: 'too-long', bytes: 0 } }],
    ]);
    expect(decodeIndex(v1, '/other/.codex')).toEqual({ kind: 'foreign' });
    expect(decodeIndex(v1.replace('"size":1234', '"size":-1'), home)).toMatchObject({ kind: 'unusable', reason: expect.stringContaining('rollouts.0.size') });
  });
});
