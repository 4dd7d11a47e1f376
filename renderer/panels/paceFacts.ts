/**
 * What the pace panel shows (issue 41), pure: a gauge per plan window (recorded) and for the active 5-hour block
 * (estimate), and the cost-by-role bars. A window whose reset has passed shows no share and no countdown (never a
 * negative countdown, never an old share as today's fact); a share is clamped to 0–100 for drawing only.
 */
import type { Block, Pace, PlanLimit, UsageByRow } from '../../shared/pace';
import { harnessText } from '../../shared/usagePhrases';

/** One gauge as drawn: label, share (null: unknown), countdown text, and whether it is recorded or an estimate. */
export interface PaceGauge {
  key: string;
  label: string;
  /** Whole percent, 0–100; null when not known now. */
  percent: number | null;
  /** "resets in 1 h 20 min", "limited until 14:00", "ends in 3 h 5 min", or why there is none. */
  countdown: string;
  kind: 'recorded' | 'estimate';
}

/** One bar of the cost-by-role chart: its width relative to the largest (0–100) and its text. */
export interface RoleBar {
  key: string;
  width: number;
  text: string;
  usd: number | null;
}


/** "1 h 20 min", "5 min", "under a minute" for a positive span (ms). */
export function spanText(ms: number): string {
  if (ms < 60_000) return 'under a minute';
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days > 0) return `${days} d ${hours} h`;
  return hours > 0 ? `${hours} h ${rest} min` : `${rest} min`;
}

function clock(iso: string): string {
  const at = new Date(iso);
  return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
}

function windowLabel(minutes: number | null, name: string): string {
  if (minutes === null) return `${name} window`;
  if (minutes % 1440 === 0) return `${minutes / 1440} d window`;
  return minutes % 60 === 0 ? `${minutes / 60} h window` : `${minutes} min window`;
}

/** The gauge of one recorded limit at `nowMs`. */
export function limitGauge(limit: PlanLimit, nowMs: number): PaceGauge {
  const harness = harnessText(limit.harness);
  if (!('window' in limit)) {
    const countdown = limit.resetsAt === null ? 'limited; reset time unknown' : Date.parse(limit.resetsAt) > nowMs ? `limited until ${clock(limit.resetsAt)}` : 'limit over';
    return { key: `${limit.harness}|limited`, label: `${harness} usage limit`, percent: null, countdown, kind: 'recorded' };
  }
  const key = `${limit.harness}|${limit.window}`;
  const label = `${harness} ${windowLabel(limit.minutes, limit.window)}`;
  if (limit.resetsAt === null) return { key, label, percent: clampPercent(limit.usedPercent), countdown: 'reset time not recorded', kind: 'recorded' };
  const left = Date.parse(limit.resetsAt) - nowMs;
  // Past its reset the recorded share belongs to the old window: unknown until a newer record.
  if (!(left > 0)) return { key, label, percent: null, countdown: 'reset passed; no newer record yet', kind: 'recorded' };
  return { key, label, percent: clampPercent(limit.usedPercent), countdown: `resets in ${spanText(left)}`, kind: 'recorded' };
}

/** The active block's gauge: the share of its 5 hours gone (not of any plan), and the time to its end. */
export function blockGauge(block: Block, nowMs: number): PaceGauge {
  const start = Date.parse(block.start);
  const end = Date.parse(block.end);
  const left = end - nowMs;
  const percent = left > 0 ? clampPercent(((nowMs - start) / (end - start)) * 100) : null;
  return { key: 'claude|block', label: 'Claude Code 5 h block (time gone)', percent, countdown: left > 0 ? `ends in ${spanText(left)}` : 'ended', kind: 'estimate' };
}

function clampPercent(value: number): number {
  return Math.max(0, Math.min(100, Math.floor(value)));
}

/** Every gauge of a pace answer, windows first. */
export function paceGauges(pace: Pace, nowMs: number): PaceGauge[] {
  const gauges = pace.limits.map((limit) => limitGauge(limit, nowMs));
  if (pace.block) gauges.push(blockGauge(pace.block, nowMs));
  return gauges;
}

const money = (usd: number) => `$${usd.toFixed(2)}`;

/** The active block in words: cost, burn rate and projection (each "unknown" where it is). */
export function blockLines(block: Block | null): string[] {
  if (!block) return ['No active Claude Code block.'];
  const tokens = block.totals.input + block.totals.output + block.totals.cacheRead + block.totals.cacheWrite;
  const lines = [`${tokens.toLocaleString('en-US')} tokens, ${block.entries} messages · cost ${block.cost ? `~${money(block.cost.usd)}` : 'unknown'}`];
  lines.push(block.burn ? `burn ${Math.round(block.burn.tokensPerMinute).toLocaleString('en-US')} tokens/min · ${block.burn.usdPerHour === null ? 'cost rate unknown' : `~${money(block.burn.usdPerHour)}/h`}` : 'burn rate: not yet known');
  lines.push(block.projected ? `by ${clock(block.end)}: ~${block.projected.tokens.toLocaleString('en-US')} tokens · ${block.projected.usd === null ? 'cost unknown' : `~${money(block.projected.usd)}`}` : 'projection: not yet known');
  return lines;
}

/** The cost-by-role bars, widest for the largest cost (tokens when no row has a cost). */
export function roleBars(rows: readonly UsageByRow[]): RoleBar[] {
  const tokensOf = (row: UsageByRow) => row.totals.input + row.totals.output + row.totals.cacheRead + row.totals.cacheWrite;
  const byCost = rows.some((row) => row.cost !== null && row.cost.usd > 0);
  const size = (row: UsageByRow) => (byCost ? (row.cost?.usd ?? 0) : tokensOf(row));
  const largest = Math.max(0, ...rows.map(size));
  return rows.map((row) => ({
    key: row.key,
    usd: row.cost?.usd ?? null,
    width: largest > 0 ? Math.round((size(row) / largest) * 100) : 0,
    text: `${row.partial ? '≥' : ''}${row.cost ? `${row.cost.estimated ? '~' : ''}${money(row.cost.usd)}` : 'cost unknown'} · ${tokensOf(row).toLocaleString('en-US')} tokens`,
  }));
}
