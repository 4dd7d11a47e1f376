import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SeatAddress } from '../../../../shared/schemas';
import { LOCKED_REASON, projectSeat } from './reader';
import { V2_ONLY_REASON } from './schema';
import { OPENCODE_MESSAGES, OPENCODE_PARTS, OPENCODE_PAYLOAD_BYTES } from '../kit/bounds';
import { makeTempDir, MINIMAL_SCHEMA, StoreWriter } from '../../../dev/testing/opencodeStore';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function newStore(options: { schema?: string; wal?: boolean } = {}): { writer: StoreWriter; home: string } {
  const temp = makeTempDir();
  const home = join(temp.dir, 'opencode.db');
  const writer = new StoreWriter(home, options);
  cleanups.push(temp.remove);
  cleanups.push(() => {
    if (writer.database.open) writer.close();
  });
  return { writer, home };
}

const seat = (home: string, sessionId = 'ses_parent'): SeatAddress => ({ harness: 'opencode', home, sessionId, cwd: null, path: null });

async function ids(home: string): Promise<string[]> {
  const projection = await projectSeat(seat(home));
  if (!projection.ok) throw new Error(projection.reason);
  return projection.subagents.recent.map((entry) => entry.nativeId ?? '');
}

describe('schema check', () => {
  it('names the missing tables and columns', async () => {
    const { writer, home } = newStore({
      schema: `CREATE TABLE session (id TEXT PRIMARY KEY, parent_id TEXT, time_created INTEGER);
               CREATE TABLE message (id TEXT, session_id TEXT, time_created INTEGER, data TEXT);`,
    });
    writer.close();
    const projection = await projectSeat(seat(home));
    expect(projection.ok).toBe(false);
    if (projection.ok) return;
    expect(projection.reason).toContain('session.directory');
    expect(projection.reason).toContain('table part');
    expect(projection.reason).not.toContain('message.');
  });

  it('admits later columns and tables', async () => {
    const extended = MINIMAL_SCHEMA.replace('time_updated INTEGER NOT NULL);', 'time_updated INTEGER NOT NULL, agent TEXT, cost REAL DEFAULT 0);')
      + 'CREATE TABLE event (id TEXT, body TEXT); ALTER TABLE part ADD COLUMN extra TEXT;';
    const { writer, home } = newStore({ schema: extended });
    writer.session('ses_parent');
    writer.task(writer.message('ses_parent', 10), 'ses_parent', 11, { callId: 'call', status: 'running', start: 1 });
    expect(await ids(home)).toEqual(['call']);
  });

  it('shows a session_v2-only seat as unknown, and reads a seat present in both generations from 1.x', async () => {
    const { writer, home } = newStore();
    writer.database.exec('CREATE TABLE session_v2 (id TEXT PRIMARY KEY, parent_id TEXT, directory TEXT, time_created INTEGER)');
    writer.database.exec("INSERT INTO session_v2 VALUES ('ses_newer', NULL, '/work/repo', 1), ('ses_parent', NULL, '/work/repo', 1)");
    writer.session('ses_parent');
    writer.task(writer.message('ses_parent', 10), 'ses_parent', 11, { callId: 'call', status: 'running', start: 1 });
    expect(await projectSeat(seat(home, 'ses_newer'))).toEqual({ ok: false, reason: V2_ONLY_REASON });
    expect(await ids(home)).toEqual(['call']);
  });

  it('shows a 2.x store without the 1.x tables as unknown with the 2.x reason', async () => {
    const { writer, home } = newStore({ schema: 'CREATE TABLE session_v2 (id TEXT PRIMARY KEY, directory TEXT);' });
    writer.database.exec("INSERT INTO session_v2 VALUES ('ses_parent', '/work/repo')");
    expect(await projectSeat(seat(home))).toEqual({ ok: false, reason: V2_ONLY_REASON });
  });
});

describe('damaged stores', () => {
  it('answers with a reason, never a crash, for a file that is not a database or is empty', async () => {
    const temp = makeTempDir();
    cleanups.push(temp.remove);
    const garbage = join(temp.dir, 'garbage.db');
    writeFileSync(garbage, 'this is not sqlite '.repeat(100));
    expect(await projectSeat(seat(garbage))).toEqual({ ok: false, reason: expect.stringContaining('could not be read') });
    const empty = join(temp.dir, 'empty.db');
    writeFileSync(empty, '');
    expect(await projectSeat(seat(empty))).toEqual({ ok: false, reason: expect.stringContaining('table session') });
  });
});

describe('live store', () => {
  it('sees rows still in the WAL while a writer keeps the database open', async () => {
    const { writer, home } = newStore({ wal: true });
    writer.session('ses_parent');
    const message = writer.message('ses_parent', 10);
    writer.task(message, 'ses_parent', 11, { callId: 'first', status: 'running', start: 1 });
    expect(await ids(home)).toEqual(['first']);
    writer.task(message, 'ses_parent', 12, { callId: 'second', status: 'running', start: 2 });
    expect(statSync(`${home}-wal`).size).toBeGreaterThan(0);
    // Without a checkpoint the new row lives only in the WAL file, not in the main file.
    expect(readFileSync(home).includes('second')).toBe(false);
    expect(readFileSync(`${home}-wal`).includes('second')).toBe(true);
    expect(await ids(home)).toEqual(['second', 'first']);
  });

  it('shows a database locked by an exclusive writer as unknown, then reads it once released', async () => {
    const { writer, home } = newStore({ wal: true });
    writer.session('ses_parent');
    writer.task(writer.message('ses_parent', 10), 'ses_parent', 11, { callId: 'call', status: 'running', start: 1 });
    writer.database.pragma('locking_mode = EXCLUSIVE');
    writer.database.exec('BEGIN EXCLUSIVE');
    writer.database.exec("UPDATE session SET time_updated = 2 WHERE id = 'ses_parent'");
    expect(await projectSeat(seat(home))).toEqual({ ok: false, reason: LOCKED_REASON });
    writer.database.exec('COMMIT');
    writer.close();
    expect(await ids(home)).toEqual(['call']);
  });

  it('shows a rollback-journal database inside BEGIN EXCLUSIVE as unknown', async () => {
    const { writer, home } = newStore();
    writer.session('ses_parent');
    writer.database.exec('BEGIN EXCLUSIVE');
    writer.database.exec("UPDATE session SET time_updated = 2 WHERE id = 'ses_parent'");
    expect(await projectSeat(seat(home))).toEqual({ ok: false, reason: LOCKED_REASON });
    writer.database.exec('ROLLBACK');
    expect(existsSync(home)).toBe(true);
  });
});

describe('bounds', () => {
  it('reads only the 500 most recent parent messages', async () => {
    const { writer, home } = newStore();
    writer.session('ses_parent');
    writer.database.exec('BEGIN');
    writer.task(writer.message('ses_parent', 1), 'ses_parent', 1, { callId: 'too_old', status: 'running', start: 1 });
    for (let index = 0; index < OPENCODE_MESSAGES - 1; index += 1) writer.message('ses_parent', 10 + index);
    writer.task(writer.message('ses_parent', 5_000), 'ses_parent', 5_000, { callId: 'newest', status: 'running', start: 5_000 });
    writer.database.exec('COMMIT');
    expect(await ids(home)).toEqual(['newest']);
    writer.database.prepare("DELETE FROM message WHERE time_created = 10").run();
    expect(await ids(home)).toEqual(['newest', 'too_old']);
  });

  it('reads only the 2,000 most recent parts', async () => {
    const { writer, home } = newStore();
    writer.session('ses_parent');
    const message = writer.message('ses_parent', 10);
    writer.database.exec('BEGIN');
    writer.task(message, 'ses_parent', 10, { callId: 'too_old', status: 'running', start: 1 });
    for (let index = 0; index < OPENCODE_PARTS; index += 1) writer.part(message, 'ses_parent', 11, { type: 'step-start' });
    writer.database.exec('COMMIT');
    expect(await ids(home)).toEqual([]);
    writer.database.prepare("DELETE FROM part WHERE rowid = (SELECT max(rowid) FROM part)").run();
    expect(await ids(home)).toEqual(['too_old']);
  });

  it('reads at most 4 MiB of part payload, newest first', async () => {
    const { writer, home } = newStore();
    writer.session('ses_parent');
    writer.task(writer.message('ses_parent', 1), 'ses_parent', 1, { callId: 'too_old', status: 'running', start: 1 });
    const filler = 'x'.repeat(1024 * 1024);
    for (let index = 0; index < 4; index += 1) {
      writer.part(writer.message('ses_parent', 10 + index), 'ses_parent', 10 + index, { type: 'text', text: filler });
    }
    writer.task(writer.message('ses_parent', 100), 'ses_parent', 100, { callId: 'newest', status: 'running', start: 100 });
    const projection = await projectSeat(seat(home));
    if (!projection.ok) throw new Error(projection.reason);
    expect(projection.subagents.recent.map((entry) => entry.nativeId)).toEqual(['newest']);
    expect(projection.read.bytes).toBeLessThanOrEqual(OPENCODE_PAYLOAD_BYTES);
    expect(projection.read.bytes).toBeGreaterThan(3 * 1024 * 1024);
  });

  it('keeps the 64 most recent task calls: older running calls are not counted', async () => {
    const { writer, home } = newStore();
    writer.session('ses_parent');
    const message = writer.message('ses_parent', 10);
    writer.database.exec('BEGIN');
    for (let index = 0; index < 70; index += 1) {
      const status = index < 6 ? 'running' : 'completed';
      writer.task(message, 'ses_parent', 10, { callId: `call_${String(index).padStart(2, '0')}`, status, start: 1_000 + index, end: 2_000 + index });
    }
    writer.database.exec('COMMIT');
    const projection = await projectSeat(seat(home));
    if (!projection.ok) throw new Error(projection.reason);
    expect(projection.subagents.running).toBe(0);
    expect(projection.subagents.recent).toHaveLength(8);
    expect(projection.subagents.recent[0].nativeId).toBe('call_69');
  });
});
