/**
 * The usage area's named bounds and its table of context windows (the dated prices are in `prices.ts`). A model the
 * table does not name is unknown: no guessed window (fill null), never a relative's.
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
/** Files the background pass stats per look (in turn): a fleet's many finished subagent files are not all statted at once. */
export const USAGE_RESTAT_FILES = 1_024;
/** Recent message keys a checkpoint entry keeps (a message's repeated block lines are adjacent: the newest suffice). */
export const USAGE_CHECKPOINT_KEYS = 32;
/**
 * Version of the checkpoint file (2: per-file session lists, issue 37; 3: tallies carry minute buckets, issue 41; 4:
 * each file's message copies for the session's count-once rule and per-model hour buckets); another version is moved
 * aside and rebuilt.
 */
export const USAGE_CHECKPOINT_VERSION = 4;
/** Messages per Claude file remembered (by a hash of id + request id) so a session counts a message repeated in two of its files once. */
export const USAGE_FILE_KEYS = 100_000;
/** Files the checkpoint keeps, the most recently used (each a few hundred bytes plus its hour buckets). */
export const USAGE_CHECKPOINT_FILES = 2_048;
/** Subagent and compaction files counted per Claude session (its `subagents/` folder, workflows included). */
export const USAGE_SESSION_FILES = 1_024;
/** Models a tally keeps apart for its per-model breakdown; further models are summed under `other`. */
export const USAGE_MODELS_KEPT = 32;

/**
 * Context windows in tokens, by exact model id (matched as the price table matches, `prices.ts`).
 * Source: the vendors' model overviews (Anthropic's model pages: 200K for Claude 4.5 and earlier without the
 * long-context beta, 1M for Opus 4.6 and later and Sonnet 4.6; OpenAI's model pages for GPT-5 models). Recorded
 * 2026-12-07. Codex records its own window (`model_context_window`) and does not use this table.
 */
export const CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  'claude-opus-5-5': 1_000_000,
  'claude-opus-5': 1_000_000,
  'claude-opus-4-8': 1_000_000,
  'claude-opus-4-6': 1_000_000,
  'claude-sonnet-4-6': 1_000_000,
  'claude-opus-4-5': 200_000,
  'claude-opus-4-1': 200_000,
  'claude-opus-4': 200_000,
  'claude-sonnet-4-5': 200_000,
  'claude-sonnet-4': 200_000,
  'claude-haiku-4-5': 200_000,
  'claude-3-7-sonnet': 200_000,
  'claude-3-5-sonnet': 200_000,
  'claude-3-5-haiku': 200_000,
  'gpt-5.2': 400_000,
  'gpt-5.2-codex': 400_000,
  'gpt-5.1-codex-max': 400_000,
  'gpt-5.1-codex-mini': 400_000,
  'gpt-5.1-codex': 400_000,
  'gpt-5.1': 400_000,
  'gpt-5-codex': 400_000,
  'gpt-5-mini': 400_000,
  'gpt-5-nano': 400_000,
  'gpt-5': 400_000,
};
