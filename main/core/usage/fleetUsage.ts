/**
 * The fleet HUD's usage line (issue 26), pure: tokens and cost since a time (today: local midnight) and for the
 * open seats, each with their subagents, from the tallies the seats' projections carry.
 */
import type { FleetUsage, UsageSum } from '../../../shared/usage';
import { addAmount, amountSince, costOf, fitsTokenBound, totalsOf, zeroAmount, type Amount, type Tally } from '../../kit/usage/tally';

/** One seat's part: its tally with subagents and whether its totals are partial. */
export interface SeatTally {
  tally: Tally;
  partial: boolean;
}

/** Local midnight (the start of "today") of a time, in ms since epoch. */
export function localMidnight(nowMs: number): number {
  const day = new Date(nowMs);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
}

/** Sums seats' amounts: from `sinceMs` on (hour buckets), or their whole totals when `sinceMs` is null. */
export function sumSeats(seats: readonly SeatTally[], sinceMs: number | null): UsageSum {
  const total: Amount = zeroAmount();
  let partial = false;
  let unpriced = 0;
  let hasReasoning = false;
  let recorded = false;
  let estimated = false;
  let skippedSeats = 0;
  for (const seat of seats) {
    const amount = sinceMs === null ? seat.tally.sum : amountSince(seat.tally, sinceMs);
    // A seat (with its subagents) with any unpriced record has no cost: its tokens count, none of its dollars do, so
    // the total cost is the sum of the rows that show one (issue 37).
    const adding = { ...amount, usd: amount.unpriced > 0 ? 0 : amount.usd, unpriced: 0 };
    // Issue 36: a seat that would carry a total past the token bound is left out and counted; the sum is partial.
    if (!fitsTokenBound(total, adding)) {
      skippedSeats += 1;
      partial = true;
      continue;
    }
    addAmount(total, adding);
    if (amount.unpriced > 0) unpriced += 1;
    partial ||= seat.partial;
    hasReasoning ||= seat.tally.hasReasoning;
    if (seat.tally.costKind === 'recorded') recorded = true;
    else estimated = true;
  }
  // A sum is recorded only when every seat's cost was; one estimate makes the whole an estimate.
  const cost = costOf(total, estimated || !recorded ? 'estimated' : 'recorded');
  return { totals: totalsOf(total, hasReasoning), partial, unpriced, ...(cost ? { cost } : {}), ...(skippedSeats > 0 ? { skippedSeats } : {}) };
}

/** The fleet's usage line, or undefined when no seat has usage. */
export function fleetUsage(seats: readonly SeatTally[], nowMs: number): FleetUsage | undefined {
  if (seats.length === 0) return undefined;
  const since = localMidnight(nowMs);
  return { since: new Date(since).toISOString(), today: sumSeats(seats, since), open: sumSeats(seats, null) };
}
