/**
 * The `usage.read` answer (issue 26), pure: one row per seat from its usage and its tally with subagents, summed
 * since the window's start (hour buckets) or over whole sessions, and a total row.
 */
import type { FleetSnapshot } from '../../../shared/schemas';
import type { UsageReport, UsageRow, UsageSince } from '../../../shared/usageReport';
import { localMidnight, sumSeats, type SeatTally } from './fleetUsage';
import { USAGE_HOUR_MS } from '../../kit/usage/bounds';
import { localHourStart } from '../../kit/usage/localHour';
import { modelsOf, modelsSince } from '../../kit/usage/tally';
import { planLimits } from './planLimits';

/** The start (ms since epoch) of a `since` window at `nowMs`: local midnight, 24 hours or 7 days back. */
export function sinceStart(since: UsageSince, nowMs: number): number {
  switch (since) {
    case 'today':
      return localMidnight(nowMs);
    case '24h':
      // Hour buckets: the window starts at the local hour that holds "24 hours ago".
      return localHourStart(nowMs - 24 * USAGE_HOUR_MS);
    case '7d':
      return localHourStart(nowMs - 7 * 24 * USAGE_HOUR_MS);
    default:
      return since satisfies never;
  }
}

/** Builds the report from a snapshot and each seat's tally; seats without usage are left out. */
export function usageReport(snapshot: FleetSnapshot, tallyOf: (seatId: string) => SeatTally | null, since: UsageSince | undefined, nowMs: number): UsageReport {
  const sinceMs = since === undefined ? null : sinceStart(since, nowMs);
  const names = new Map(snapshot.personas.map((persona) => [persona.id, persona.name]));
  const rows: UsageRow[] = [];
  const tallies: SeatTally[] = [];
  for (const seat of snapshot.seats) {
    const tally = seat.usage ? tallyOf(seat.id) : null;
    if (!seat.usage || !tally) continue;
    tallies.push(tally);
    const sum = sumSeats([tally], sinceMs);
    rows.push({
      seat: seat.id,
      persona: names.get(seat.personaId) ?? seat.personaId,
      harness: seat.harness,
      model: seat.usage.model ?? null,
      context: seat.usage.context,
      totals: sum.totals,
      // A seat with tokens but no price has no cost (unknown, never a partial sum).
      cost: sum.unpriced > 0 ? null : (sum.cost ?? null),
      partial: sum.partial,
      skipped: tally.tally.skipped,
      // The breakdown by model, over whole sessions or the window's hours (they add up to the row's totals).
      models: modelsOf(sinceMs === null ? tally.tally.models : modelsSince(tally.tally, sinceMs), tally.tally.costKind, tally.tally.hasReasoning),
    });
  }
  const { limits, skipped } = planLimits(snapshot.seats, nowMs);
  return { at: new Date(nowMs).toISOString(), since: sinceMs === null ? null : new Date(sinceMs).toISOString(), seats: rows, total: sumSeats(tallies, sinceMs), limits, limitsSkipped: skipped };
}
