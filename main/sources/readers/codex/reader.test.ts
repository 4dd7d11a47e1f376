import { appendFile, copyFile, mkdir, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SeatAddress } from '../../../../shared/schemas';
import { countingFileSystem } from './fileSystem';
import { callLine, eventLine, headerLine, tempHomes, messageLine, notificationText, outputLine, threadId, writeRollout } from '../../../dev/testing/codexRollout';
import { createCodexReader, seatFromCliTarget } from './reader';
import { sharedFixtures } from '../../../dev/testing/sharedFixtures';

const fixtures = sharedFixtures('the Codex reader over the synthetic v1 home and v2 excerpts');
const shared = fixtures.path('codex/synthetic');
const v1Home = join(shared, 'codex-home');
const v1Parent = join(v1Home, 'sessions/2026/04/20/rollout-2026-04-20T10-00-00-019daa55-2500-7840-9d72-08433ddf79ed.jsonl');
const later = () => Date.parse('2026-05-01T00:00:00.000Z');
const homes = tempHomes();
afterEach(homes.removeAll);

describe.skipIf(!fixtures.present)('the synthetic v1 home in ../shared/fixtures/codex', () => {
  it('projects both children as the parent settled them', async () => {
    const seat = await seatFromCliTarget(v1Parent, {});
    expect(seat).toMatchObject({ harness: 'codex', home: v1Home, sessionId: '019daa55-2500-7840-9d72-08433ddf79ed', cwd: '/home/dev/repo' });
    const projection = await createCodexReader({ home: v1Home, now: later }).project(seat);
    // Read from the files: Euclid's wait_agent output (10:00:20.001) is followed by its notification (10:00:20.002),
    // the latest record wins; Hypatia is closed by close_agent whose output is at 10:00:53.401.
    expect(projection).toMatchObject({ ok: true, read: { skippedLines: 0 } });
    if (!projection.ok) return;
    // The children's own usage is held by usage.test.ts; here the summary as the parent settled it.
    expect(withoutUsage(projection.subagents)).toEqual({
      running: 0,
      recent: [
        { nativeId: '019daa55-3950-79d2-a6ab-cf9e7e2d751c', label: 'Hypatia', kind: 'worker', background: false, state: 'ended', outcome: 'stopped', startedAt: '2026-04-20T10:00:05.200Z', endedAt: '2026-04-20T10:00:53.401Z', replayable: true },
        { nativeId: '019daa55-3180-70ff-8135-c9caa8464f9a', label: 'Euclid', kind: 'explorer', background: false, state: 'ended', outcome: 'completed', startedAt: '2026-04-20T10:00:03.200Z', endedAt: '2026-04-20T10:00:20.002Z', replayable: true },
      ],
    });
  });

  it('offers only the parent as a candidate, with its header cwd', async () => {
    const candidates = await createCodexReader({ home: v1Home }).discover();
    expect(candidates.map((candidate) => [candidate.id, candidate.cwdHint, candidate.seat.path])).toEqual([['codex:019daa55-2500-7840-9d72-08433ddf79ed', '/home/dev/repo', v1Parent]]);
  });

  it('projects the v2 excerpts placed in a temp home (paths, envelopes, list_agents, followup, close)', async () => {
    const codexHome = await homes.make();
    const folder = join(codexHome, 'sessions/2026/04/20');
    await mkdir(folder, { recursive: true });
    const ids = ['019daa8c-1380-7858-b9ba-a23c5be621c8', '019daa8c-2000-7235-b517-f8280df0e5f5', '019daa8c-27d0-740e-85ee-ae3969314287'];
    for (const [index, id] of ids.entries()) {
      const kind = index === 0 ? 'parent' : 'child';
      await copyFile(join(shared, `SYNTHETIC-v2-${kind}-excerpt-${id}.jsonl`), join(folder, `rollout-2026-04-20T11-00-0${index}-${id}.jsonl`));
    }
    const seat = await seatFromCliTarget(join(folder, `rollout-2026-04-20T11-00-00-${ids[0]}.jsonl`), {});
    const projection = await createCodexReader({ home: codexHome, now: later }).project(seat);
    if (!projection.ok) throw new Error(projection.reason);
    // file_counter: list_agents running (11:00:06.010), then its envelope notification completed (11:00:20.002).
    // licence_check: followup_task (11:00:21.010), notification (11:00:40.002), close_agent output (11:00:41.100).
    expect(projection.subagents.recent.map((entry) => [entry.label, entry.kind, entry.outcome, entry.endedAt])).toEqual([
      ['Kepler · /root/licence_check', null, 'stopped', '2026-04-20T11:00:41.100Z'],
      ['James · /root/file_counter', 'explorer', 'completed', '2026-04-20T11:00:20.002Z'],
    ]);
  });
});

describe('the reader over temp homes', () => {
  const parentId = threadId(1);
  const day = '2026/04/20';

  async function parentHome(lines: string[] = []) {
    const codexHome = await homes.make();
    const parentPath = await writeRollout(codexHome, day, '2026-04-20T10-00-00', parentId, [headerLine({ id: parentId, timestamp: '2026-04-20T10:00:00.000Z' }), ...lines]);
    const seat: SeatAddress = { harness: 'codex', home: codexHome, sessionId: parentId, path: parentPath };
    return { codexHome, parentPath, seat };
  }
  const childLines = (n: number, extra: Partial<Parameters<typeof headerLine>[0]> = {}) => [headerLine({ id: threadId(n), timestamp: `2026-04-20T10:00:${String(n).padStart(2, '0')}.000Z`, parent: parentId, ...extra })];

  /**
   * A reader counting its file system calls, on a clock `aheadMs` past the files' own times (10 s: no folder counts as
   * changed around a walk; 0: the files just written did) that moves only when the test moves it.
   */
  function countedReader(codexHome: string, aheadMs = 10_000) {
    const clock = { ms: Date.now() + aheadMs };
    const fs = countingFileSystem();
    return { fs, clock, reader: createCodexReader({ home: codexHome, fs, now: () => clock.ms }) };
  }

  it('does not repeat the tree walk when nothing changed, and reads zero bytes', async () => {
    const { codexHome, seat } = await parentHome();
    await writeRollout(codexHome, day, '2026-04-20T10-00-02', threadId(2), childLines(2));
    const fs = countingFileSystem();
    const reader = createCodexReader({ home: codexHome, fs, now: () => 1e15 });
    const first = await reader.project(seat);
    const walkReads = fs.counts.readdir;
    expect(walkReads).toBeGreaterThan(0);
    const second = await reader.project(seat);
    expect(fs.counts.readdir).toBe(walkReads);
    expect(first.ok && second.ok && second.read.bytes).toBe(0);
    expect(second.ok && second.subagents.recent).toHaveLength(1);
  });

  it('finds a new child within 2 s without a parent append, and at once when the parent changes', async () => {
    const { codexHome, parentPath, seat } = await parentHome();
    // The clock runs ahead of the files' times, so no folder counts as changed around a walk (see the next test).
    const { fs, clock, reader } = countedReader(codexHome);
    expect((await reader.project(seat)).ok).toBe(true);
    await writeRollout(codexHome, day, '2026-04-20T10-00-03', threadId(3), childLines(3));
    const before = fs.counts.readdir;
    const cached = await reader.project(seat);
    expect(cached.ok && cached.subagents.recent).toHaveLength(0); // within 2 s: the cached result stands
    clock.ms += 2000;
    const rechecked = await reader.project(seat);
    expect(rechecked.ok && rechecked.subagents.recent.map((entry) => entry.nativeId)).toEqual([threadId(3)]);
    expect(fs.counts.readdir).toBeGreaterThan(before);

    // A parent append with no new child: the folders are rechecked (unchanged), nothing is walked.
    const afterRecheck = fs.counts.readdir;
    await appendFile(parentPath, `${eventLine('2026-04-20T10:00:40.000Z', 'token_count')}\n`);
    expect((await reader.project(seat)).ok).toBe(true);
    expect(fs.counts.readdir).toBe(afterRecheck);
    // A child spawned with a parent append: found at once, within the 2 s.
    await writeRollout(codexHome, day, '2026-04-20T10-00-04', threadId(4), childLines(4));
    await appendFile(parentPath, `${eventLine('2026-04-20T10:00:41.000Z', 'token_count')}\n`);
    const spawned = await reader.project(seat);
    expect(spawned.ok && spawned.subagents.recent.map((entry) => entry.nativeId)).toEqual([threadId(4), threadId(3)]);
    expect(fs.counts.readdir).toBeGreaterThan(afterRecheck);
    const afterSpawn = fs.counts.readdir;
    await utimes(parentPath, new Date('2026-04-20T11:00:00Z'), new Date('2026-04-20T11:00:00Z'));
    expect((await reader.project(seat)).ok).toBe(true);
    expect(fs.counts.readdir).toBe(afterSpawn);
  });

  it('walks again on a parent change when the last walk met a first line still being written, or a folder changed around it', async () => {
    const { codexHome, parentPath, seat } = await parentHome();
    const { clock, reader } = countedReader(codexHome);
    expect((await reader.project(seat)).ok).toBe(true);
    // A child whose header line has no newline yet: the walk cannot know it, and finishing the line changes no folder.
    const [header] = childLines(5);
    const childPath = await writeRollout(codexHome, day, '2026-04-20T10-00-05', threadId(5), []);
    await appendFile(childPath, header.slice(0, 40));
    clock.ms += 2000;
    const partial = await reader.project(seat);
    expect(partial.ok && partial.subagents.recent).toHaveLength(0);
    await appendFile(childPath, `${header.slice(40)}\n`);
    await appendFile(parentPath, `${eventLine('2026-04-20T10:00:40.000Z', 'token_count')}\n`);
    const finished = await reader.project(seat);
    expect(finished.ok && finished.subagents.recent.map((entry) => entry.nativeId)).toEqual([threadId(5)]);

    // A reader whose first walk times folders that changed within 2 s of it (just written): a parent change walks.
    const { fs: fresh, reader: freshReader } = countedReader(codexHome, 0);
    expect((await freshReader.project(seat)).ok).toBe(true);
    const afterWalk = fresh.counts.readdir;
    expect(afterWalk).toBeGreaterThan(0);
    await appendFile(parentPath, `${eventLine('2026-04-20T10:00:41.000Z', 'token_count')}\n`);
    expect((await freshReader.project(seat)).ok).toBe(true);
    expect(fresh.counts.readdir).toBeGreaterThan(afterWalk);
    // That walk was unsettled too (the folders still within 2 s); a settled one, as above, would not walk.
    const { fs: settled, reader: settledReader } = countedReader(codexHome);
    expect((await settledReader.project(seat)).ok).toBe(true);
    const afterSettled = settled.counts.readdir;
    await appendFile(parentPath, `${eventLine('2026-04-20T10:00:42.000Z', 'token_count')}\n`);
    expect((await settledReader.project(seat)).ok).toBe(true);
    expect(settled.counts.readdir).toBe(afterSettled);
  });

  it('shares one walk among the parents of a home while its folders stand', async () => {
    const { codexHome, seat } = await parentHome();
    const otherId = threadId(20);
    const otherPath = await writeRollout(codexHome, day, '2026-04-20T10-00-20', otherId, [headerLine({ id: otherId, timestamp: '2026-04-20T10:00:20.000Z' })]);
    await writeRollout(codexHome, day, '2026-04-20T10-00-21', threadId(21), [headerLine({ id: threadId(21), timestamp: '2026-04-20T10:00:21.000Z', parent: otherId })]);
    const { fs, reader } = countedReader(codexHome);
    const first = await reader.project(seat);
    expect(first.ok && first.subagents.recent).toHaveLength(0);
    const walked = fs.counts.readdir;
    const other = await reader.project({ harness: 'codex', home: codexHome, sessionId: otherId, path: otherPath });
    expect(other.ok && other.subagents.recent.map((entry) => entry.nativeId)).toEqual([threadId(21)]);
    expect(fs.counts.readdir).toBe(walked);
  });

  it('turns a silent child idle after five minutes of no writes (controlled file time and clock)', async () => {
    const { codexHome, seat } = await parentHome();
    const childPath = await writeRollout(codexHome, day, '2026-04-20T10-00-02', threadId(2), childLines(2, { nickname: 'Ada' }));
    const written = new Date('2026-04-20T10:10:00.000Z');
    await utimes(childPath, written, written);
    let clock = written.getTime() + 4 * 60_000;
    const reader = createCodexReader({ home: codexHome, now: () => clock });
    const running = await reader.project(seat);
    expect(running.ok && running.subagents).toMatchObject({ running: 1, recent: [{ state: 'running', label: 'Ada' }] });
    clock = written.getTime() + 5 * 60_000;
    const idle = await reader.project(seat);
    expect(idle.ok && idle.subagents).toMatchObject({ running: 0, recent: [{ state: 'ended', outcome: 'idle', endedAt: '2026-04-20T10:15:00.000Z', endedAtEstimated: true }] });
    // A child write shows on the next read (children are re-stat'ed every time).
    await utimes(childPath, new Date(clock), new Date(clock));
    const again = await reader.project(seat);
    expect(again.ok && again.subagents.running).toBe(1);
  });

  it('reopens an ended child when its own rollout starts a newer turn', async () => {
    const { codexHome, parentPath, seat } = await parentHome([messageLine('2026-04-20T10:00:20.000Z', 'user', notificationText(threadId(2), { completed: 'ok' }))]);
    const childPath = await writeRollout(codexHome, day, '2026-04-20T10-00-02', threadId(2), [...childLines(2), eventLine('2026-04-20T10:00:02.500Z', 'task_started')]);
    const clock = Date.parse('2026-04-20T10:01:00.000Z');
    const reader = createCodexReader({ home: codexHome, now: () => clock });
    const ended = await reader.project(seat);
    expect(ended.ok && ended.subagents.recent[0]).toMatchObject({ state: 'ended', outcome: 'completed' });
    await appendFile(childPath, `${eventLine('2026-04-20T10:00:50.000Z', 'task_started')}\n`);
    const reopened = await reader.project(seat);
    expect(reopened.ok && reopened.subagents.recent[0]).toMatchObject({ state: 'running', nativeId: threadId(2) });
    // A later parent record ends it again.
    await appendFile(parentPath, `${callLine('2026-04-20T10:00:55.000Z', 'close_agent', { target: threadId(2) }, 'k')}\n${outputLine('2026-04-20T10:00:55.100Z', 'k', { previous_status: 'running' })}\n`);
    const closed = await reader.project(seat);
    expect(closed.ok && closed.subagents.recent[0]).toMatchObject({ state: 'ended', outcome: 'stopped', endedAt: '2026-04-20T10:00:55.100Z' });
  });

  it('reads a rewritten parent once, from a clean state: the cold read costs no more than a first read', async () => {
    const padding = 'p'.repeat(200_000); // large enough that a second pass over the file would show in the count
    const settled = messageLine('2026-04-20T10:00:20.000Z', 'user', notificationText(threadId(2), { completed: 'ok' }));
    const { codexHome, parentPath, seat } = await parentHome([messageLine('2026-04-20T10:00:10.000Z', 'user', padding), settled]);
    await writeRollout(codexHome, day, '2026-04-20T10-00-02', threadId(2), childLines(2));
    const reader = createCodexReader({ home: codexHome, now: () => Date.parse('2026-04-20T10:01:00.000Z') });
    const first = await reader.project(seat);
    expect(first.ok && first.subagents.recent[0]).toMatchObject({ state: 'ended', outcome: 'completed' });
    const size = (await stat(parentPath)).size;
    // Rewritten in place at the same size: the notification becomes a plain message of the same length.
    const plain = messageLine('2026-04-20T10:00:20.000Z', 'user', 'x'.repeat(settled.length - messageLine('2026-04-20T10:00:20.000Z', 'user', '').length));
    expect(plain.length).toBe(settled.length);
    await writeRollout(codexHome, day, '2026-04-20T10-00-00', parentId, [headerLine({ id: parentId, timestamp: '2026-04-20T10:00:00.000Z' }), messageLine('2026-04-20T10:00:10.000Z', 'user', padding), plain]);
    expect((await stat(parentPath)).size).toBe(size);
    const cold = await reader.project(seat);
    expect(cold.ok && cold.subagents.recent[0]).toMatchObject({ state: 'running' });
    // The file once, plus its header and the discovery of its children: never a second pass over the file.
    const coldBytes = cold.ok ? cold.read.bytes : 0;
    expect(coldBytes).toBeGreaterThanOrEqual(size);
    expect(coldBytes).toBeLessThanOrEqual(first.ok ? first.read.bytes : 0);
    expect(coldBytes).toBeLessThan(2 * size);
  });

  it('keeps only direct children: grandchildren, helpers and other parents are left out', async () => {
    const { codexHome, seat } = await parentHome();
    await writeRollout(codexHome, day, '2026-04-20T10-00-02', threadId(2), childLines(2));
    await writeRollout(codexHome, day, '2026-04-20T10-00-04', threadId(4), [headerLine({ id: threadId(4), timestamp: '2026-04-20T10:00:04.000Z', parent: threadId(2) })]);
    await writeRollout(codexHome, day, '2026-04-20T10-00-05', threadId(5), [headerLine({ id: threadId(5), timestamp: '2026-04-20T10:00:05.000Z', source: { subagent: 'Review' } })]);
    const reader = createCodexReader({ home: codexHome, now: () => 0 });
    const projection = await reader.project(seat);
    expect(projection.ok && projection.subagents.recent.map((entry) => entry.nativeId)).toEqual([threadId(2)]);
    expect((await reader.discover()).map((candidate) => candidate.id)).toEqual([`codex:${parentId}`]);
  });

  it('locates the rollout by thread id when the seat has no path, and says why when it is missing', async () => {
    const { codexHome, parentPath } = await parentHome();
    const reader = createCodexReader({ home: codexHome, now: () => 0 });
    const found = await reader.project({ harness: 'codex', home: codexHome, sessionId: parentId });
    expect(found.ok).toBe(true);
    expect(reader.watchPaths({ harness: 'codex', home: codexHome, sessionId: parentId })[0]).toBe(parentPath);
    const missing = await reader.project({ harness: 'codex', home: codexHome, sessionId: threadId(99) });
    expect(missing).toMatchObject({ ok: false });
  });

  it('refuses a rollout whose header names another thread', async () => {
    const { seat } = await parentHome();
    const projection = await createCodexReader({ home: seat.home }).project({ ...seat, sessionId: threadId(7) });
    expect(projection.ok === false && projection.reason).toMatch(/belongs to thread/);
  });

  it('derives the home from the one it is given (the CLI passes --codex-home, else $CODEX_HOME), else the folder above sessions/, never from process.env', async () => {
    const { codexHome, parentPath } = await parentHome();
    const saved = process.env.CODEX_HOME;
    try {
      process.env.CODEX_HOME = '/elsewhere';
      expect((await seatFromCliTarget(parentPath, {})).home).toBe(codexHome);
      expect((await seatFromCliTarget(parentPath, { codexHome: '/flag' })).home).toBe('/flag');
    } finally {
      if (saved === undefined) delete process.env.CODEX_HOME;
      else process.env.CODEX_HOME = saved;
    }
    await expect(seatFromCliTarget(join(codexHome, 'nope.jsonl'), {})).rejects.toMatchObject({ code: 'not_found' });
  });
});

/** The summary without each entry's usage (issue 26), for tests about the subagents alone. */
function withoutUsage<T extends { recent: { usage?: unknown }[] }>(summary: T): T {
  return { ...summary, recent: summary.recent.map((entry) => {
    const copy = { ...entry };
    delete copy.usage;
    return copy;
  }) };
}
