/**
 * Minute buckets of Claude usage (issue 41): what the 5-hour blocks are cut from, kept by the same fold that keeps the
 * hour buckets, so `usage --blocks` reuses the background pass's figures instead of reading journals again. Pure.
 *
 * M1. A bucket holds the messages of one minute, the minute's end included: key = ceil(ms / 60 000). A block starts
 *     on an hour and ends 5 h later on an hour, and "more than 5 h after the start" splits exactly at that end, so
 *     a bucket (k − 1 min, k min] never holds messages on both sides of a split; nor of a gap over 5 h.
 * M2. A bucket keeps its first and last message's time to the millisecond: a block's `lastEntry` and the gap rule
 *     stay exact.
 * M3. A message counts one entry where it is first counted (rule U1's key); what a repeat adds counts its tokens only.
 * M4. The newest MINUTES_KEPT buckets are kept (30 days of continuous work), like the hour buckets.
 */

/** What minute buckets are kept on (a tally): this file knows only that field, so the tally may import it. */
interface MinuteHolder {
  minutes?: Minutes;
}
/** The token figures a message adds. */
interface MinuteFigures {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** `[firstMs, lastMs, input, output, cacheRead, cacheWrite, usd, unpriced, entries]`: plain JSON for the checkpoint. */
export type MinuteBucket = [number, number, number, number, number, number, number, number, number];
/** Minute buckets by key (rule M1). */
export type Minutes = Record<string, MinuteBucket>;

/** Minutes a tally keeps, the newest (30 days), rule M4. */
export const MINUTES_KEPT = 30 * 24 * 60;
const MINUTE_MS = 60_000;
/** Buckets per minutes record, so adding one does not list them all. */
const counts = new WeakMap<Minutes, number>();

/** Rule M1: the bucket key of a time. */
function minuteKey(atMs: number): string {
  return String(Math.ceil(atMs / MINUTE_MS));
}

/**
 * Adds a message's counted figures at `atMs` to the holder's minutes (rules M1–M3), with the cost its model's price
 * gives (null: unpriced); a time not known adds nothing. The tally's `addMinute` prices it.
 */
export function addMinuteBucket(tally: MinuteHolder, figures: MinuteFigures, atMs: number | null, usd: number | null, first: boolean): void {
  if (atMs === null || !Number.isFinite(atMs)) return;
  const minutes = (tally.minutes ??= {});
  const key = minuteKey(atMs);
  let bucket = minutes[key];
  if (!bucket) {
    bucket = minutes[key] = [atMs, atMs, 0, 0, 0, 0, 0, 0, 0];
    // The count is kept aside (a checkpoint's buckets are counted once), so a new minute costs no listing of the rest.
    const count = (counts.get(minutes) ?? Object.keys(minutes).length - 1) + 1;
    counts.set(minutes, count);
    if (count > MINUTES_KEPT + 24 * 60) {
      pruneMinutes(minutes);
      counts.set(minutes, MINUTES_KEPT);
    }
  } else if (first) {
    bucket[0] = Math.min(bucket[0], atMs);
    bucket[1] = Math.max(bucket[1], atMs);
  }
  bucket[2] += figures.input;
  bucket[3] += figures.output;
  bucket[4] += figures.cacheRead;
  bucket[5] += figures.cacheWrite;
  if (usd === null) {
    if (figures.input + figures.output + figures.cacheRead + figures.cacheWrite > 0) bucket[7] += 1;
  } else bucket[6] += usd;
  if (first) bucket[8] += 1;
}

/** Adds `from`'s buckets into `into` (a seat with its subagents, all sessions together). */
export function mergeMinutes(into: Minutes, from: Minutes): void {
  for (const [key, bucket] of Object.entries(from)) {
    const kept = into[key];
    if (!kept) {
      into[key] = [...bucket];
      continue;
    }
    kept[0] = Math.min(kept[0], bucket[0]);
    kept[1] = Math.max(kept[1], bucket[1]);
    for (let index = 2; index < 9; index += 1) kept[index] += bucket[index];
  }
}

function pruneMinutes(minutes: Minutes): void {
  const keys = Object.keys(minutes).sort((left, right) => Number(left) - Number(right));
  for (const key of keys.slice(0, keys.length - MINUTES_KEPT)) delete minutes[key];
}

/** Merged tallies whose minutes are still another tally's own object (read, never written through). */
const borrowed = new WeakSet<MinuteHolder>();

/**
 * Adds `from` into a merged tally's minutes. The first is borrowed, not copied (a seat without subagents costs no
 * copy on each answer); a second copies the first before adding to it. Merged tallies are only read.
 */
export function joinMinutes(into: MinuteHolder, from: Minutes): void {
  if (!into.minutes) {
    into.minutes = from;
    borrowed.add(into);
    return;
  }
  if (borrowed.has(into)) {
    const own: Minutes = {};
    mergeMinutes(own, into.minutes);
    into.minutes = own;
    borrowed.delete(into);
  }
  mergeMinutes(into.minutes, from);
}
