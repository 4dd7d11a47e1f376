import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { closeKeptConnections, withKeptSnapshot } from './keptConnection';

const dirs: string[] = [];
afterEach(() => {
  closeKeptConnections();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A real WAL store with one table of values, written by another connection as OpenCode would. */
function store(path: string, values: number[]): void {
  const database = new Database(path);
  database.pragma('journal_mode = WAL');
  database.exec('CREATE TABLE IF NOT EXISTS item (value INTEGER)');
  database.exec('DELETE FROM item');
  const insert = database.prepare('INSERT INTO item (value) VALUES (?)');
  for (const value of values) insert.run(value);
  database.close();
}

function tempPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pixelfleet-kept-'));
  dirs.push(dir);
  return join(dir, 'opencode.db');
}

const values = (path: string) => withKeptSnapshot(path, (database) => database.all('SELECT value FROM item ORDER BY value').map((row) => Number(row.value)));

describe('the kept OpenCode store connection', () => {
  it('sees every write made between reads, and concurrent reads agree', async () => {
    const path = tempPath();
    store(path, [1, 2]);
    expect(await values(path)).toEqual([1, 2]);
    store(path, [3]);
    expect(await values(path)).toEqual([3]);
    expect(await Promise.all([values(path), values(path), values(path)])).toEqual([[3], [3], [3]]);
  });

  it('reads a replaced store file, not the one it opened first', async () => {
    const path = tempPath();
    store(path, [1]);
    expect(await values(path)).toEqual([1]);
    const other = `${path}.new`;
    store(other, [7, 8]);
    rmSync(`${path}-wal`, { force: true });
    rmSync(`${path}-shm`, { force: true });
    renameSync(other, path);
    expect(await values(path)).toEqual([7, 8]);
  });

  it('rethrows a failing query and reads again afterwards', async () => {
    const path = tempPath();
    store(path, [4]);
    await expect(withKeptSnapshot(path, (database) => database.all('SELECT value FROM missing'))).rejects.toThrow(/missing/);
    expect(await values(path)).toEqual([4]);
  });

  it('fails clearly for a store that does not exist', async () => {
    await expect(values(join(tmpdir(), 'pixelfleet-kept-absent', 'opencode.db'))).rejects.toThrow();
  });
});
