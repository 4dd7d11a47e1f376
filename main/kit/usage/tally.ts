/**
 * The one accumulator of token usage every harness folds into: totals, priced cost, skipped records and hour
 * buckets (for "today" and `--since`). Plain JSON, so the background pass can keep it in its checkpoint. Pure.
 */
import { USAGE_TOKENS_MAX, USAGE_USD_MAX, type Cost, type ModelUsage, type TokenTotals } from '../../../shared/usage';
import { USAGE_HOURS_KEPT, USAGE_MODELS_KEPT } from './bounds';
import { localHourStart } from './localHour';
import { byModel, PRICES, type Rates } from './prices';
import { addMinuteBucket, joinMinutes, type Minutes } from './minutes';

/** One usage record's figures in tokens; `reasoning` null when the harness records none apart. */
export interface Figures {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number | null;
  /** The part of `cacheWrite` written for one hour (priced at the 1-hour rate); absent: none or not said. */
  cacheWrite1h?: number;
}

/** What an hour (or a whole tally) added up: tokens, priced dollars, and records that had no price. */
export interface Amount {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
  usd: number;
  /** Records with tokens whose cost is not known (no price for the model, or none recorded). */
  unpriced: number;
}

/** A running tally; `hours` maps an hour's start (ms since epoch, as a string key) to what it added. */
export interface Tally {
  /** `estimated` when priced from the repo's table, `recorded` when the harness wrote the cost. */
  costKind: 'estimated' | 'recorded';
  sum: Amount;
  hasReasoning: boolean;
  /** Records skipped as malformed (missing, negative, non-numeric or absurd figures). */
  skipped: number;
  hours: Record<string, Amount>;
  /** What each model added (by the model id as recorded; `unknown` when a record names none). */
  models: Record<string, Amount>;
  /** Minute buckets for the 5-hour blocks (issue 41; Claude folds only, see minutes.ts). */
  minutes?: Minutes;
  /** What each model added per hour (the per-model rows of a `--since` window); keyed as `models`, then as `hours`. */
  modelHours?: Record<string, Record<string, Amount>>;
}

/** A zero amount. */
export function zeroAmount(): Amount {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, usd: 0, unpriced: 0 };
}

/** A fresh tally. */
export function createTally(costKind: Tally['costKind']): Tally {
  return { costKind, sum: zeroAmount(), hasReasoning: false, skipped: 0, hours: {}, models: {} };
}

/** A token figure as recorded: a whole number in [0, 1e12], else null (the record is then skipped). */
export function tokenFigure(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= USAGE_TOKENS_MAX ? value : null;
}

/** An optional token figure: absent (undefined or null) counts 0, present must be valid (else null). */
export function optionalFigure(value: unknown): number | null {
  return value === undefined || value === null ? 0 : tokenFigure(value);
}

/** True when adding the figures would carry a total past USAGE_TOKENS_MAX (the record is then skipped, never capped). */
export function wouldOverflow(sum: Amount, figures: Figures): boolean {
  return (
    sum.input + figures.input > USAGE_TOKENS_MAX ||
    sum.output + figures.output > USAGE_TOKENS_MAX ||
    sum.cacheRead + figures.cacheRead > USAGE_TOKENS_MAX ||
    sum.cacheWrite + figures.cacheWrite > USAGE_TOKENS_MAX ||
    sum.reasoning + (figures.reasoning ?? 0) > USAGE_TOKENS_MAX
  );
}

/**
 * The estimated cost of one record's figures from the dated price table, or null when the table does not name the
 * model. 1-hour cache writes are priced at their own rate; a prompt longer than a model's long-context threshold
 * prices the whole record at the long-context rates.
 */
export function priceOf(figures: Figures, model: string | null): number | null {
  const price = byModel(PRICES, model);
  if (!price) return null;
  const prompt = figures.input + figures.cacheWrite + figures.cacheRead;
  const rates: Rates = price.longContext && prompt > price.longContext.above ? price.longContext : price;
  const hour = Math.min(figures.cacheWrite1h ?? 0, figures.cacheWrite);
  const perMillion = figures.input * rates.input + figures.output * rates.output + figures.cacheRead * rates.cacheRead + (figures.cacheWrite - hour) * rates.cacheWrite + hour * rates.cacheWrite1h;
  return perMillion / 1_000_000;
}

function hasTokens(figures: Figures): boolean {
  return figures.input + figures.output + figures.cacheRead + figures.cacheWrite > 0;
}

function addTo(amount: Amount, figures: Figures, usd: number | null): void {
  amount.input += figures.input;
  amount.output += figures.output;
  amount.cacheRead += figures.cacheRead;
  amount.cacheWrite += figures.cacheWrite;
  amount.reasoning += figures.reasoning ?? 0;
  if (usd === null) {
    if (hasTokens(figures)) amount.unpriced += 1;
  } else amount.usd += usd;
}

/** The hour bucket key of a time (ms since epoch): the start of its local hour; null when the time is not known. */
export function hourKey(atMs: number | null): string | null {
  return atMs === null || !Number.isFinite(atMs) ? null : String(localHourStart(atMs));
}

/**
 * Adds one record's figures at `atMs` (null: not in any hour) with its cost: `usd` given (recorded), or priced from
 * `model` when `usd` is undefined; null means not known. A record that would carry a total past the contract's bound
 * is skipped and counted instead; returns whether it was added (a skipped record never feeds the context either).
 */
export function addFigures(tally: Tally, figures: Figures, atMs: number | null, model: string | null, usd?: number | null): boolean {
  if (wouldOverflow(tally.sum, figures)) {
    tally.skipped += 1;
    return false;
  }
  const cost = usd === undefined ? priceOf(figures, model) : usd;
  addTo(tally.sum, figures, cost);
  if (figures.reasoning !== null) tally.hasReasoning = true;
  const name = model ?? 'unknown';
  let byModelAmount = tally.models[name];
  if (!byModelAmount) byModelAmount = tally.models[Object.keys(tally.models).length < USAGE_MODELS_KEPT ? name : 'other'] ??= zeroAmount();
  addTo(byModelAmount, figures, cost);
  const key = hourKey(atMs);
  if (key === null) return true;
  let hour = tally.hours[key];
  if (!hour) {
    hour = tally.hours[key] = zeroAmount();
    pruneHours(tally);
  }
  addTo(hour, figures, cost);
  addTo(modelHour(tally, modelKey(tally, name), key), figures, cost);
  return true;
}

/** The name a model's figures are kept under: its own, or `other` once USAGE_MODELS_KEPT models are kept. */
function modelKey(tally: Tally, name: string): string {
  return tally.models[name] ? name : 'other';
}

function modelHour(tally: Tally, model: string, key: string): Amount {
  const hours = ((tally.modelHours ??= {})[model] ??= {});
  return (hours[key] ??= zeroAmount());
}

/**
 * Takes one message's figures back out of a tally (the copy a session does not count, rule U8): the same amounts
 * `addFigures` put in at `atMs` for `model`, its price taken from the figures as they were (the long-context tier
 * included). Minute buckets are left alone (the 5-hour blocks count messages on their own).
 */
export function subtractFigures(tally: Tally, figures: Figures, atMs: number | null, model: string | null): void {
  const cost = priceOf(figures, model);
  const minus: Figures = { input: -figures.input, output: -figures.output, cacheRead: -figures.cacheRead, cacheWrite: -figures.cacheWrite, reasoning: figures.reasoning === null ? null : -figures.reasoning };
  const take = (amount: Amount | undefined): void => {
    if (!amount) return;
    addTo(amount, minus, cost === null ? 0 : -cost);
    if (cost === null && hasTokens(figures)) amount.unpriced -= 1;
  };
  take(tally.sum);
  const name = modelKey(tally, model ?? 'unknown');
  take(tally.models[name]);
  const key = hourKey(atMs);
  if (key === null) return;
  take(tally.hours[key]);
  take(tally.modelHours?.[name]?.[key]);
}

/** A deep copy of a tally (one that will be taken from without touching the fold it came from). */
export function copyTally(tally: Tally): Tally {
  return mergeTallies(tally.costKind, [tally]);
}

function pruneHours(tally: Tally): void {
  const keys = Object.keys(tally.hours);
  if (keys.length <= USAGE_HOURS_KEPT) return;
  keys.sort((a, b) => Number(a) - Number(b));
  for (const key of keys.slice(0, keys.length - USAGE_HOURS_KEPT)) {
    delete tally.hours[key];
    for (const hours of Object.values(tally.modelHours ?? {})) delete hours[key];
  }
}

/** Adds `from` into `into` (amounts). */
export function addAmount(into: Amount, from: Amount): void {
  into.input += from.input;
  into.output += from.output;
  into.cacheRead += from.cacheRead;
  into.cacheWrite += from.cacheWrite;
  into.reasoning += from.reasoning;
  into.usd += from.usd;
  into.unpriced += from.unpriced;
}

/** What a tally's hours add up to from `sinceMs` on (buckets that start before it are left out). */
export function amountSince(tally: Tally, sinceMs: number): Amount {
  const amount = zeroAmount();
  for (const [key, hour] of Object.entries(tally.hours)) if (Number(key) >= sinceMs) addAmount(amount, hour);
  return amount;
}

/** Merges several tallies into a new one (a seat with its subagents). */
export function mergeTallies(costKind: Tally['costKind'], tallies: readonly Tally[]): Tally {
  const merged = createTally(costKind);
  for (const tally of tallies) {
    addAmount(merged.sum, tally.sum);
    merged.hasReasoning ||= tally.hasReasoning;
    merged.skipped += tally.skipped;
    for (const [key, hour] of Object.entries(tally.hours)) addAmount((merged.hours[key] ??= zeroAmount()), hour);
    for (const [model, amount] of Object.entries(tally.models ?? {})) addAmount((merged.models[model] ??= zeroAmount()), amount);
    for (const [model, hours] of Object.entries(tally.modelHours ?? {})) {
      const into = ((merged.modelHours ??= {})[model] ??= {});
      for (const [key, amount] of Object.entries(hours)) addAmount((into[key] ??= zeroAmount()), amount);
    }
    if (tally.minutes) joinMinutes(merged, tally.minutes);
  }
  return merged;
}

/** True when every token figure of an amount is within USAGE_TOKENS_MAX (issue 36: a sum past it is skipped, never capped). */
export function withinTokenBound(amount: Amount): boolean {
  return amount.input <= USAGE_TOKENS_MAX && amount.output <= USAGE_TOKENS_MAX && amount.cacheRead <= USAGE_TOKENS_MAX && amount.cacheWrite <= USAGE_TOKENS_MAX && amount.reasoning <= USAGE_TOKENS_MAX;
}

/** True when adding `more` to `sum` keeps every token figure within USAGE_TOKENS_MAX. */
export function fitsTokenBound(sum: Amount, more: Amount): boolean {
  return withinTokenBound({ ...sum, input: sum.input + more.input, output: sum.output + more.output, cacheRead: sum.cacheRead + more.cacheRead, cacheWrite: sum.cacheWrite + more.cacheWrite, reasoning: sum.reasoning + more.reasoning });
}

// Only a last defence for the contract: every sum is checked with withinTokenBound before it is shown.
const cap = (tokens: number) => Math.min(Math.round(tokens), USAGE_TOKENS_MAX);

/** The contract's token totals of an amount (`reasoning` only where the harness records it apart). */
export function totalsOf(amount: Amount, hasReasoning: boolean): TokenTotals {
  const totals: TokenTotals = { input: cap(amount.input), output: cap(amount.output), cacheRead: cap(amount.cacheRead), cacheWrite: cap(amount.cacheWrite) };
  if (hasReasoning) totals.reasoning = cap(amount.reasoning);
  return totals;
}

/**
 * The contract's cost of an amount: absent when any record had tokens but no price (no cost, never a partial one),
 * and absent when the sum is past USAGE_USD_MAX or not finite (unknown, never Infinity).
 */
export function costOf(amount: Amount, costKind: Tally['costKind']): Cost | undefined {
  if (amount.unpriced > 0 || !Number.isFinite(amount.usd) || amount.usd < 0 || amount.usd > USAGE_USD_MAX) return undefined;
  return { usd: Math.round(amount.usd * 1e6) / 1e6, estimated: costKind === 'estimated' };
}

/** What each model added from `sinceMs` on (its hour buckets that start before it are left out). */
export function modelsSince(tally: Tally, sinceMs: number): Record<string, Amount> {
  const models: Record<string, Amount> = {};
  for (const [model, hours] of Object.entries(tally.modelHours ?? {})) {
    for (const [key, amount] of Object.entries(hours)) if (Number(key) >= sinceMs) addAmount((models[model] ??= zeroAmount()), amount);
  }
  return models;
}

/** A tally's totals by model, the most tokens first: each with its cost, null when any of its records had no price. */
export function modelsOf(models: Readonly<Record<string, Amount>>, costKind: Tally['costKind'], hasReasoning: boolean): ModelUsage[] {
  return Object.entries(models)
    .filter(([, amount]) => amount.input + amount.output + amount.cacheRead + amount.cacheWrite > 0 && withinTokenBound(amount))
    .sort(([a, x], [b, y]) => y.input + y.output + y.cacheRead + y.cacheWrite - (x.input + x.output + x.cacheRead + x.cacheWrite) || a.localeCompare(b))
    .map(([model, amount]) => ({ model, totals: totalsOf(amount, hasReasoning), cost: costOf(amount, costKind) ?? null }));
}

/** Adds a message's counted figures at `atMs` to the tally's minute buckets, priced by its model (minutes.ts, M1–M3). */
export function addMinute(tally: Tally, figures: Figures, atMs: number | null, model: string | null, first: boolean): void {
  addMinuteBucket(tally, figures, atMs, priceOf(figures, model), first);
}
