/**
 * The dated price table (issue 37): every model it prices is named in full, with the day the prices were read and
 * where. A model id is matched exactly, after dropping what names a release of the same model (a provider prefix
 * `anthropic/`, a date suffix `-20251101` or `-2025-08-07`, a `@20251101` version, a `[1m]` window tag); a model the
 * table does not name is unpriced ("—", counted in `unpriced`), never priced as a relative.
 */

/** Rates of one model in US dollars per million tokens. */
export interface Rates {
  input: number;
  output: number;
  /** Cache reads (hits). */
  cacheRead: number;
  /** 5-minute cache writes (1.25× input at the vendor), also writes whose lifetime the record does not say. */
  cacheWrite: number;
  /** 1-hour cache writes (2× input at the vendor); 0 where the vendor charges no cache write. */
  cacheWrite1h: number;
}

/** A model's price: its rates, and a dearer tier for a request whose prompt is longer than `above` tokens. */
export interface ModelPrice extends Rates {
  longContext?: Rates & { above: number };
}

/** The day the price table was read (ISO day); every cost priced from it is an estimate. */
export const PRICES_DATE = '2026-12-07';

/** Where the price table was read. */
export const PRICES_SOURCE =
  "Anthropic's Pricing page and model overviews (platform.claude.com), OpenAI's API pricing page (openai.com/api/pricing)";

/** A Claude model's rates from its input and output price: cache read 0.1×, 5-minute write 1.25×, 1-hour write 2× input. */
function claude(input: number, output: number, cacheRead = input / 10): ModelPrice {
  return { input, output, cacheRead, cacheWrite: input * 1.25, cacheWrite1h: input * 2 };
}

/**
 * Sonnet 4 and 4.5 with the 1M-token window: a request whose prompt (input + cache writes + cache reads) is longer
 * than 200,000 tokens is priced whole at the long-context rates ($6 / $22.50, caches scaled alike).
 */
const SONNET_4: ModelPrice = { ...claude(3, 15), longContext: { above: 200_000, ...claude(6, 22.5) } };

/** An OpenAI model's rates: cached input as given, no cache write charge (OpenAI charges none). */
function openai(input: number, output: number, cacheRead: number): ModelPrice {
  return { input, output, cacheRead, cacheWrite: 0, cacheWrite1h: 0 };
}

/** List prices in US dollars per million tokens, by exact model id, read on PRICES_DATE from PRICES_SOURCE. */
export const PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-opus-5-5': claude(4, 20, 0.2),
  'claude-opus-5': claude(5, 25),
  'claude-opus-4-8': claude(5, 25),
  'claude-opus-4-7': claude(5, 25),
  'claude-opus-4-6': claude(5, 25),
  'claude-opus-4-5': claude(5, 25),
  'claude-opus-4-1': claude(15, 75),
  'claude-opus-4': claude(15, 75),
  'claude-sonnet-4-6': claude(3, 15),
  'claude-sonnet-4-5': SONNET_4,
  'claude-sonnet-4': SONNET_4,
  'claude-3-7-sonnet': claude(3, 15),
  'claude-3-5-sonnet': claude(3, 15),
  'claude-haiku-4-5': claude(1, 5),
  'claude-3-5-haiku': claude(0.8, 4),
  'gpt-5.2': openai(1.75, 14, 0.175),
  'gpt-5.2-codex': openai(1.75, 14, 0.175),
  'gpt-5.1': openai(1.25, 10, 0.125),
  'gpt-5.1-codex': openai(1.25, 10, 0.125),
  'gpt-5.1-codex-max': openai(1.25, 10, 0.125),
  'gpt-5.1-codex-mini': openai(0.25, 2, 0.025),
  'gpt-5': openai(1.25, 10, 0.125),
  'gpt-5-codex': openai(1.25, 10, 0.125),
  'gpt-5-mini': openai(0.25, 2, 0.025),
  'gpt-5-nano': openai(0.05, 0.4, 0.005),
};

/** Model ids already keyed: a journal names a handful, on every assistant line (three expressions each). */
const KEYS = new Map<string, string>();
/** Distinct ids kept keyed at most; past it the cache starts again (ids are chosen by whoever wrote the file). */
const KEYS_KEPT = 256;

/** The table's key for a model id: provider prefix, release date, version and window tag dropped, lower case. */
export function modelKey(model: string): string {
  const known = KEYS.get(model);
  if (known !== undefined) return known;
  let id = model.slice(model.lastIndexOf('/') + 1).toLowerCase();
  id = id.replace(/\[[^\]]*\]$/, '').replace(/@.*$/, '');
  const key = id.replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, '');
  if (KEYS.size >= KEYS_KEPT) KEYS.clear();
  KEYS.set(model, key);
  return key;
}

/** The entry of an exact-id table for a model, or null when the table does not name it (never a relative's entry). */
export function byModel<T>(table: Readonly<Record<string, T>>, model: string | null | undefined): T | null {
  if (!model) return null;
  const key = modelKey(model);
  return Object.hasOwn(table, key) ? table[key] : null;
}
