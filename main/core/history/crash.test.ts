import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, startWriter } from '../../dev/testing/writerProcess';
import { openDatabase } from './sqlite';
import { openHistoryStore } from './store';

const folders: string[] = [];
afterEach(() => {
  while (folders.length) rmSync(folders.pop()!, { recursive: true, force: true });
});

const SEATS = 40;
const KILL_AFTER = 150;

describe('history store under a crash', () => {
  it('SIGKILL during a burst of writes loses at most the transaction in flight: every burst reported committed is whole', async () => {
    const home = mkdtempSync(join(tmpdir(), 'pf-history-crash-'));
    folders.push(home);
    const child = startWriter(resolve('main/core/history/testing/burstWriter.ts'), [home, String(SEATS)]);
    let reported = 0;
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (const match of buffer.matchAll(/committed (\d+)\n/g)) reported = Math.max(reported, Number(match[1]));
      buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
      if (reported >= KILL_AFTER && !child.killed) child.kill('SIGKILL');
    });
    const output = await collect(child);
    expect(output.signal).toBe('SIGKILL');
    expect(reported).toBeGreaterThanOrEqual(KILL_AFTER);

    // The store opens as a store (no move aside) and its pages are sound.
    const opened = await openHistoryStore(join(home, 'history.sqlite'));
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    expect(opened.movedAside).toBeNull();
    expect(opened.store.database.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    const rows = opened.store.database.prepare("SELECT name.text AS label, count(*) AS n FROM activity JOIN name ON name.id = activity.label WHERE name.text LIKE 'burst-%' GROUP BY name.text").all();
    opened.store.close();
    const counts = new Map(rows.map((row) => [Number(String(row.label).slice('burst-'.length)), Number(row.n)]));
    // Every burst the child saw committed is there, each whole; a burst after those is whole or absent, never half.
    for (let burst = 1; burst <= reported; burst += 1) expect(counts.get(burst), `burst ${burst}`).toBe(SEATS);
    for (const [burst, count] of counts) if (burst > reported) expect(count).toBe(SEATS);
    expect(Math.max(...counts.keys())).toBeLessThanOrEqual(reported + 1);
    // A second connection agrees (nothing is left only in a dead process's memory).
    const check = await openDatabase(join(home, 'history.sqlite'), { readOnly: true });
    expect(Number(check.prepare("SELECT count(*) AS n FROM activity JOIN name ON name.id = activity.label WHERE name.text LIKE 'burst-%'").get()!.n)).toBeGreaterThanOrEqual(reported * SEATS);
    check.close();
  }, 60_000);
});
