// `usage --json`'s `limits` (issue 41): the newest record per harness and window among the seats; a limit while it holds.
import { describe, expect, it } from 'vitest';
import { PlanLimitSchema, type SeatLimits } from '../../../shared/limits';
import type { Seat } from '../../../shared/schemas';
import { planLimits } from './planLimits';

const NOW = Date.parse('2026-12-07T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const seatWith = (id: string, harness: Seat['harness'], limits: SeatLimits): Pick<Seat, 'id' | 'harness' | 'usage'> => ({ id, harness, usage: { context: null, totals: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, partial: false, limits } });
const window = (used: number, recordedAt: number) => ({ window: 'primary' as const, minutes: 300, usedPercent: used, resetsAt: iso(NOW + 3_600_000), recordedAt: iso(recordedAt) });

describe('plan limits', () => {
  it('keeps the newest record per harness and window, names its seat, and sums what the seats skipped', () => {
    const { limits, skipped } = planLimits(
      [
        seatWith('codex:a', 'codex', { windows: [window(40, NOW - 60_000)], limited: null, skipped: 1 }),
        seatWith('codex:b', 'codex', { windows: [window(55, NOW - 30_000)], limited: null, skipped: 2 }),
        seatWith('claude:c', 'claude', { windows: [], limited: { resetsAt: iso(NOW + 600_000), recordedAt: iso(NOW - 60_000) }, skipped: 0 }),
        seatWith('claude:d', 'claude', { windows: [], limited: { resetsAt: iso(NOW - 1), recordedAt: iso(NOW - 3_600_000) }, skipped: 0 }),
      ],
      NOW,
    );
    expect(limits).toEqual([
      { harness: 'claude', limited: true, resetsAt: iso(NOW + 600_000), recordedAt: iso(NOW - 60_000), seatId: 'claude:c' },
      { harness: 'codex', window: 'primary', minutes: 300, usedPercent: 55, resetsAt: iso(NOW + 3_600_000), recordedAt: iso(NOW - 30_000), seatId: 'codex:b' },
    ]);
    for (const limit of limits) expect(PlanLimitSchema.parse(limit)).toEqual(limit);
    expect(skipped).toBe(3);
  });
});
