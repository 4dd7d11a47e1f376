import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HISTORY_APPLICATION_ID, HISTORY_SCHEMA_VERSION, migrate } from './schema';
import { openDatabase } from './sqlite';
import { openHistoryStore } from './store';

const folders: string[] = [];
afterEach(() => {
  while (folders.length) rmSync(folders.pop()!, { recursive: true, force: true });
});
function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pf-history-'));
  folders.push(dir);
  return dir;
}

/** A new store in a folder of its own (closed by the test). */
async function freshStore() {
  const opened = await openHistoryStore(join(home(), 'history.sqlite'));
  if (!opened.ok) throw new Error(opened.reason);
  return opened.store;
}

describe('history store schema', () => {
  it('a new store carries our application id, the current version, WAL and incremental vacuum', async () => {
    const file = join(home(), 'history.sqlite');
    const opened = await openHistoryStore(file);
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    const database = opened.store.database;
    expect(Number(database.pragma('application_id'))).toBe(HISTORY_APPLICATION_ID);
    expect(Number(database.pragma('user_version'))).toBe(HISTORY_SCHEMA_VERSION);
    expect(database.pragma('journal_mode')).toBe('wal');
    expect(Number(database.pragma('auto_vacuum'))).toBe(2);
    opened.store.close();
  });

  it('migration 1 → 2 → 3 keeps every recorded row and adds the usage and alias tables', async () => {
    const file = join(home(), 'history.sqlite');
    const old = await openDatabase(file);
    expect(migrate(old, 1)).toEqual({ kind: 'ready', from: 0 });
    for (const text of ['claude:a', 'p1', 'AskUserQuestion']) old.prepare('INSERT INTO name (text) VALUES (?)').run(text);
    old.prepare('INSERT INTO activity (at, seat, persona, state, why, certain, label, since) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(1000, 1, 2, 'needs-you', 'question', 1, 3, 900);
    expect(() => old.prepare('SELECT * FROM usage_sample').all()).toThrow();
    old.close();
    const opened = await openHistoryStore(file);
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    const database = opened.store.database;
    expect(Number(database.pragma('user_version'))).toBe(HISTORY_SCHEMA_VERSION);
    expect(opened.store.transitions(0, 2000)).toEqual([
      { t: 'activity', at: 1000, seat: 'claude:a', persona: 'p1', state: 'needs-you', why: 'question', certain: true, label: 'AskUserQuestion', since: 900 },
    ]);
    expect(database.prepare('SELECT count(*) AS n FROM usage_sample').get()).toEqual({ n: 0 });
    expect(database.prepare('SELECT count(*) AS n FROM alias').get()).toEqual({ n: 0 });
    opened.store.close();
  });

  it('migration 2 → 3 keeps every row of every table it rebuilds, with states, reasons and outcomes interned, and still reads text snapshots', async () => {
    const file = join(home(), 'history.sqlite');
    const old = await openDatabase(file);
    expect(migrate(old, 2)).toEqual({ kind: 'ready', from: 0 });
    for (const text of ['claude:a', 'p1', 'Bash', 'explore']) old.prepare('INSERT INTO name (text) VALUES (?)').run(text);
    const activity = old.prepare('INSERT INTO activity (at, seat, persona, state, why, certain, label, since) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    activity.run(1000, 1, 2, 'working', null, 1, 3, null);
    activity.run(1000, 1, 2, 'needs-you', 'approval', 0, 3, -1);
    activity.run(1500, 1, 2, 'idle', null, 1, null, 1200);
    old.prepare('INSERT INTO needs_you (at, seat, persona, entered, why, certain, waited_ms) VALUES (?, ?, ?, ?, ?, ?, ?)').run(1000, 1, 2, 1, 'approval', 0, null);
    old.prepare('INSERT INTO needs_you (at, seat, persona, entered, why, certain, waited_ms) VALUES (?, ?, ?, ?, ?, ?, ?)').run(1400, 1, 2, 0, 'approval', 0, 400);
    old.prepare('INSERT INTO job (id, at, ended_at, seat, persona, native_id, key, alias, type, label, background, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(7, 1100, 1300, 1, 2, 'toolu_1', null, 'explore-1', 4, 3, 0, 'failed');
    old.prepare('INSERT INTO job (id, at, ended_at, seat, persona, native_id, key, alias, type, label, background, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(8, 1200, null, 1, 2, 'toolu_2', null, 'explore-2', 4, 3, 1, null);
    old.prepare('INSERT INTO usage_sample (at, seat, persona, input, output, cache_read, cache_write, cost_usd, context_used, context_fill) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(1600, 1, 2, 10, 20, 30, 40, 0.5, 1000, null);
    const world = { v: 1, at: 900, seats: [], personas: [{ id: 'p1', name: 'Ada', role: 'builder', appearance: null, createdAt: null }], jobs: [] };
    old.prepare('INSERT INTO snapshot (at, state) VALUES (?, ?)').run(900, JSON.stringify(world));
    old.close();
    const opened = await openHistoryStore(file);
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    const store = opened.store;
    expect(Number(store.database.pragma('user_version'))).toBe(HISTORY_SCHEMA_VERSION);
    const seen = store.transitions(0, 2000);
    expect(seen.filter((entry) => entry.t === 'activity')).toEqual([
      { t: 'activity', at: 1000, seat: 'claude:a', persona: 'p1', state: 'working', why: null, certain: true, label: 'Bash', since: 1000 },
      { t: 'activity', at: 1000, seat: 'claude:a', persona: 'p1', state: 'needs-you', why: 'approval', certain: false, label: 'Bash', since: null },
      { t: 'activity', at: 1500, seat: 'claude:a', persona: 'p1', state: 'idle', why: null, certain: true, label: null, since: 1200 },
    ]);
    expect(seen.filter((entry) => entry.t === 'needs').map((entry) => [entry.at, entry.t === 'needs' && entry.why, entry.t === 'needs' && entry.waitedMs])).toEqual([
      [1000, 'approval', null],
      [1400, 'approval', 400],
    ]);
    expect(seen.filter((entry) => entry.t === 'job').map((entry) => entry.t === 'job' && [entry.at, entry.row, entry.ended, entry.outcome, entry.alias])).toEqual([
      [1100, 7, false, null, 'explore-1'],
      [1200, 8, false, null, 'explore-2'],
      [1300, 7, true, 'failed', 'explore-1'],
    ]);
    expect(seen.filter((entry) => entry.t === 'usage')).toMatchObject([{ at: 1600, input: 10, output: 20, cacheRead: 30, cacheWrite: 40, costUsd: 0.5, contextUsed: 1000, contextFill: null }]);
    // The text snapshot written before version 3 is the base of a seek; new rows go in next to the migrated ones.
    expect(store.seek(950).world.personas.get('p1')).toMatchObject({ name: 'Ada', role: 'builder' });
    store.write([{ t: 'activity', at: 1000, seat: 'claude:a', persona: 'p1', state: 'working', why: null, certain: true, label: null, since: 1000 }]);
    expect(store.transitions(999, 1000, ['activity']).map((entry) => entry.t === 'activity' && entry.label)).toEqual(['Bash', 'Bash', null]);
    const tables = store.database.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE '%_at'").all().map((row) => row.name);
    expect(tables).not.toContain('activity_at');
    expect(tables).toContain('job_at');
    store.close();
  });

  it('a snapshot is stored deflated and read back whole', async () => {
    const store = await freshStore();
    const persona = { t: 'persona' as const, at: 500, persona: 'p1', removed: false, name: 'Ada', role: 'builder', previousRole: null, roleChanged: false, appearance: null, createdAt: null };
    store.write([persona], { at: 500, seats: new Map(), personas: new Map([['p1', { id: 'p1', name: 'Ada', role: 'builder', appearance: null, createdAt: null }]]), jobs: new Map() } as never);
    const row = store.database.prepare('SELECT typeof(state) AS kind FROM snapshot').get();
    expect(row).toEqual({ kind: 'blob' });
    expect(store.seek(600).world.personas.get('p1')).toMatchObject({ name: 'Ada', role: 'builder' });
    store.close();
  });

  it("a job's alias is stored as its number when it follows the issuing rule, as text when not, and reads back the same", async () => {
    const store = await freshStore();
    const start = { t: 'job' as const, at: 100, seat: 'claude:a', persona: 'p1', ended: false, nativeId: 'toolu_1', type: 'Explore', label: 'look around', background: false, outcome: null };
    store.write([
      { ...start, row: 1, key: 'claude:a|toolu_1', alias: 'explore-12' },
      { ...start, row: 2, key: 'claude:a|toolu_2', nativeId: 'toolu_2', alias: 'renamed by hand' },
      { ...start, row: 3, key: 'claude:a|toolu_3', nativeId: 'toolu_3', alias: 'explore-007' },
      { ...start, row: 4, key: 'claude:a|toolu_4', nativeId: 'toolu_4', type: null, alias: 'subagent-3' },
    ]);
    expect(store.database.prepare('SELECT typeof(alias) AS kind FROM job ORDER BY id').all().map((row) => row.kind)).toEqual(['integer', 'text', 'text', 'integer']);
    expect(store.transitions(0, 200).map((entry) => entry.t === 'job' && entry.alias)).toEqual(['explore-12', 'renamed by hand', 'explore-007', 'subagent-3']);
    store.close();
  });

  it('a store from a newer Pixelfleet is left alone and not written', async () => {
    const file = join(home(), 'history.sqlite');
    const newer = await openDatabase(file);
    migrate(newer);
    newer.exec(`PRAGMA user_version = ${HISTORY_SCHEMA_VERSION + 1}`);
    newer.close();
    const opened = await openHistoryStore(file);
    expect(opened).toMatchObject({ ok: false, kind: 'newer' });
    const again = await openDatabase(file);
    expect(Number(again.pragma('user_version'))).toBe(HISTORY_SCHEMA_VERSION + 1);
    again.close();
  });

  it('a corrupt file is moved aside and a fresh store started', async () => {
    const dir = home();
    const file = join(dir, 'history.sqlite');
    writeFileSync(file, 'this is not a database, just text that happens to sit there '.repeat(100));
    const opened = await openHistoryStore(file);
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    expect(opened.movedAside).toMatch(/history\.sqlite\.aside-/);
    expect(readdirSync(dir).filter((name) => name.includes('.aside-'))).toHaveLength(1);
    expect(Number(opened.store.database.pragma('user_version'))).toBe(HISTORY_SCHEMA_VERSION);
    opened.store.close();
  });

  it("a foreign SQLite database (another program's tables) is moved aside, never migrated into", async () => {
    const dir = home();
    const file = join(dir, 'history.sqlite');
    const foreign = await openDatabase(file);
    foreign.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES (\'keep me\')');
    foreign.close();
    const opened = await openHistoryStore(file);
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    expect(opened.movedAside).not.toBeNull();
    opened.store.close();
    const aside = await openDatabase(opened.movedAside!);
    expect(aside.prepare('SELECT body FROM notes').all()).toEqual([{ body: 'keep me' }]);
    aside.close();
  });
});
