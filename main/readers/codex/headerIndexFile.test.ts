// The index file format (pure): what it keeps of each rollout, and what it refuses.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODEX_HEADER_INDEX_ENTRY_BYTES } from '../kit/bounds';
import type { CodexHeader } from './header';
import { decodeIndex, encodeIndex, HEADER_INDEX_VERSION, type IndexedHeader } from './headerIndexFile';

const home = '/home/dev/.codex';
const at = (name: string) => join(home, 'sessions', '2026', '04', '20', name);

function header(fields: Partial<CodexHeader>): IndexedHeader {
  const full: CodexHeader = { id: 't1', timestamp: null, cwd: null, forkedFromId: null, origin: 'session', parentThreadId: null, agentPath: null, nickname: null, role: null, ...fields };
  return { size: 1234, mtimeMs: 1776000000000.5, read: { kind: 'header', header: full, bytes: 0 } };
}

describe('the header index file', () => {
  it('keeps sessions, children (every field), helpers and skipped first lines, in order, exactly', () => {
    const entries: Array<[string, IndexedHeader]> = [
      [at('rollout-a.jsonl'), header({ id: 'parent', cwd: '/work/repo', timestamp: '2026-04-20T10:00:00.000Z' })],
      [at('rollout-b.jsonl'), header({ id: 'child', origin: 'child', parentThreadId: 'parent', agentPath: '/root/a', nickname: 'Ada', role: 'explorer', forkedFromId: 'parent' })],
      [at('rollout-c.jsonl'), header({ id: 'review', origin: 'helper' })],
      [at('rollout-d.jsonl'), { size: 70_000, mtimeMs: 1, read: { kind: 'too-long', bytes: 0 } }],
      [at('rollout-e.jsonl'), { size: 3, mtimeMs: 2, read: { kind: 'invalid', bytes: 0 } }],
    ];
    const text = encodeIndex(home, entries);
    expect(JSON.parse(text)).toMatchObject({ version: HEADER_INDEX_VERSION, codexHome: home });
    const decoded = decodeIndex(text, home);
    expect(decoded.kind === 'index' && [...decoded.entries]).toEqual(entries);
  });

  it('never records transcript content: only the parsed header fields and file facts, a field without a value left out', () => {
    const child = header({ id: 'child', origin: 'child', timestamp: 't', cwd: '/w', forkedFromId: 'p', parentThreadId: 'p', agentPath: '/root/a', nickname: 'Ada', role: 'explorer' });
    const text = encodeIndex(home, [[at('rollout-a.jsonl'), child], [at('rollout-b.jsonl'), header({ id: 'parent' })]]);
    const [full, bare] = (JSON.parse(text) as { rollouts: object[] }).rollouts;
    expect(Object.keys(full).sort()).toEqual(['agentPath', 'cwd', 'forkedFromId', 'id', 'kind', 'mtimeMs', 'nickname', 'origin', 'parentThreadId', 'path', 'role', 'size', 'timestamp']);
    expect(bare).toEqual({ path: '2026/04/20/rollout-b.jsonl', size: 1234, mtimeMs: 1776000000000.5, kind: 'header', id: 'parent', origin: 'session' });
  });

  it('leaves out an entry over the entry bound and a path outside the sessions layout', () => {
    const text = encodeIndex(home, [
      [at('rollout-a.jsonl'), header({ cwd: `/${'x'.repeat(CODEX_HEADER_INDEX_ENTRY_BYTES)}` })],
      ['/elsewhere/rollout-b.jsonl', header({})],
      [at('rollout-c.jsonl'), header({ id: 'kept' })],
    ]);
    const decoded = decodeIndex(text, home);
    expect(decoded.kind === 'index' && [...decoded.entries.keys()]).toEqual([at('rollout-c.jsonl')]);
  });

  it('tells an index of another home apart from a damaged one', () => {
    const text = encodeIndex(home, [[at('rollout-a.jsonl'), header({})]]);
    expect(decodeIndex(text, '/other/.codex')).toEqual({ kind: 'foreign' });
    expect(decodeIndex('{"version":1}', home)).toMatchObject({ kind: 'unusable', reason: expect.stringContaining('does not hold a valid index') });
    expect(decodeIndex('[]', home)).toMatchObject({ kind: 'unusable', reason: 'has version none, not 1' });
    expect(decodeIndex('{"version":2,"rollouts":[]}', home)).toMatchObject({ kind: 'unusable', reason: 'has version 2, not 1' });
    expect(decodeIndex('{"version":1,"codexHome"', home)).toMatchObject({ kind: 'unusable', reason: expect.stringContaining('not JSON') });
  });
});
