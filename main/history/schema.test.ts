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

  it('migration 1 → 2 keeps every recorded row and adds the usage and alias tables', async () => {
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
    expect(Number(database.pragma('user_version'))).toBe(2);
    expect(opened.store.transitions(0, 2000)).toEqual([
      { t: 'activity', at: 1000, seat: 'claude:a', persona: 'p1', state: 'needs-you', why: 'question', certain: true, label: 'AskUserQuestion', since: 900 },
    ]);
    expect(database.prepare('SELECT count(*) AS n FROM usage_sample').get()).toEqual({ n: 0 });
    expect(database.prepare('SELECT count(*) AS n FROM alias').get()).toEqual({ n: 0 });
    opened.store.close();
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
