/**
 * The one place for the words and figures the page and the CLI both print: compact figures (1.2M tok, $3.41), "≥"
 * while totals are a lower bound, "est." on a price from the repo's table, the hover and HUD lines, 24-hour clock
 * times and one style of durations ("45 s", "3 min 12 s", "2 h 5 min", "3 d 4 h"). Absent means unknown and is said
 * so; a missing price is "no price", never $0. No I/O.
 */
import type { Cost, TokenTotals, Usage, UsageSum } from './usage';
import { isBuiltInRole, roleKey } from './roles';

/** The mark of a lower bound: totals that cover only part of a session (or a cost that leaves seats out). */
export const AT_LEAST = '≥';

/** What "≥" means wherever it is explained (the HUD's tooltip, the CLI's footnote). */
export const AT_LEAST_MEANING = '"≥": a lower bound: some totals cover only part of a session (still being counted), or some agents have no price, so their cost is left out';

/** What "est." means wherever it is explained. */
export const ESTIMATED_MEANING = '"est.": priced from Pixelfleet\'s dated price table, not recorded by the harness';

/** Two digits. */
function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** A local 24-hour clock time with seconds ("14:05:09") for an ISO instant or epoch ms; the text itself when it does not parse. */
export function clockText(at: string | number): string {
  const ms = typeof at === 'number' ? at : Date.parse(at);
  if (Number.isNaN(ms)) return String(at);
  const date = new Date(ms);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** A local 24-hour clock time to the minute ("14:05") for an ISO instant or epoch ms; the text itself when it does not parse. */
export function clockMinutesText(at: string | number): string {
  const ms = typeof at === 'number' ? at : Date.parse(at);
  if (Number.isNaN(ms)) return String(at);
  const date = new Date(ms);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A duration in milliseconds, to two units: "45 s", "3 min 12 s", "3 min", "2 h 5 min", "3 d 4 h" ("?" when unknown). */
export function durationText(ms: number): string {
  if (!Number.isFinite(ms)) return '?';
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

/** A duration in its largest unit only, in the same words: "45 s", "3 min", "2 h", "3 d" (a glance: the queue, cards). */
export function shortDurationText(ms: number): string {
  if (!Number.isFinite(ms)) return '?';
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

/** A harness's name as every panel and the CLI write it. */
export const HARNESS_NAMES = { claude: 'Claude Code', codex: 'Codex', opencode: 'OpenCode' } as const;

/** A harness named as every panel and the CLI write it ("Claude Code", "Codex", "OpenCode"); an id this build does not know, as given. */
export function harnessText(harness: string): string {
  return Object.hasOwn(HARNESS_NAMES, harness) ? HARNESS_NAMES[harness as keyof typeof HARNESS_NAMES] : harness;
}

/** What every panel and the CLI say for an agent without a role. */
export const NO_ROLE = 'no role';

/**
 * A role as every panel and the CLI write it: a built-in capitalised like a name ("Planner", in any stored casing),
 * a custom role in the casing its owner gave ("Sound Designer"), {@link NO_ROLE} without one. Stored values and JSON
 * keep the role as recorded; this is only how it reads.
 */
export function roleText(role: string | null | undefined): string {
  if (role === null || role === undefined || role === '') return NO_ROLE;
  if (!isBuiltInRole(role)) return role;
  const key = roleKey(role);
  return key.charAt(0).toUpperCase() + key.slice(1);
}

/**
 * All tokens of a set of totals: input, output, cache read and cache write. Reasoning is shown apart and never added:
 * Codex counts it inside output already, so adding it would count those tokens twice.
 */
export function totalTokens(totals: TokenTotals): number {
  return totals.input + totals.output + totals.cacheRead + totals.cacheWrite;
}

/**
 * One figure in at most three significant digits, cut rather than rounded (a lower bound stays one): 950, 12.3k → "12k",
 * 1.25M → "1.2M", 4.56B → "4.5B" (k, M, B, T by thousands).
 */
export function compactNumber(value: number): string {
  if (!Number.isFinite(value) || value < 0) return '?';
  if (value < 1000) return String(Math.floor(value));
  const units = ['k', 'M', 'B', 'T'];
  let scaled = value;
  let unit = -1;
  while (scaled >= 1000 && unit < units.length - 1) {
    scaled /= 1000;
    unit += 1;
  }
  const cut = scaled < 10 ? Math.floor(scaled * 10 + 1e-9) / 10 : Math.floor(scaled + 1e-9);
  return `${cut}${units[unit]}`;
}

/** A token count as the world shows it: "1.2M tok", with "≥" when it covers only part of the session. */
export function tokensText(tokens: number, partial: boolean): string {
  return `${partial ? AT_LEAST : ''}${compactNumber(tokens)} tok`;
}

/** Dollars in a short form: "$3.41", "<$0.01", "$341", "$12.3k". */
export function dollarsText(usd: number): string {
  if (!Number.isFinite(usd) || usd < 0) return '?';
  if (usd === 0) return '$0.00';
  if (usd < 0.01) return '<$0.01';
  if (usd < 100) return `$${usd.toFixed(2)}`;
  if (usd < 10_000) return `$${Math.round(usd)}`;
  return `$${compactNumber(usd)}`;
}

/** A cost: "$3.41" as recorded, "$3.41 est." when priced from the table, "≥" first when it is a lower bound. */
export function costText(cost: Cost, atLeast: boolean): string {
  return `${atLeast ? AT_LEAST : ''}${dollarsText(cost.usd)}${cost.estimated ? ' est.' : ''}`;
}

/** A context in use: "150k / 200k (75 %)", "150k / window unknown", or "unknown" without a figure. */
export function contextText(context: Usage['context'] | undefined): string {
  if (!context) return 'unknown';
  const used = compactNumber(context.used);
  if (context.window === null) return `${used} / window unknown`;
  const percent = context.fill === null ? '' : ` (${Math.floor(context.fill * 100 + 1e-9)} %)`;
  return `${used} / ${compactNumber(context.window)}${percent}`;
}

/** A summed line (the HUD): "≥1.2M tok · ≥$3.41 est. · 1 unpriced"; "no price" when no seat has one. */
export function sumText(sum: UsageSum): string {
  const tokens = totalTokens(sum.totals);
  // Nothing recorded is unknown, never "0 tok · $0.00".
  if (tokens === 0 && !sum.partial) return sum.unpriced > 0 ? `usage unknown · ${sum.unpriced} unpriced` : 'usage unknown';
  const parts = [tokensText(tokens, sum.partial)];
  if (sum.cost) parts.push(costText(sum.cost, sum.partial || sum.unpriced > 0));
  else if (tokens > 0) parts.push('no price');
  if (sum.unpriced > 0) parts.push(`${sum.unpriced} unpriced`);
  if (sum.skippedSeats) parts.push(`${sum.skippedSeats} past the bound, left out`);
  return parts.join(' · ');
}

/** Remote hosts left out of a sum, said as such: "beta, gamma not counted (usage unknown)". */
export function notCountedText(hosts: readonly string[]): string {
  return `${hosts.join(', ')} not counted (usage unknown)`;
}

/** The lines a hover card shows for a seat's usage (absent usage: one line saying it is unknown). */
export interface UsageLines {
  /** In the past view: "usage as recorded at 02:08:30" (the sample the figures come from); null when live. */
  asOf: string | null;
  model: string;
  context: string;
  totals: string;
  /** The seat with its subagents, when the reader summed them. */
  withSubagents: string | null;
  cost: string;
  /** Malformed usage records skipped, when any. */
  skipped: string | null;
  /** The seat with its subagents by model, when its records name any: "claude-opus-4-5 1.2M tok $3.41 est. · …". */
  models: string | null;
}

/** A breakdown of totals: "in 1.2k · out 300 · cache read 40k · cache write 2k · reasoning 120". */
export function breakdownText(totals: TokenTotals): string {
  const parts = [`in ${compactNumber(totals.input)}`, `out ${compactNumber(totals.output)}`, `cache read ${compactNumber(totals.cacheRead)}`, `cache write ${compactNumber(totals.cacheWrite)}`];
  if (totals.reasoning !== undefined) parts.push(`reasoning ${compactNumber(totals.reasoning)}`);
  return parts.join(' · ');
}

/** When a past moment's figures were recorded ("usage as recorded at 02:08:30"), null for live usage. */
function asOfText(usage: Usage): string | null {
  return usage.recordedAt === undefined ? null : `usage as recorded at ${clockText(usage.recordedAt)}`;
}

/** What the hover card says about a seat's usage; every figure it lacks is said to be unknown, never 0. */
export function usageLines(usage: Usage | undefined): UsageLines {
  if (!usage) return { asOf: null, model: 'model unknown', context: 'context unknown', totals: 'tokens unknown', withSubagents: null, cost: 'cost unknown', skipped: null, models: null };
  const session = totalTokens(usage.totals);
  // A seat with no token recorded (an OpenCode seat with no model yet, records skipped) has an unknown cost, not $0.00.
  if (session === 0 && !usage.partial) {
    const skipped = usage.skipped !== undefined && usage.skipped > 0 ? `${usage.skipped} usage ${usage.skipped === 1 ? 'record' : 'records'} skipped as malformed` : null;
    return { asOf: asOfText(usage), model: usage.model ? `model ${usage.model}` : 'model unknown', context: `context ${contextText(usage.context)}`, totals: 'tokens unknown: none recorded yet', withSubagents: null, cost: 'cost unknown', skipped, models: null };
  }
  const totals = `session ${tokensText(session, usage.partial)} (${breakdownText(usage.totals)})`;
  const sub = usage.withSubagents;
  const withSubagents = sub ? `with subagents ${tokensText(totalTokens(sub.totals), sub.partial)}${sub.cost ? ` · ${costText(sub.cost, sub.partial)}` : ''}` : null;
  const cost = usage.cost ? `cost ${costText(usage.cost, usage.partial)}` : 'cost: no price for this model';
  const skipped = usage.skipped !== undefined && usage.skipped > 0 ? `${usage.skipped} usage ${usage.skipped === 1 ? 'record' : 'records'} skipped as malformed` : null;
  const partial = sub?.partial ?? usage.partial;
  const models = usage.models?.length
    ? `by model: ${usage.models.map((entry) => `${entry.model} ${tokensText(totalTokens(entry.totals), partial)} ${entry.cost ? costText(entry.cost, partial) : 'no price'}`).join(' · ')}`
    : null;
  return { asOf: asOfText(usage), model: usage.model ? `model ${usage.model}` : 'model unknown', context: `context ${contextText(usage.context)}`, totals, withSubagents, cost, skipped, models };
}
