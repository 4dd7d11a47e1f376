// A past moment's usage (issue 38): each seat's latest sample at or before the moment, through the real recorder and
// a real SQLite store; a seat with no sample in the look-back stays unknown, never 0.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageSchema } from '../../../shared/usage';
import { HISTORY_PAST_USAGE_LOOKBACK_MS } from '../../../shared/pastWorld';
import { HISTORY_PAST_USAGE_PAGE } from './bounds';
import { withPastUsage } from './pastUsage';
import { HistoryRecorder } from './recorder';
import { openHistoryStore, type HistoryStore } from './store';
import { activity, persona, seat } from './testing/records';

const T0 = Date.parse('2026-12-05T08:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const folders: string[] = [];
const stores: HistoryStore[] = [];
afterEach(() => {
  while (stores.length) stores.pop()!.close();
  while (folders.length) rmSync(folders.pop()!, { recursive: true, force: true });
});

async function freshStore(): Promise<HistoryStore> {
  const dir = mkdtempSync(join(tmpdir(), 'pf-past-usage-'));
  folders.push(dir);
  const opened = await openHistoryStore(join(dir, 'history.sqlite'));
  if (!opened.ok) throw new Error(opened.reason);
  stores.push(opened.store);
  return opened.store;
}

const usage = (input: number, usd: number) => ({ context: { used: input, window: 200_000, fill: input / 200_000 }, totals: { input, output: 10, cacheRead: 0, cacheWrite: 0 }, partial: false, cost: { usd, estimated: true } });

describe('usage at a past moment', () => {
  it('gives each seat its latest sample at or before the moment, with when it was recorded; a seat never sampled stays unknown', async () => {
    const store = await freshStore();
    let now = T0;
    const recorder = new HistoryRecorder(store, () => now);
    const ada = seat('claude:a', 'p1', activity('working', iso(T0)));
    const bo = { ...seat('opencode:b', 'p2', activity('working', iso(T0))), harness: 'opencode' as const };
    const cy = seat('claude:c', 'p3', activity('idle', iso(T0)));
    recorder.fleetWhole({ seats: [ada, bo, cy], personas: [persona('p1', 'Ada'), persona('p2', 'Bo'), persona('p3', 'Cy')] });
    for (const [offset, input] of [[1000, 100], [61_000, 300], [130_000, 500]] as const) {
      now = T0 + offset;
      recorder.fleetPatch({ seats: { set: [{ ...ada, usage: usage(input, input / 1000) }, { ...bo, usage: usage(input * 2, 0.5) }] } });
    }
    const [pastAda, pastBo, pastCy] = withPastUsage(store.database, T0 + 100_000, [ada, bo, cy]);
    expect(UsageSchema.parse(pastAda.usage)).toMatchObject({ totals: { input: 300, output: 10 }, cost: { usd: 0.3, estimated: true }, context: { used: 300, window: 200_000 }, recordedAt: iso(T0 + 61_000) });
    // OpenCode records its cost: shown as recorded, not as an estimate.
    expect(pastBo.usage).toMatchObject({ totals: { input: 600 }, cost: { usd: 0.5, estimated: false } });
    expect(pastCy.usage).toBeUndefined();
    // Before the first sample: unknown; long after the last (past the look-back): unknown.
    expect(withPastUsage(store.database, T0 + 500, [ada])[0].usage).toBeUndefined();
    expect(withPastUsage(store.database, T0 + 130_000 + HISTORY_PAST_USAGE_LOOKBACK_MS + 1, [ada])[0].usage).toBeUndefined();
  });

  it('walks back past a page of other seats\' samples to find a quiet seat\'s', async () => {
    const store = await freshStore();
    let now = T0;
    const recorder = new HistoryRecorder(store, () => now);
    const quiet = seat('claude:q', 'p1', activity('idle', iso(T0)));
    const busy = seat('claude:b', 'p2', activity('working', iso(T0)));
    const busier = seat('claude:c', 'p3', activity('working', iso(T0)));
    recorder.fleetWhole({ seats: [quiet, busy, busier], personas: [persona('p1', 'Quinn'), persona('p2', 'Bea'), persona('p3', 'Cal')] });
    now = T0 + 1000;
    recorder.fleetPatch({ seats: { set: [{ ...quiet, usage: usage(42, 0.01) }] } });
    // Two seats sampled every minute: more than a page of samples after the quiet seat's one, within the look-back.
    const minutes = HISTORY_PAST_USAGE_PAGE / 2 + 5;
    for (let minute = 1; minute <= minutes; minute += 1) {
      now = T0 + minute * 60_000 + 2000;
      recorder.fleetPatch({ seats: { set: [{ ...busy, usage: usage(minute, 0.01) }, { ...busier, usage: usage(minute, 0.01) }] } });
    }
    expect(now - T0).toBeLessThan(HISTORY_PAST_USAGE_LOOKBACK_MS);
    const [pastQuiet, pastBusy] = withPastUsage(store.database, now, [quiet, busy]);
    expect(pastQuiet.usage).toMatchObject({ totals: { input: 42 }, recordedAt: iso(T0 + 1000) });
    expect(pastBusy.usage).toMatchObject({ totals: { input: minutes } });
  });
});
