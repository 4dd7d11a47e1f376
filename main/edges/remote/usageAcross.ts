/**
 * `usage.read` across machines (issue 42): this machine's report with each remote's rows (seat ids namespaced, the
 * host named) and totals added, and one `hosts` entry per listed remote with its HUD sums. A remote that cannot be
 * reached adds no rows, makes the total partial, and shows null sums: unknown, never zero.
 */
import type { UsageReport } from '../../../shared/usageReport';
import { addUsageSums } from './mergeExtras';
import type { RemoteState } from './mergeWorld';
import { remoteId } from './namespace';

/** One remote's part: its state and the report it answered (null when it could not answer). */
export interface RemoteUsage {
  state: RemoteState;
  report: UsageReport | null;
}

/** The merged report. */
export function mergeUsageReports(local: UsageReport, remotes: readonly RemoteUsage[]): UsageReport {
  const seats = [...local.seats];
  let total = local.total;
  const hosts: NonNullable<UsageReport['hosts']> = [];
  for (const { state, report } of remotes) {
    const reachable = state.unreachableSince === null && report !== null;
    const usage = reachable ? state.snapshot?.usage : undefined;
    hosts.push({ host: state.name, today: usage?.today ?? null, open: usage?.open ?? null });
    if (!reachable) {
      total = { ...total, partial: true };
      continue;
    }
    for (const row of report.seats) seats.push({ ...row, seat: remoteId(state.name, row.seat), host: state.name });
    total = addUsageSums(total, report.total);
  }
  return { ...local, seats, total, hosts };
}
