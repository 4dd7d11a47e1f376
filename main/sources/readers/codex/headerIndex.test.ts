// Rule 13 (header index), on real rollouts in temp homes: a new reader over the same app home reads no header of an
// unchanged rollout; size, mtime, new, deleted and rewritten rollouts are all reflected; the file keeps the most
// recent rollouts; an index that cannot be used is moved aside with one log line and rebuilt.
import { appendFile, mkdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Candidate } from '../../../../shared/schemas';
import { createApp } from '../../../setup/app';
import { listMovedAside } from '../../../kit/fileStore';
import { headerLine, messageLine, tempHomes, threadId, writeRollout } from '../../../dev/testing/codexRollout';
import { countingFileSystem } from './fileSystem';
import { decodeIndex } from './headerIndexCodec';
import type { IndexedRollouts } from './headerIndexRows';
import { CODEX_HEADER_INDEX_FILE } from './headerIndexFile';
import { createCodexReader } from './reader';

const homes = tempHomes();
afterEach(homes.removeAll);

const BASE_MS = Date.parse('2026-04-10T12:00:00.000Z');

/** A Codex home with `count` sessions, one a day (day 1 oldest), each last written a minute after the one before. */
async function codexHome(count: number): Promise<{ home: string; paths: string[] }> {
  const home = await homes.make();
  const paths: string[] = [];
  for (let index = 0; index < count; index++) {
    const day = String(index + 1).padStart(2, '0');
    const id = threadId(10 + index);
    const at = `2026-04-${day}T10:00:00.000Z`;
    const path = await writeRollout(home, `2026/04/${day}`, `2026-04-${day}T10-00-00`, id, [headerLine({ id, timestamp: at, cwd: `/work/repo${index}` }), messageLine(at, 'user', 'hello')]);
    await setMtime(path, BASE_MS + index * 60_000);
    paths.push(path);
  }
  return { home, paths };
}

async function setMtime(path: string, ms: number): Promise<void> {
  await utimes(path, new Date(ms), new Date(ms));
}

/** A new reader over the Codex home and the app home (as a new start of the app), counting its file calls. */
function newReader(home: string, appHome: string, bound?: number) {
  const fs = countingFileSystem();
  const log: string[] = [];
  const file = join(appHome, CODEX_HEADER_INDEX_FILE);
  const reader = createCodexReader({ home, fs, headerIndex: { file, log: (line) => log.push(line), bound } });
  return { reader, fs, log, file };
}

function listed(candidates: Candidate[]): Array<[string, string | null, number, string]> {
  return candidates.map((candidate) => [candidate.id, candidate.cwdHint, candidate.size, candidate.lastActivity]);
}

async function indexedPaths(file: string, home: string): Promise<string[]> {
  const decoded = decodeIndex(await readFile(file, 'utf8'), home);
  if (decoded.kind !== 'index') throw new Error(`index not usable: ${JSON.stringify(decoded)}`);
  return decoded.rollouts.paths.map((under) => join(home, 'sessions', under));
}

/** The entries as version 1 wrote them: one object per rollout, a header field without a value left out. */
function versionOneText(home: string, indexed: IndexedRollouts): string {
  const rollouts = indexed.entries.map((entry, index) => {
    const facts = { path: indexed.paths[index].split(sep).join('/'), size: entry.size, mtimeMs: entry.mtimeMs };
    if (entry.read.kind !== 'header') return { ...facts, kind: entry.read.kind };
    const fields = Object.entries(entry.read.header).filter(([, value]) => value !== null);
    return { ...facts, kind: 'header', ...Object.fromEntries(fields) };
  });
  return JSON.stringify({ version: 1, codexHome: home, rollouts });
}

async function inode(file: string): Promise<number> {
  return (await stat(file)).ino;
}

/** A Codex home of `count` sessions already discovered once over a new app home: its index file is written. */
async function indexedHomes(count: number) {
  const { home, paths } = await codexHome(count);
  const appHome = await homes.make();
  const cold = newReader(home, appHome);
  await cold.reader.discover();
  return { home, paths, appHome, file: cold.file, written: await inode(cold.file) };
}

describe('the Codex header index in the app home', () => {
  it('lets a new reader over the same app home discover the same candidates without reading a header', async () => {
    const { home, paths } = await codexHome(3);
    const appHome = await homes.make();
    const cold = newReader(home, appHome);
    const first = await cold.reader.discover();
    expect(cold.fs.counts.readHeader).toBe(3);
    expect(await indexedPaths(cold.file, home)).toEqual([...paths].reverse());

    const warm = newReader(home, appHome);
    expect(listed(await warm.reader.discover())).toEqual(listed(first));
    expect(warm.fs.counts.readHeader).toBe(0);
    expect(warm.fs.counts.stat).toBe(3);
    expect(first.map((candidate) => candidate.cwdHint)).toEqual(['/work/repo2', '/work/repo1', '/work/repo0']);
    expect(warm.log).toEqual([]);
  });

  it('reads again a rollout whose size changed (appended), shows its new size, and does not rewrite the index', async () => {
    const { home, paths, appHome, file, written } = await indexedHomes(3);
    const before = await stat(paths[0]);
    await appendFile(paths[0], `${messageLine('2026-04-01T10:05:00.000Z', 'assistant', 'more')}\n`);
    await setMtime(paths[0], before.mtimeMs); // the same mtime: only the size tells

    const warm = newReader(home, appHome);
    const candidates = await warm.reader.discover();
    expect(warm.fs.counts.readHeader).toBe(1);
    expect(candidates.find((candidate) => candidate.seat.path === paths[0])?.size).toBe((await stat(paths[0])).size);
    // Line 1 is what the index records, and it did not change: no write.
    expect(await inode(file)).toBe(written);
  });

  it('reads again a rollout whose mtime changed at the same size, and lists it by its new time', async () => {
    const { home, paths, appHome } = await indexedHomes(3);
    await setMtime(paths[0], BASE_MS + 3_600_000);

    const warm = newReader(home, appHome);
    const candidates = await warm.reader.discover();
    expect(warm.fs.counts.readHeader).toBe(1);
    expect(candidates[0]).toMatchObject({ id: `codex:${threadId(10)}`, lastActivity: new Date(BASE_MS + 3_600_000).toISOString() });
  });

  it('picks up a new rollout and drops a deleted one, and writes the index again', async () => {
    const { home, paths, appHome, file, written } = await indexedHomes(3);
    await rm(paths[1]);
    const added = await writeRollout(home, '2026/04/09', '2026-04-09T10-00-00', threadId(99), [headerLine({ id: threadId(99), timestamp: '2026-04-09T10:00:00.000Z' })]);

    const warm = newReader(home, appHome);
    const candidates = await warm.reader.discover();
    expect(warm.fs.counts.readHeader).toBe(1);
    expect(candidates.map((candidate) => candidate.id)).toEqual([`codex:${threadId(99)}`, `codex:${threadId(12)}`, `codex:${threadId(10)}`]);
    expect(await inode(file)).not.toBe(written);
    expect(await indexedPaths(file, home)).toEqual([added, paths[2], paths[0]]);
  });

  it('drops the oldest rollout once deleted, though every rollout left is unchanged and in the same place', async () => {
    const { home, paths, appHome, file, written } = await indexedHomes(3);
    await rm(paths[0]);

    const warm = newReader(home, appHome);
    expect((await warm.reader.discover()).map((candidate) => candidate.seat.path)).toEqual([paths[2], paths[1]]);
    expect(warm.fs.counts.readHeader).toBe(0);
    expect(await inode(file)).not.toBe(written);
    expect(await indexedPaths(file, home)).toEqual([paths[2], paths[1]]);
  });

  it('reflects a rewritten rollout (another line 1 under the same name)', async () => {
    const { home, paths, appHome } = await indexedHomes(2);
    // The newest rollout now says it is a spawned child: it is no longer a candidate.
    await writeFile(paths[1], `${headerLine({ id: threadId(11), timestamp: '2026-04-02T10:00:00.000Z', parent: threadId(10), nickname: 'Ada' })}\n`);

    const warm = newReader(home, appHome);
    expect((await warm.reader.discover()).map((candidate) => candidate.id)).toEqual([`codex:${threadId(10)}`]);
    expect(warm.fs.counts.readHeader).toBe(1);
    const again = newReader(home, appHome);
    expect((await again.reader.discover()).map((candidate) => candidate.id)).toEqual([`codex:${threadId(10)}`]);
    expect(again.fs.counts.readHeader).toBe(0);
  });

  it('lets child discovery use what the index checked: a warm reader reads only the parent line 1 to project it', async () => {
    const { home, paths } = await codexHome(2);
    const parentId = threadId(11);
    await writeRollout(home, '2026/04/02', '2026-04-02T10-30-00', threadId(50), [headerLine({ id: threadId(50), timestamp: '2026-04-02T10:30:00.000Z', parent: parentId, nickname: 'Ada' })]);
    const appHome = await homes.make();
    await newReader(home, appHome).reader.discover();

    const warm = newReader(home, appHome);
    await warm.reader.discover();
    const projection = await warm.reader.project({ harness: 'codex', home, sessionId: parentId, path: paths[1] });
    expect(projection.ok && projection.subagents.recent.map((entry) => entry.label)).toEqual(['Ada']);
    expect(warm.fs.counts.readHeader).toBe(1); // the parent's identity check, never a child's or another session's
  });

  it('keeps only the most recent rollouts in the file (a bound of 3 here), and still lists every one', async () => {
    const { home, paths } = await codexHome(5);
    const appHome = await homes.make();
    const cold = newReader(home, appHome, 3);
    expect(await cold.reader.discover()).toHaveLength(5);
    expect(await indexedPaths(cold.file, home)).toEqual([paths[4], paths[3], paths[2]]);

    const warm = newReader(home, appHome, 3);
    expect(await warm.reader.discover()).toHaveLength(5);
    expect(warm.fs.counts.readHeader).toBe(2); // the two oldest are not in the file
  });

  it('writes at most once a discovery, and not at all while nothing changed (same reader)', async () => {
    const { home, paths } = await codexHome(2);
    const appHome = await homes.make();
    const { reader, fs, file } = newReader(home, appHome);
    await reader.discover();
    const written = await inode(file);
    await reader.discover();
    expect(await inode(file)).toBe(written);
    await appendFile(paths[0], `${messageLine('2026-04-01T10:05:00.000Z', 'assistant', 'more')}\n`);
    const reads = fs.counts.readHeader;
    await reader.discover();
    await reader.discover();
    expect(fs.counts.readHeader).toBe(reads + 1);
    expect(await inode(file)).toBe(written);
  });

  it('sees what changed after a discovery that found nothing changed (same reader): a deletion, a new rollout, an append', async () => {
    const { home, paths } = await codexHome(3);
    const appHome = await homes.make();
    const { reader, fs, file } = newReader(home, appHome);
    await reader.discover();
    await reader.discover();
    expect(fs.counts.readHeader).toBe(3);
    const written = await inode(file);
    await rm(paths[0]);
    const added = await writeRollout(home, '2026/04/09', '2026-04-09T10-00-00', threadId(99), [headerLine({ id: threadId(99), timestamp: '2026-04-09T10:00:00.000Z' })]);
    await appendFile(paths[2], `${messageLine('2026-04-03T10:05:00.000Z', 'assistant', 'more')}\n`);

    const candidates = await reader.discover();
    expect(fs.counts.readHeader).toBe(5); // the new rollout and the appended one
    expect(candidates.map((candidate) => candidate.seat.path).sort()).toEqual([added, paths[2], paths[1]].sort());
    expect(candidates.find((candidate) => candidate.seat.path === paths[2])?.size).toBe((await stat(paths[2])).size);
    expect(await inode(file)).not.toBe(written);
    expect(await indexedPaths(file, home)).toEqual([added, paths[2], paths[1]]);
  });

  it('migrates a version 1 index: no header is read, the file is written once in this version, then left alone', async () => {
    const { home, paths, appHome, file } = await indexedHomes(3);
    const expected = listed(await newReader(home, appHome).reader.discover());
    const decoded = decodeIndex(await readFile(file, 'utf8'), home);
    if (decoded.kind !== 'index') throw new Error('index not usable');
    await writeFile(file, versionOneText(home, decoded.rollouts));

    const upgraded = newReader(home, appHome);
    expect(listed(await upgraded.reader.discover())).toEqual(expected);
    expect(upgraded.fs.counts.readHeader).toBe(0);
    expect(upgraded.log).toEqual([]);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ version: 2 });
    expect(await indexedPaths(file, home)).toEqual([...paths].reverse());
    const written = await inode(file);

    const after = newReader(home, appHome);
    expect(listed(await after.reader.discover())).toEqual(expected);
    expect(after.fs.counts.readHeader).toBe(0);
    expect(await inode(file)).toBe(written);
  });

  const damaged: Array<[string, (valid: string) => string]> = [
    ['garbage', () => 'not an index \u0000\u0001'],
    ['truncated JSON', (valid) => valid.slice(0, Math.floor(valid.length / 2))],
    ['a wrong version', (valid) => valid.replace('"version":2', '"version":7')],
    ['an entry outside the sessions layout', (valid) => valid.replace(/\["[^"]*"/, '["../../etc/passwd"')],
  ];
  for (const [what, damage] of damaged) {
    it(`survives an index file with ${what}: moves it aside with one log line, lists every rollout, rebuilds it`, async () => {
      const { home } = await codexHome(3);
      const appHome = await homes.make();
      const cold = newReader(home, appHome);
      const expected = listed(await cold.reader.discover());
      const bad = damage(await readFile(cold.file, 'utf8'));
      await writeFile(cold.file, bad);

      const next = newReader(home, appHome);
      expect(listed(await next.reader.discover())).toEqual(expected);
      expect(next.log).toHaveLength(1);
      expect(next.log[0]).toMatch(/Codex header index .* moved aside to .* rebuilt/);
      const aside = await listMovedAside(cold.file);
      expect(aside).toHaveLength(1);
      expect(await readFile(aside[0], 'utf8')).toBe(bad);

      const after = newReader(home, appHome);
      expect(listed(await after.reader.discover())).toEqual(expected);
      expect(after.fs.counts.readHeader).toBe(0);
      expect(after.log).toEqual([]);
    });
  }

  it('survives an index that cannot be read (a folder in its place)', async () => {
    const { home } = await codexHome(2);
    const appHome = await homes.make();
    const first = newReader(home, appHome);
    await mkdir(first.file);
    expect(await first.reader.discover()).toHaveLength(2);
    expect(first.log).toHaveLength(1);
    expect(first.log[0]).toMatch(/is not a regular file; it was moved aside/);
    const after = newReader(home, appHome);
    expect(await after.reader.discover()).toHaveLength(2);
    expect(after.fs.counts.readHeader).toBe(0);
  });

  it('still discovers when the index cannot be written, saying so in one line', async () => {
    const { home } = await codexHome(2);
    const notAFolder = join(await homes.make(), 'app-home-is-a-file');
    await writeFile(notAFolder, '');
    const { reader, log } = newReader(home, notAFolder);
    expect(await reader.discover()).toHaveLength(2);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/could not write the Codex header index/);
  });

  it('does not use the index of another Codex home', async () => {
    const first = await codexHome(2);
    const second = await codexHome(1);
    const appHome = await homes.make();
    await newReader(first.home, appHome).reader.discover();
    const other = newReader(second.home, appHome);
    expect((await other.reader.discover()).map((candidate) => candidate.seat.path)).toEqual(second.paths);
    expect(other.fs.counts.readHeader).toBe(1);
    expect(other.log).toEqual([]);
  });

  it('without an app home, keeps the index in memory only: a second discovery reads no header', async () => {
    const { home, paths } = await codexHome(2);
    const fs = countingFileSystem();
    const reader = createCodexReader({ home, fs });
    await reader.discover();
    expect(fs.counts.readHeader).toBe(2);
    await reader.discover();
    expect(fs.counts.readHeader).toBe(2);
    await rm(paths[0]);
    expect((await reader.discover()).map((candidate) => candidate.seat.path)).toEqual([paths[1]]);
  });
});

describe('the app keeps the Codex header index in its home', () => {
  it('writes codex-header-index.json beside personas.json on the first lobby discovery', async () => {
    const { home, paths } = await codexHome(1);
    const root = await homes.make();
    const env = { HOME: root, CLAUDE_CONFIG_DIR: join(root, 'claude'), CODEX_HOME: home, XDG_DATA_HOME: join(root, 'data'), OPENCODE_DB: '' };
    const app = await createApp({ home: join(root, 'app'), mode: 'web', env, live: false, log: () => {} });
    try {
      const answer = await app.router.handle('fleet.candidates', { refresh: true });
      expect(answer).toMatchObject({ ok: true });
      expect(await indexedPaths(join(root, 'app', CODEX_HEADER_INDEX_FILE), home)).toEqual(paths);
    } finally {
      await app.dispose();
    }
  });
});
