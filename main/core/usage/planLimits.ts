/**
 * `usage --json`'s `limits` (issue 41), pure: the newest record per harness and window among the fleet's seats, and
 * a usage limit a Claude seat hit while it still holds. Facts as recorded; never a guessed plan size.
 */
import { stillLimited, type PlanLimit } from '../../../shared/limits';
import type { Harness, Seat } from '../../../shared/schemas';

/** The fleet's plan limits and the count of rate-limit records its seats skipped. */
export function planLimits(seats: readonly Pick<Seat, 'id' | 'harness' | 'usage'>[], nowMs: number): { limits: PlanLimit[]; skipped: number } {
  const newest = new Map<string, PlanLimit>();
  let skipped = 0;
  const keep = (key: string, limit: PlanLimit) => {
    const kept = newest.get(key);
    if (!kept || Date.parse(kept.recordedAt) < Date.parse(limit.recordedAt)) newest.set(key, limit);
  };
  for (const seat of seats) {
    const limits = seat.usage?.limits;
    if (!limits) continue;
    skipped += limits.skipped;
    for (const window of limits.windows) keep(`${seat.harness}|${window.window}`, { harness: seat.harness as Harness, ...window, seatId: seat.id });
    if (seat.harness === 'claude' && limits.limited && stillLimited(limits.limited, nowMs)) keep('claude|limited', { harness: 'claude', limited: true, ...limits.limited, seatId: seat.id });
  }
  const order = (limit: PlanLimit) => `${limit.harness}|${'window' in limit ? limit.window : '~'}`;
  return { limits: [...newest.values()].sort((left, right) => order(left).localeCompare(order(right))), skipped };
}
