/**
 * `pixelfleet usage --blocks [--json] [--all-sessions]` and `pixelfleet usage --by day|role|harness|host
 * [--since today|24h|7d] [--json]` (issue 41). Blocks are an estimate from the usage pass's minute buckets; `--by`
 * reads the history's usage samples. Both go through the router, as every fleet command does.
 */
import { shownValue } from '../../../shared/bounds';
import { UsageSinceSchema } from '../../../shared/usageReport';
import type { Block, BlockReport, PlanLimit, UsageByReport } from '../../../shared/pace';
import { UsageByKeySchema } from '../../../shared/pace';
import type { Cost, TokenTotals } from '../../../shared/usage';
import { USAGE_CLI_WAIT_MS } from '../../kit/usage/bounds';
import { PRICES_DATE } from '../../kit/usage/prices';
import { option, parseArgs, rejectUnknown, UsageError } from '../../setup/args';
import { withRouter } from './appSession';
import type { CliIo } from './io';
import { harnessText } from '../../../shared/usagePhrases';

/** True when `usage`'s arguments ask for blocks or a grouping (this file's commands). */
export function isPaceUsage(argv: readonly string[]): boolean {
  return argv.some((arg) => arg === '--blocks' || arg === '--by' || arg.startsWith('--by=') || arg === '--all-sessions');
}

/** Runs `usage --blocks …` or `usage --by …`. */
export async function runPaceUsage(argv: string[], io: CliIo & { home: string }): Promise<number> {
  const args = parseArgs(argv, ['by', 'since']);
  const json = args.flags.has('json');
  if (args.flags.has('blocks')) {
    rejectUnknown(args, ['blocks', 'json', 'all-sessions']);
    const allSessions = args.flags.has('all-sessions');
    const report = await withRouter(io, async (call, app) => {
      const first = await call('usage.blocks', { allSessions });
      if (!first.partial || allSessions) return first;
      // Seats whose sessions are not counted whole yet: counted now, for at most USAGE_CLI_WAIT_MS.
      io.stderr('pixelfleet: counting whole sessions…\n');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([app.usageIdle(), new Promise<void>((done) => (timer = setTimeout(done, USAGE_CLI_WAIT_MS)))]);
      clearTimeout(timer);
      return call('usage.blocks', { allSessions });
    });
    io.stdout(json ? `${JSON.stringify(report, null, 2)}\n` : blocksTable(report));
    return 0;
  }
  if (args.flags.has('all-sessions')) throw new UsageError('--all-sessions goes with --blocks.');
  rejectUnknown(args, ['by', 'since', 'json']);
  const byText = option(args, 'by');
  const by = UsageByKeySchema.safeParse(byText);
  if (!by.success) throw new UsageError(`--by must be day, role, harness or host (got "${shownValue(byText ?? '')}").`);
  const since = parseSince(option(args, 'since'));
  const report = await withRouter(io, (call) => call('usage.by', since ? { by: by.data, since } : { by: by.data }));
  io.stdout(json ? `${JSON.stringify(report, null, 2)}\n` : byTable(report));
  return 0;
}

function tokens(count: number): string {
  if (count >= 1e9) return `${(count / 1e9).toFixed(1)}G`;
  if (count >= 1e6) return `${(count / 1e6).toFixed(1)}M`;
  if (count >= 1e4) return `${(count / 1e3).toFixed(0)}k`;
  return String(count);
}

function totalsText(totals: TokenTotals): string {
  return `in ${tokens(totals.input)} out ${tokens(totals.output)} cache r ${tokens(totals.cacheRead)} w ${tokens(totals.cacheWrite)}`;
}

function costText(cost: Cost | null, partial = false): string {
  return cost ? `${partial ? '≥' : ''}${cost.estimated ? '~' : ''}$${cost.usd.toFixed(2)}` : '—';
}

function activeText(block: Block): string {
  if (!block.active) return '';
  const burn = block.burn ? ` burn ${Math.round(block.burn.tokensPerMinute)} tok/min${block.burn.usdPerHour === null ? '' : ` ~$${block.burn.usdPerHour.toFixed(2)}/h`}` : '';
  const projected = block.projected ? ` → ${tokens(block.projected.tokens)}${block.projected.usd === null ? '' : ` ~$${block.projected.usd.toFixed(2)}`} by the end` : '';
  return `  ACTIVE${burn}${projected}`;
}

/** The blocks as a table, oldest first. */
function blocksTable(report: BlockReport): string {
  const lines = [`${'start'.padEnd(17)} ${'end'.padEnd(17)} ${'entries'.padStart(7)}  ${'totals'.padEnd(40)} cost\n`];
  const at = (iso: string) => iso.slice(0, 16).replace('T', ' ');
  for (const block of report.blocks) lines.push(`${at(block.start)} ${at(block.end)} ${String(block.entries).padStart(7)}  ${totalsText(block.totals).padEnd(40)} ${costText(block.cost)}${activeText(block)}\n`);
  if (report.blocks.length === 0) lines.push(report.source === 'fleet' ? 'No open Claude seat has usage records (try --all-sessions).\n' : 'No journal in the Claude home has usage records.\n');
  lines.push(`5-hour blocks (UTC), an estimate from ${report.source === 'fleet' ? "the fleet's Claude seats" : 'every journal in the Claude home'}${report.partial ? '; some journals are still being counted' : ''}. "~": priced from the table of ${PRICES_DATE}.\n`);
  return lines.join('');
}

/** The grouping as a table. */
function byTable(report: UsageByReport): string {
  const lines = [`${report.by.padEnd(24)} ${'totals'.padEnd(40)} cost\n`];
  for (const row of report.rows) lines.push(`${row.key.slice(0, 24).padEnd(24)} ${`${row.partial ? '≥' : ''}${totalsText(row.totals)}`.padEnd(40)} ${costText(row.cost, row.partial)}\n`);
  if (report.rows.length === 0) lines.push('No usage samples in the history for this window.\n');
  lines.push(`Since ${report.since}, from the history's usage samples (each seat's own session). "≥": the history does not cover all of it.\n`);
  return lines.join('');
}

/** The plan limits of `usage` in words, one line each ("recorded": the harness wrote them); none without records. */
export function limitsLines(limits: readonly PlanLimit[], limitsSkipped: number, nowMs: number): string {
  const clock = (iso: string) => new Date(iso).toTimeString().slice(0, 5);
  const lines = limits.map((limit) => {
    if (!('window' in limit)) return `${harnessText(limit.harness)}: usage limit reached${limit.resetsAt ? `, limited until ${clock(limit.resetsAt)}` : ''} (recorded ${clock(limit.recordedAt)}, ${limit.seatId})\n`;
    const length = limit.minutes === null ? limit.window : limit.minutes % 1440 === 0 ? `${limit.minutes / 1440} d` : `${limit.minutes / 60} h`;
    const reset = limit.resetsAt === null ? 'reset time not recorded' : Date.parse(limit.resetsAt) > nowMs ? `resets ${clock(limit.resetsAt)}` : 'reset passed, no newer record';
    const used = limit.resetsAt !== null && Date.parse(limit.resetsAt) <= nowMs ? '?' : `${limit.usedPercent} %`;
    return `${harnessText(limit.harness)} ${length} window: ${used} used, ${reset} (recorded ${clock(limit.recordedAt)}, ${limit.seatId})\n`;
  });
  if (limitsSkipped > 0) lines.push(`${limitsSkipped} rate-limit record(s) skipped as bad.\n`);
  return lines.join('');
}

/** Parses `--since`; anything but today, 24h or 7d is a usage error (exit 2). */
export function parseSince(value: string | undefined): 'today' | '24h' | '7d' | undefined {
  if (value === undefined) return undefined;
  const parsed = UsageSinceSchema.safeParse(value);
  if (!parsed.success) throw new UsageError(`--since must be today, 24h or 7d (got "${shownValue(value)}").`);
  return parsed.data;
}
