// `usage --by` (issue 41, rules H1–H4) over a real history store written by the recorder, as the running app writes it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageByRowSchema } from '../../../shared/pace';
import type { Seat } from '../../../shared/schemas';
import { HistoryRecorder } from './recorder';
import { openHistoryStore, type HistoryStore } from './store';
import { activity, persona, seat } from './testing/records';
import { groupSamples, hostOf, localDay, usageBy } from './usageBy';

const T0 = Date.parse('2026-12-05T08:00:00.000Z');
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const folders: string[] = [];
const stores: HistoryStore[] = [];
afterEach(() => {
  while (stores.length) stores.pop()!.close();
  while (folders.length) rmSync(folders.pop()!, { recursive: true, force: true });
});

async function freshStore(): Promise<HistoryStore> {
  const dir = mkdtempSync(join(tmpdir(), 'pf-usage-by-'));
  folders.push(dir);
  const opened = await openHistoryStore(join(dir, 'history.sqlite'));
  if (!opened.ok) throw new Error(opened.reason);
  stores.push(opened.store);
  return opened.store;
}

const withUsage = (base: Seat, input: number, usd: number | null): Seat => ({
  ...base,
  usage: { context: null, totals: { input, output: 0, cacheRead: 0, cacheWrite: 0 }, partial: false, ...(usd === null ? {} : { cost: { usd, estimated: true } }) },
});

/** Ada (builder, then reviewer) on a local Claude seat; Bo (reviewer) on a remote Codex seat. */
async function recorded(): Promise<HistoryStore> {
  const store = await freshStore();
  let now = T0;
  const recorder = new HistoryRecorder(store, () => now);
  const a = seat('claude:a', 'p1', activity('working', iso(T0)));
  const b: Seat = { ...seat('@box:codex:b', 'p2', activity('working', iso(T0))), harness: 'codex' };
  const ada = persona('p1', 'Ada', 'builder');
  const bo = persona('p2', 'Bo', 'reviewer');
  const step = (minutes: number, seats: Seat[], personas = [ada, bo]) => {
    now = T0 + minutes * MIN;
    recorder.fleetWhole({ seats, personas });
  };
  step(0, [a, b]);
  step(1, [withUsage(a, 1000, 0.01), withUsage(b, 500, 0.005)]); // first samples: spent before history saw them
  step(2, [withUsage(a, 1500, 0.015), withUsage(b, 500, 0.005)]);
  step(3, [withUsage(a, 1500, 0.015), withUsage(b, 500, 0.005)], [{ ...ada, role: 'reviewer' }, bo]);
  step(4, [withUsage(a, 2500, 0.025), withUsage(b, 500, 0.005)], [{ ...ada, role: 'reviewer' }, bo]);
  step(5, [withUsage(a, 2500, 0.025), withUsage(b, 800, null)], [{ ...ada, role: 'reviewer' }, bo]);
  return store;
}

describe('usage --by from history samples', () => {
  it('a role\'s row counts the time each agent held it; first samples are baselines (partial), never spend', async () => {
    const store = await recorded();
    const rows = usageBy(store, 'role', T0, T0 + 10 * MIN);
    for (const row of rows) expect(UsageByRowSchema.parse(row)).toEqual(row);
    expect(rows).toEqual([
      // Ada's 1,000 after her role changed, and Bo's 300 whose cost is not known (rule H3).
      { key: 'reviewer', totals: { input: 1300, output: 0, cacheRead: 0, cacheWrite: 0 }, cost: null, partial: true },
      { key: 'builder', totals: { input: 500, output: 0, cacheRead: 0, cacheWrite: 0 }, cost: { usd: 0.005, estimated: true }, partial: true },
    ]);
  });

  it('by harness, host and day; a window\'s first sample takes the last one before it as its baseline', async () => {
    const store = await recorded();
    const keys = (by: 'harness' | 'host' | 'day', from: number) => usageBy(store, by, from, T0 + 10 * MIN).map((row) => [row.key, row.totals.input, row.partial]);
    expect(keys('harness', T0)).toEqual([['claude', 1500, true], ['codex', 300, true]]);
    expect(keys('host', T0)).toEqual([['local', 1500, true], ['box', 300, true]]);
    expect(keys('day', T0)).toEqual([[localDay(T0), 1800, true]]);
    // From minute 3 on, every seat has a baseline before the window: nothing partial, only what was spent in it.
    expect(keys('harness', T0 + 3 * MIN)).toEqual([['claude', 1000, false], ['codex', 300, false]]);
    // A window that starts before the history does is partial throughout (rule H4).
    expect(keys('host', T0 - 60 * MIN).every((row) => row[2] === true)).toBe(true);
    expect(usageBy(store, 'role', T0 + 20 * MIN, T0 + 30 * MIN)).toEqual([]);
  });

  it('totals that went down start a new baseline and mark the row partial (rule H2)', () => {
    const sample = (at: number, input: number) => ({ at, seat: 'claude:a', persona: 'p1', input, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: input / 1e5 });
    const context = { harnessOf: () => 'claude', roleAt: () => 'builder', dayOf: localDay };
    const rows = groupSamples('role', [sample(T0, 100)], [sample(T0 + MIN, 50), sample(T0 + 2 * MIN, 80)], context, true);
    expect(rows).toEqual([{ key: 'builder', totals: { input: 30, output: 0, cacheRead: 0, cacheWrite: 0 }, cost: { usd: 0.0003, estimated: true }, partial: true }]);
    expect(hostOf('@box:codex:b')).toBe('box');
    expect(hostOf('claude:a')).toBe('local');
  });
});
