/**
 * `pixelfleet usage [--json] [--since today|24h|7d]` (issue 26): one row per seat (seat, persona, harness, model,
 * context fill, totals, cost, partial) and a total row. Totals include each seat's subagents; "≥" marks totals that
 * cover only part of a session; costs priced from the repo's dated table are estimates ("est.", as on the page).
 */
import { AT_LEAST, AT_LEAST_MEANING, compactNumber, costText, ESTIMATED_MEANING, harnessText, totalTokens } from '../../../shared/usagePhrases';
import type { Cost, TokenTotals } from '../../../shared/usage';
import type { UsageReport, UsageRow } from '../../../shared/usageReport';
import { PRICES_DATE, PRICES_SOURCE } from '../../kit/usage/prices';
import { withRouter } from './appSession';
import { settledUsage } from './settleUsage';
import { option, parseArgs, rejectUnknown } from '../../setup/args';
import type { CliIo } from './io';
import { isPaceUsage, limitsLines, parseSince, runPaceUsage } from './usagePace';

/** Runs `usage`. */
export async function runUsageCommand(argv: string[], io: CliIo & { home: string }): Promise<number> {
  if (isPaceUsage(argv)) return runPaceUsage(argv, io); // issue 41: --blocks, --by
  const args = parseArgs(argv, ['since']);
  rejectUnknown(args, ['json', 'since']);
  const since = parseSince(option(args, 'since'));
  const request = since ? { since } : {};
  // Sessions the pass has not counted whole yet are counted now (settledUsage); what is still partial keeps its "≥".
  const report = await withRouter(io, (call, app) => settledUsage(io, app, () => call('usage.read', request), (value) => value.seats.some((row) => row.partial)));
  if (args.flags.has('json')) {
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
    return 0;
  }
  io.stdout(usageTable(report));
  return 0;
}

/** Tokens in the page's compact figures ("1.2M", "4.5B"). */
function tokens(count: number): string {
  return compactNumber(count);
}

function totalsText(totals: TokenTotals, partial: boolean): string {
  // Nothing recorded is unknown, as on the page: never "in 0 out 0 …" beside "$0.00".
  if (nothingRecorded(totals, partial)) return 'none recorded yet';
  const mark = partial ? AT_LEAST : '';
  return `${mark}in ${tokens(totals.input)} out ${tokens(totals.output)} cache r ${tokens(totals.cacheRead)} w ${tokens(totals.cacheWrite)}`;
}

function nothingRecorded(totals: TokenTotals, partial: boolean): boolean {
  return totalTokens(totals) === 0 && !partial;
}

/** A row's cost in the page's words ("$0.45 est.", "≥" for a lower bound); "—" where there is none, "unknown" with no tokens. */
function rowCostText(cost: Cost | null | undefined, atLeast: boolean, totals: TokenTotals, partial: boolean): string {
  if (nothingRecorded(totals, partial)) return 'unknown';
  return cost ? costText(cost, atLeast) : '—';
}

function fillText(row: UsageRow): string {
  if (!row.context) return '?';
  return row.context.fill === null ? `${tokens(row.context.used)}/?` : `${Math.round(row.context.fill * 100)}%`;
}

/** The report as a table: a row per seat, then the total. */
export function usageTable(report: UsageReport): string {
  const lines = [`${'seat'.padEnd(22)} ${'persona'.padEnd(14)} ${'harness'.padEnd(11)} ${'model'.padEnd(26)} ${'context'.padStart(8)}  ${'totals'.padEnd(44)} cost\n`];
  for (const row of report.seats) {
    lines.push(`${row.seat.slice(0, 22).padEnd(22)} ${row.persona.slice(0, 14).padEnd(14)} ${harnessText(row.harness).padEnd(11)} ${(row.model ?? '?').slice(0, 26).padEnd(26)} ${fillText(row).padStart(8)}  ${totalsText(row.totals, row.partial).padEnd(44)} ${rowCostText(row.cost, row.partial, row.totals, row.partial)}\n`);
  }
  if (report.seats.length === 0) lines.push('No open seat has usage records.\n');
  const total = report.total;
  lines.push(`${'total'.padEnd(22)} ${''.padEnd(14)} ${''.padEnd(11)} ${''.padEnd(26)} ${''.padStart(8)}  ${totalsText(total.totals, total.partial).padEnd(44)} ${rowCostText(total.cost, total.partial || total.unpriced > 0, total.totals, total.partial)}\n`);
  if (total.unpriced > 0) lines.push(`${total.unpriced} seat(s) have no price or recorded cost for their model; the total cost leaves them out.\n`);
  if (total.skippedSeats) lines.push(`${total.skippedSeats} seat(s) left out of the total: adding them would carry it past 10^12 tokens, so it is partial.\n`);
  lines.push(limitsLines(report.limits, report.limitsSkipped, Date.parse(report.at))); // issue 41
  lines.push(`Totals include subagents${report.since ? ` since ${report.since}` : ''}. ${AT_LEAST_MEANING}. ${ESTIMATED_MEANING} (prices of ${PRICES_DATE}: ${PRICES_SOURCE}).\n`);
  return lines.join('');
}
