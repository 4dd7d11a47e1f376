/**
 * The budget-and-pace channels (issue 41): `usage.blocks`, `usage.by` and `usage.pace`. Derived views only: blocks
 * from the minute buckets the usage pass already keeps (the fleet's Claude seats, or every journal through the same
 * background pass), spend by key from the history's samples, windows from the seats' own records.
 */
import type { BlockReport, BudgetSettings, Pace, UsageByKey, UsageByReport } from '../../shared/pace';
import type { FleetSnapshot } from '../../shared/schemas';
import type { UsageSince } from '../../shared/usageReport';
import { blocksOf } from '../core/usage/blocks';
import type { SeatTally } from '../core/usage/fleetUsage';
import type { Minutes } from '../kit/usage/minutes';
import { planLimits } from '../core/usage/planLimits';
import { sinceStart } from '../core/usage/usageReport';
import type { UsageLedger } from '../sources/readers/claude/ledger';
import { allJournals } from '../sources/readers/claude/allJournals';
import type { UsageByRow } from '../../shared/pace';

/** What the channels read from. */
export interface PaceSources {
  fleet: { read(options: { fresh?: boolean }): Promise<FleetSnapshot>; usageTally(seatId: string): SeatTally | null };
  ledger: UsageLedger;
  claudeHome: string;
  /** Spend grouped from the history in `(from, to]`; null when no history store is open. */
  usageBy: (by: UsageByKey, from: number, to: number) => UsageByRow[] | null;
  budget: BudgetSettings;
  now?: () => number;
}

/** Blocks over the fleet's Claude seats (with their subagents) or every journal of the Claude home. */
export async function blockReport(sources: PaceSources, allSessions: boolean, fresh = true): Promise<BlockReport> {
  const now = (sources.now ?? Date.now)();
  const minutes: Minutes[] = [];
  let partial = false;
  if (allSessions) {
    const { files, capped } = await allJournals(sources.claudeHome);
    for (const file of files) sources.ledger.lookup(file.path, file.size);
    await sources.ledger.idle();
    partial = capped;
    for (const file of files) {
      const view = sources.ledger.lookup(file.path, file.size);
      if (view === null) partial = true;
      if (view === null || view === 'missing') continue;
      if (!view.done) partial = true;
      for (const tally of [view.fold.main, view.fold.sidechain]) if (tally.minutes) minutes.push(tally.minutes);
    }
  } else {
    const snapshot = await sources.fleet.read({ fresh });
    for (const seat of snapshot.seats) {
      if (seat.harness !== 'claude' || !seat.usage) continue;
      const tally = sources.fleet.usageTally(seat.id);
      if (!tally) continue;
      partial ||= tally.partial;
      if (tally.tally.minutes) minutes.push(tally.tally.minutes);
    }
  }
  return { at: new Date(now).toISOString(), source: allSessions ? 'all-sessions' : 'fleet', partial, blocks: blocksOf(minutes, now) };
}

/** Spend by key since a window's start (default: 7 days). */
export function usageByReport(sources: PaceSources, by: UsageByKey, since: UsageSince | undefined): UsageByReport {
  const now = (sources.now ?? Date.now)();
  const from = sinceStart(since ?? '7d', now);
  return { at: new Date(now).toISOString(), by, since: new Date(from).toISOString(), rows: sources.usageBy(by, from, now) ?? [] };
}

/** The pace panel's answer. */
export async function paceReport(sources: PaceSources): Promise<Pace> {
  const now = (sources.now ?? Date.now)();
  const blocks = await blockReport(sources, false, false);
  const snapshot = await sources.fleet.read({});
  return {
    at: new Date(now).toISOString(),
    limits: planLimits(snapshot.seats, now).limits,
    block: blocks.blocks.find((block) => block.active) ?? null,
    blocksPartial: blocks.partial,
    roles: { today: usageByReport(sources, 'role', 'today').rows, week: usageByReport(sources, 'role', '7d').rows },
    budget: sources.budget,
  };
}
