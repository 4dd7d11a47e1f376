/**
 * `pixelfleet usage [--json] [--since today|24h|7d]` (issue 26): one row per seat (seat, persona, harness, model,
 * context fill, totals, cost, partial) and a total row. Totals include each seat's subagents; "≥" marks totals that
 * cover only part of a session; costs priced from the repo's dated table are estimates ("est.", as on the page).
 */
import { AT_LEAST, AT_LEAST_MEANING, compactNumber, costText, ESTIMATED_MEANING } from '../../../shared/usagePhrases';
import { shownValue } from '../../../shared/bounds';
import type { Cost, TokenTotals } from '../../../shared/usage';
import { UsageSinceSchema, type UsageReport, type UsageRow } from '../../../shared/usageReport';
import { PRICES_DATE, USAGE_CLI_WAIT_MS } from '../../core/usage/bounds';
import { withRouter } from './appSession';
import { option, parseArgs, rejectUnknown, UsageError } from '../../setup/args';
import type { CliIo } from './index';

/** Parses `--since`; anything but today, 24h or 7d is a usage error (exit 2). */
export function parseSince(value: string | undefined): 'today' | '24h' | '7d' | undefined {
  if (value === undefined) return undefined;
  const parsed = UsageSinceSchema.safeParse(value);
  if (!parsed.success) throw new UsageError(`--since must be today, 24h or 7d (got "${shownValue(value)}").`);
  return parsed.data;
}

/** Runs `usage`. */
export async function runUsageCommand(argv: string[], io: CliIo & { home: string }): Promise<number> {
  const args = parseArgs(argv, ['since']);
  rejectUnknown(args, ['json', 'since']);
  const since = parseSince(option(args, 'since'));
  const request = since ? { since } : {};
  const report = await withRouter(io, async (call, app) => {
    const first = await call('usage.read', request);
    if (!first.seats.some((row) => row.partial)) return first;
    // Sessions the running app's pass has not counted whole yet (or at all, without a running app): counted now, for
    // at most USAGE_CLI_WAIT_MS, then read again; what is still partial keeps its "≥".
    io.stderr('pixelfleet: counting whole sessions…\n');
    let timer: NodeJS.Timeout | undefined;
    const waited = await Promise.race([app.usageIdle().then(() => true), new Promise<false>((done) => (timer = setTimeout(() => done(false), USAGE_CLI_WAIT_MS)))]);
    clearTimeout(timer);
    if (!waited) io.stderr(`pixelfleet: still counting after ${USAGE_CLI_WAIT_MS / 1000} s; rows marked "≥" are lower bounds.\n`);
    return call('usage.read', request);
  });
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
  const mark = partial ? AT_LEAST : '';
  return `${mark}in ${tokens(totals.input)} out ${tokens(totals.output)} cache r ${tokens(totals.cacheRead)} w ${tokens(totals.cacheWrite)}`;
}

/** A row's cost in the page's words ("$0.45 est.", "≥" for a lower bound); "—" where there is none. */
function rowCostText(cost: Cost | null | undefined, atLeast: boolean): string {
  return cost ? costText(cost, atLeast) : '—';
}

function fillText(row: UsageRow): string {
  if (!row.context) return '?';
  return row.context.fill === null ? `${tokens(row.context.used)}/?` : `${Math.round(row.context.fill * 100)}%`;
}

/** The report as a table: a row per seat, then the total. */
export function usageTable(report: UsageReport): string {
  const lines = [`${'seat'.padEnd(22)} ${'persona'.padEnd(14)} ${'harness'.padEnd(8)} ${'model'.padEnd(26)} ${'context'.padStart(8)}  ${'totals'.padEnd(44)} cost\n`];
  for (const row of report.seats) {
    lines.push(`${row.seat.slice(0, 22).padEnd(22)} ${row.persona.slice(0, 14).padEnd(14)} ${row.harness.padEnd(8)} ${(row.model ?? '?').slice(0, 26).padEnd(26)} ${fillText(row).padStart(8)}  ${totalsText(row.totals, row.partial).padEnd(44)} ${rowCostText(row.cost, row.partial)}\n`);
  }
  if (report.seats.length === 0) lines.push('No open seat has usage records.\n');
  const total = report.total;
  lines.push(`${'total'.padEnd(22)} ${''.padEnd(14)} ${''.padEnd(8)} ${''.padEnd(26)} ${''.padStart(8)}  ${totalsText(total.totals, total.partial).padEnd(44)} ${rowCostText(total.cost, total.partial || total.unpriced > 0)}\n`);
  if (total.unpriced > 0) lines.push(`${total.unpriced} seat(s) have no price or recorded cost for their model; the total cost leaves them out.\n`);
  lines.push(`Totals include subagents${report.since ? ` since ${report.since}` : ''}. ${AT_LEAST_MEANING}. ${ESTIMATED_MEANING} (prices of ${PRICES_DATE}).\n`);
  return lines.join('');
}
