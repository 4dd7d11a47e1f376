import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { SeatAddress } from '../../../../shared/schemas';
import type { Projection } from '../port';
import { createOpenCodeReader } from './reader';
import { OPENCODE_UNCHANGED_REUSE_MS } from '../kit/bounds';
import { perTestCleanups } from '../../../dev/testing/cleanups';
import { StoreWriter } from '../../../dev/testing/opencodeStore';

const { cleanups, tempDir } = perTestCleanups();

const seatOf = (home: string, sessionId: string): SeatAddress => ({ harness: 'opencode', home, sessionId, cwd: '/work/repo', path: null });

/** A real WAL store with two top-level sessions, each with a running task call, and a reader on a test clock. */
function twoSeats() {
  const home = join(tempDir(), 'opencode.db');
  const writer = new StoreWriter(home, { wal: true });
  cleanups.push(() => writer.database.open && writer.close());
  const clock = { now: 1_000_000 };
  const reader = createOpenCodeReader({ db: home, now: () => clock.now });
  cleanups.push(() => reader.dispose());
  const seats: Record<'one' | 'two', { seat: SeatAddress; message: string }> = {} as never;
  for (const name of ['one', 'two'] as const) {
    const id = writer.session(`ses_${name}`, { directory: '/work/repo' });
    const message = writer.message(id, 100);
    writer.task(message, id, 101, { callId: `${name}-first`, status: 'running', start: 1 });
    seats[name] = { seat: seatOf(home, id), message };
  }
  return { home, writer, clock, reader, seats };
}

/** Bytes a projection read: 0 when it was answered without reading the seat's rows again. */
function bytesRead(projection: Projection): number {
  if (!projection.ok) throw new Error(projection.reason);
  return projection.read.bytes;
}

describe('Rule 3b: a store written for one session reads only that session again', () => {
  it('reads again only the seat whose session was written; the other answers from its last reading', async () => {
    const { writer, reader, seats } = twoSeats();
    const firstOne = await reader.project(seats.one.seat);
    expect(bytesRead(firstOne)).toBeGreaterThan(0);
    expect(bytesRead(await reader.project(seats.two.seat))).toBeGreaterThan(0);

    writer.task(seats.two.message, 'ses_two', 102, { callId: 'two-second', status: 'running', start: 2 });
    const one = await reader.project(seats.one.seat);
    const two = await reader.project(seats.two.seat);

    expect(bytesRead(one)).toBe(0);
    expect(one).toMatchObject({ ok: true, subagents: { running: 1 } });
    expect(bytesRead(two)).toBeGreaterThan(0);
    expect(two).toMatchObject({ ok: true, subagents: { running: 2 } });
  });

  it('reads a seat again when one of its parts is updated in place', async () => {
    const { writer, reader, seats } = twoSeats();
    await reader.project(seats.one.seat);
    const part = writer.task(seats.one.message, 'ses_one', 102, { callId: 'one-second', status: 'running', start: 2 });
    expect(await reader.project(seats.one.seat)).toMatchObject({ ok: true, subagents: { running: 2 } });

    const row = writer.database.prepare('SELECT data FROM part WHERE id = ?').get(part) as { data: string };
    const data = JSON.parse(row.data) as { state: Record<string, unknown> };
    data.state = { ...data.state, status: 'completed', time: { start: 2, end: 3 } };
    writer.database.prepare('UPDATE part SET data = ?, time_updated = ? WHERE id = ?').run(JSON.stringify(data), 103, part);

    const after = await reader.project(seats.one.seat);
    expect(bytesRead(after)).toBeGreaterThan(0);
    expect(after).toMatchObject({ ok: true, subagents: { running: 1 } });
  });

  it("reads the parent again when a child session's message is written (its usage counts toward the parent's)", async () => {
    const { writer, reader, seats } = twoSeats();
    writer.session('ses_child', { parent: 'ses_one', directory: '/work/repo' });
    const before = await reader.project(seats.one.seat);
    writer.message('ses_child', 200, { role: 'assistant', time: { created: 200, completed: 201 }, tokens: { input: 10, output: 5, reasoning: 0, cache: { read: 0, write: 0 } }, cost: 0.01, modelID: 'test-model' });

    const after = await reader.project(seats.one.seat);
    expect(bytesRead(after)).toBeGreaterThan(0);
    expect(after.ok && after.usage).not.toEqual(before.ok && before.usage);
    expect(bytesRead(await reader.project(seats.two.seat))).toBeGreaterThan(0); // its first read
  });

  it('reads a seat again once its last full read is older than the reuse bound, even with nothing of its own written', async () => {
    const { writer, clock, reader, seats } = twoSeats();
    await reader.project(seats.one.seat);
    writer.task(seats.two.message, 'ses_two', 102, { callId: 'two-second', status: 'running', start: 2 });
    expect(bytesRead(await reader.project(seats.one.seat))).toBe(0);
    clock.now += OPENCODE_UNCHANGED_REUSE_MS;
    expect(bytesRead(await reader.project(seats.one.seat))).toBeGreaterThan(0);
  });

  it('reads every seat again after any write when the store keeps no time_updated on its parts', async () => {
    const home = join(tempDir(), 'opencode.db');
    const database = new Database(home);
    cleanups.push(() => database.close());
    database.exec(`
      CREATE TABLE session (id TEXT PRIMARY KEY, parent_id TEXT, directory TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
      CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
      CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, data TEXT NOT NULL);`);
    const task = (id: string, session: string, message: string, callId: string) =>
      database
        .prepare('INSERT INTO part (id, message_id, session_id, time_created, data) VALUES (?, ?, ?, ?, ?)')
        .run(id, message, session, 101, JSON.stringify({ type: 'tool', callID: callId, tool: 'task', state: { status: 'running', input: { description: 'Do a thing', subagent_type: 'general' }, time: { start: 1 } } }));
    for (const name of ['one', 'two']) {
      database.prepare('INSERT INTO session VALUES (?, NULL, ?, 1000, 1000)').run(`ses_${name}`, '/work/repo');
      database.prepare('INSERT INTO message VALUES (?, ?, 100, 100, ?)').run(`msg_${name}`, `ses_${name}`, JSON.stringify({ role: 'assistant', time: { created: 100 } }));
      task(`prt_${name}1`, `ses_${name}`, `msg_${name}`, `${name}-first`);
    }
    const reader = createOpenCodeReader({ db: home, now: () => 0 });
    cleanups.push(() => reader.dispose());
    const one = seatOf(home, 'ses_one');
    expect(await reader.project(one)).toMatchObject({ ok: true, subagents: { running: 1 } });
    task('prt_two2', 'ses_two', 'msg_two', 'two-second');
    expect(bytesRead(await reader.project(one))).toBeGreaterThan(0);
  });
});
