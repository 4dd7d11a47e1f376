import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SubagentSummarySchema } from '../../../../shared/schemas';
import type { SeatAddress } from '../../../../shared/schemas';
import { createOpenCodeReader, projectSeat } from './reader';
import { perTestCleanups } from '../../../dev/testing/cleanups';
import { StoreWriter } from '../../../dev/testing/opencodeStore';
import { sharedFixtures } from '../../../dev/testing/sharedFixtures';

const fixtures = sharedFixtures('the OpenCode reader over the synthetic 1.x store');
const FIXTURE_SQL = fixtures.path('opencode/synthetic/opencode-1x.sql');
const PARENT = 'ses_17349f97fffeS3nQnV6PpF02QK';

const { cleanups, tempDir } = perTestCleanups();

/** The shared synthetic 1.x fixture, built into a real database in a temp folder. */
function fixtureDb(dir = tempDir()): string {
  const path = join(dir, 'opencode.db');
  const database = new Database(path);
  database.exec(readFileSync(FIXTURE_SQL, 'utf8'));
  database.close();
  return path;
}

const seatOf = (home: string, sessionId: string): SeatAddress => ({ harness: 'opencode', home, sessionId, cwd: '/work/repo', path: null });

describe.skipIf(!fixtures.present)('OpenCode reader over the 1.x fixture', () => {
  it('projects every task call state of the fixture', async () => {
    const home = fixtureDb();
    const projection = await createOpenCodeReader({ db: home }).project(seatOf(home, PARENT));
    if (!projection.ok) throw new Error(projection.reason);
    expect(SubagentSummarySchema.parse(projection.subagents)).toEqual(projection.subagents);
    // The children's own usage is held by usage.test.ts; here the summary as the parent settled it.
    expect(withoutUsage(projection.subagents)).toEqual({
      running: 1,
      recent: [
        { nativeId: 'toolu_01PFleetTaskLines0006', label: 'explore: Count Rust lines', kind: 'explore', background: false, state: 'running', startedAt: new Date(1780477321500).toISOString(), replayable: true },
        { nativeId: 'toolu_01PFleetTaskReview003', label: 'reviewer: Review the diff', kind: 'reviewer', background: false, state: 'ended', outcome: 'failed', startedAt: new Date(1780477201700).toISOString(), endedAt: new Date(1780477201800).toISOString(), replayable: false },
        { nativeId: 'toolu_01PFleetTaskTodo00002', label: 'general: Scan TODO comments', kind: 'general', background: true, state: 'ended', outcome: 'completed', startedAt: new Date(1780477201600).toISOString(), endedAt: new Date(1780477230000).toISOString(), replayable: true },
        { nativeId: 'toolu_01PFleetTaskCount0001', label: 'explore: Count repo files', kind: 'explore', background: false, state: 'ended', outcome: 'completed', startedAt: new Date(1780477201500).toISOString(), endedAt: new Date(1780477212000).toISOString(), replayable: true },
      ],
    });
    expect(projection.read.skippedLines).toBe(0);
    expect(projection.read.bytes).toBeGreaterThan(0);
    expect(projection.lastWriteMs).toBe(1780477321600);
  });

  it('never writes to the store it reads', async () => {
    const home = fixtureDb();
    const before = createHash('sha256').update(readFileSync(home)).digest('hex');
    const mtime = statSync(home).mtimeMs;
    const reader = createOpenCodeReader({ db: home });
    await reader.project(seatOf(home, PARENT));
    await reader.replay(seatOf(home, PARENT), 'toolu_01PFleetTaskCount0001');
    await reader.discover();
    expect(createHash('sha256').update(readFileSync(home)).digest('hex')).toBe(before);
    expect(statSync(home).mtimeMs).toBe(mtime);
  });

  it('discovers top-level sessions only, with directory and time', async () => {
    const home = fixtureDb();
    const candidates = await createOpenCodeReader({ db: home }).discover();
    expect(candidates).toEqual([
      {
        id: `opencode:${PARENT}`,
        harness: 'opencode',
        seat: { harness: 'opencode', home, sessionId: PARENT, cwd: '/home/dev/repo', path: null },
        cwdHint: '/home/dev/repo',
        lastActivity: new Date(1780477321600).toISOString(),
        size: 0,
      },
    ]);
  });

  it('discovers every opencode*.db of the data folder', async () => {
    const dir = tempDir();
    fixtureDb(dir);
    const other = new StoreWriter(join(dir, 'opencode-dev.db'));
    other.session('ses_devSession1', { time: 5 });
    other.close();
    const ids = (await createOpenCodeReader({ dataDir: dir, env: {} }).discover()).map((candidate) => candidate.id);
    expect(ids).toEqual([`opencode:${PARENT}`, 'opencode:ses_devSession1']);
  });

  it('watches the database and its WAL file', () => {
    const seat = seatOf('/data/opencode.db', PARENT);
    expect(createOpenCodeReader().watchPaths(seat)).toEqual(['/data/opencode.db', '/data/opencode.db-wal']);
  });

  it('reports a missing database and an unknown session as unknown with a reason', async () => {
    const dir = tempDir();
    expect(await projectSeat(seatOf(join(dir, 'none.db'), PARENT))).toEqual({ ok: false, reason: expect.stringContaining('does not exist') });
    const home = fixtureDb(dir);
    expect(await projectSeat(seatOf(home, 'ses_missing'))).toEqual({ ok: false, reason: expect.stringContaining('is not in') });
  });
});

describe('OpenCode reader over stores written by the tests', () => {
  function store(): { writer: StoreWriter; home: string } {
    const home = join(tempDir(), 'opencode.db');
    const writer = new StoreWriter(home);
    cleanups.push(() => writer.database.open && writer.close());
    writer.session('ses_parent', { directory: '/work/repo' });
    return { writer, home };
  }

  it('replays a resumed child through distinct calls, and refuses children in another directory', async () => {
    const { writer, home } = store();
    writer.session('ses_child', { parent: 'ses_parent', directory: '/work/repo' });
    writer.session('ses_away', { parent: 'ses_parent', directory: '/elsewhere' });
    writer.session('ses_stranger', { parent: 'ses_other', directory: '/work/repo' });
    const message = writer.message('ses_parent', 100);
    writer.task(message, 'ses_parent', 101, { callId: 'first', status: 'completed', start: 1_000, end: 2_000, child: 'ses_child' });
    writer.task(message, 'ses_parent', 102, { callId: 'resume', status: 'running', start: 3_000, child: 'ses_child' });
    writer.task(message, 'ses_parent', 103, { callId: 'away', status: 'completed', start: 500, end: 600, child: 'ses_away' });
    writer.task(message, 'ses_parent', 104, { callId: 'stranger', status: 'completed', start: 400, end: 450, child: 'ses_stranger' });
    const projection = await projectSeat(seatOf(home, 'ses_parent'));
    if (!projection.ok) throw new Error(projection.reason);
    expect(projection.subagents.recent.map((entry) => [entry.nativeId, entry.state, entry.replayable])).toEqual([
      ['resume', 'running', true],
      ['first', 'ended', true],
      ['away', 'ended', false],
      ['stranger', 'ended', false],
    ]);
  });

  it('counts malformed rows as skipped and still reads the rest', async () => {
    const { writer, home } = store();
    const message = writer.message('ses_parent', 100);
    writer.part(message, 'ses_parent', 101, '{"type":"tool","tool":"task", broken');
    writer.task(message, 'ses_parent', 102, { callId: 'fine', status: 'running', start: 1 });
    const projection = await projectSeat(seatOf(home, 'ses_parent'));
    expect(projection).toMatchObject({ ok: true, read: { skippedLines: 1 }, subagents: { running: 1 } });
  });

  it('reuses an unchanged store for a moment without reading, and rereads after a write', async () => {
    const { writer, home } = store();
    const message = writer.message('ses_parent', 100);
    writer.task(message, 'ses_parent', 101, { callId: 'one', status: 'running', start: 1 });
    let clock = 0;
    const reader = createOpenCodeReader({ db: home, now: () => clock });
    const seat = seatOf(home, 'ses_parent');
    const first = await reader.project(seat);
    expect(first).toMatchObject({ ok: true, subagents: { running: 1 } });
    expect(await reader.project(seat)).toMatchObject({ ok: true, read: { bytes: 0 }, subagents: { running: 1 } });
    writer.task(message, 'ses_parent', 102, { callId: 'two', status: 'running', start: 2 });
    clock = 10_000;
    expect(await reader.project(seat)).toMatchObject({ ok: true, subagents: { running: 2 } });
  });

  it('keeps what it reuses per seat: concurrent reads of one seat read the store once, and a forgotten seat reads again', async () => {
    const { writer, home } = store();
    const message = writer.message('ses_parent', 100);
    writer.task(message, 'ses_parent', 101, { callId: 'one', status: 'running', start: 1 });
    const reader = createOpenCodeReader({ db: home, now: () => 0 });
    const seat = seatOf(home, 'ses_parent');
    await reader.project(seat); // opening the store may create its WAL file: the stamp settles after a first read
    reader.forget(seat);
    const reads = await Promise.all([reader.project(seat), reader.project(seat), reader.project(seat)]);
    expect(reads.filter((read) => read.ok && read.read.bytes > 0)).toHaveLength(1);
    reader.forget(seat);
    const again = await reader.project(seat);
    expect(again.ok && again.read.bytes).toBeGreaterThan(0);
    expect(await reader.project(seat)).toMatchObject({ ok: true, read: { bytes: 0 }, subagents: { running: 1 } });
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
