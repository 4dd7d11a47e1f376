/**
 * The usage area's named bounds and its two tables: the context window of each model and the dated price of each
 * model. A model in neither table is unknown: no guessed window (fill null) and no cost (never zero).
 */

/** Bytes the background pass reads between two yields to the event loop (issue 26: 1 MiB chunks). */
export const USAGE_PASS_CHUNK_BYTES = 1024 * 1024;
/** Recent message keys a fold remembers to count a message repeated over several lines once (Claude, one per block). */
export const USAGE_RECENT_KEYS = 256;
/** Hour buckets a tally keeps, the newest (30 days): enough for `--since 7d` and "today". */
export const USAGE_HOURS_KEPT = 30 * 24;
/** One hour in ms: the width of a bucket. */
export const USAGE_HOUR_MS = 60 * 60 * 1000;
/**
 * Least time (ms) between two answers of a seat whose pass is still reading and only got further: its growing "≥"
 * totals reach the page at most this often, not once per chunk.
 */
export const USAGE_PARTIAL_REFRESH_MS = 5_000;
/** Longest time (ms) `pixelfleet usage` waits for the background pass to count partial sessions whole. */
export const USAGE_CLI_WAIT_MS = 60_000;
/** How often (ms) the background pass looks again at files it finished, for appended bytes. */
export const USAGE_RESTAT_MS = 5_000;
/** Version of the checkpoint file (2: tallies carry minute buckets, issue 41); another version is moved aside and rebuilt. */
export const USAGE_CHECKPOINT_VERSION = 2;
/** Files the checkpoint keeps, the most recently used (each a few hundred bytes plus its hour buckets). */
export const USAGE_CHECKPOINT_FILES = 512;

/**
 * Context windows in tokens, by model id prefix (the longest matching prefix wins).
 * Source: the model vendors' published model overviews (Anthropic's "Models overview" for Claude models, standard
 * window without the long-context beta; OpenAI's model pages for GPT-5 models). Recorded 2026-12-05.
 * Codex records its own window (`model_context_window`) and does not use this table.
 */
export const CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  'claude-opus-4-5': 200_000,
  'claude-opus-4-1': 200_000,
  'claude-opus-4': 200_000,
  'claude-sonnet-4-5': 200_000,
  'claude-sonnet-4': 200_000,
  'claude-haiku-4-5': 200_000,
  'claude-3-7-sonnet': 200_000,
  'claude-3-5-sonnet': 200_000,
  'claude-3-5-haiku': 200_000,
  'gpt-5.1-codex': 400_000,
  'gpt-5.1': 400_000,
  'gpt-5-codex': 400_000,
  'gpt-5-mini': 400_000,
  'gpt-5': 400_000,
};

/** Price of one model in US dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** The date the price table was recorded (ISO day); costs priced from it are estimates. */
export const PRICES_DATE = '2026-12-05';

/**
 * List prices in US dollars per million tokens, by model id prefix (the longest matching prefix wins), recorded on
 * PRICES_DATE. Source: the vendors' public API price lists (Anthropic's "Pricing" page, cache write = 5-minute cache
 * write; OpenAI's "API pricing" page, which charges no cache write). Any cost priced from it is an estimate: plans,
 * discounts and later price changes are not known here.
 */
export const PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-opus-4-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-opus-4-1': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-opus-4': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-sonnet-4': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  'claude-3-7-sonnet': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-3-5-sonnet': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
  'gpt-5.1-codex': { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
  'gpt-5.1': { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
  'gpt-5-codex': { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
  'gpt-5-mini': { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0 },
  'gpt-5': { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
};

/** The entry of a prefix table for a model id (longest matching prefix), or null when no prefix matches. */
export function byModel<T>(table: Readonly<Record<string, T>>, model: string | null | undefined): T | null {
  if (!model) return null;
  // Every message names its model: the answer per table and model is looked up once.
  let known = lookups.get(table) as Map<string, T | null> | undefined;
  if (!known) lookups.set(table, (known = new Map()));
  if (known.has(model)) return known.get(model)!;
  const found = matchModel(table, model);
  if (known.size < 1_000) known.set(model, found);
  return found;
}

const lookups = new WeakMap<object, Map<string, unknown>>();

function matchModel<T>(table: Readonly<Record<string, T>>, model: string): T | null {
  // Provider-qualified ids ("anthropic/claude-sonnet-4-5") are matched on their last segment.
  const id = model.slice(model.lastIndexOf('/') + 1).toLowerCase();
  let best: string | null = null;
  for (const prefix of Object.keys(table)) {
    if (id.startsWith(prefix) && (best === null || prefix.length > best.length)) best = prefix;
  }
  return best === null ? null : table[best];
}
