/**
 * Every bound of the history store (issue 27) in one place: how long it keeps, how big it may grow, how often it
 * samples and snapshots, and how much one answer may carry.
 */

/** Days of history kept by default (settings.json `history.days`; 0 turns recording off). */
export const HISTORY_DAYS_DEFAULT = 7;
/** Most days `history.days` accepts. */
export const HISTORY_DAYS_MAX = 366;
/** The store's size cap, in bytes: past it the oldest rows go first. */
export const HISTORY_CAP_BYTES = 64 * 1024 * 1024;
/** Share of the retained span dropped at once when the cap is reached (so trimming is not done on every write). */
export const HISTORY_CAP_TRIM_SHARE = 0.1;
/** How often retention and the cap are checked while recording, in milliseconds. */
export const HISTORY_PRUNE_EVERY_MS = 10 * 60_000;
/** How often a whole state is written, in milliseconds; a seek replays at most this much forward. */
export const HISTORY_SNAPSHOT_EVERY_MS = 5 * 60_000;
/** Least time between two usage samples of one seat, in milliseconds. */
export const HISTORY_USAGE_SAMPLE_MS = 60_000;
/** Minutes away before the page shows the digest by default (settings.json `history.awayMinutes`). */
export const HISTORY_AWAY_MINUTES_DEFAULT = 10;
/** Buckets of the timeline bar when the page does not say. */
export const HISTORY_BUCKETS_DEFAULT = 240;
/** Longest label kept in a row, in characters (labels are already bounded; this guards the store). */
export const HISTORY_LABEL_MAX = 120;
/** Milliseconds SQLite waits on a lock held by another connection before a statement fails. */
export const HISTORY_BUSY_TIMEOUT_MS = 2000;
// The recent jobs a past seat lists and how far back a past moment looks for usage are in shared/pastWorld.ts: the
// page folds a window of history with the same bounds.
/** Usage samples read per page while walking back from a past moment. */
export const HISTORY_PAST_USAGE_PAGE = 2000;
