/**
 * What each seat's usage was at a past moment (issue 38): its latest usage sample at or before it. Samples are taken
 * at most once a minute, and only when the seat's totals changed, so the latest one holds until the next. The store
 * keeps samples in time order, so the search walks back from the moment a page at a time and stops once every seat
 * is found, or at the look-back bound (a seat with no sample in it stays unknown, never 0).
 */
import { HISTORY_PAST_USAGE_LOOKBACK_MS, withSampleUsage, type UsageSample } from '../../../shared/pastWorld';
import type { Seat } from '../../../shared/schemas';
import { HISTORY_PAST_USAGE_PAGE } from './bounds';
import type { Database, Row } from './sqlite';

/** A sample's columns, with its seat's id as text. */
const SAMPLE_FROM = `SELECT s.at AS at, s.id AS id, seat.text AS seat, s.input AS input, s.output AS output, s.cache_read AS cacheRead,
  s.cache_write AS cacheWrite, s.cost_usd AS costUsd, s.context_used AS contextUsed, s.context_fill AS contextFill
  FROM usage_sample s JOIN name seat ON seat.id = s.seat`;
const PAGE_SQL = `${SAMPLE_FROM} WHERE (s.at, s.id) < (?, ?) AND s.at > ? ORDER BY s.at DESC, s.id DESC LIMIT ?`;
const RANGE_SQL = `${SAMPLE_FROM} WHERE s.at > ? AND s.at <= ? ORDER BY s.at, s.id`;

const nullable = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/** A row of either select as a sample (figures that are not numbers read as null; the fold treats them as unknown). */
function sampleOf(row: Row): UsageSample {
  return {
    at: Number(row.at),
    id: Number(row.id),
    input: nullable(row.input),
    output: nullable(row.output),
    cacheRead: nullable(row.cacheRead),
    cacheWrite: nullable(row.cacheWrite),
    costUsd: nullable(row.costUsd),
    contextUsed: nullable(row.contextUsed),
    contextFill: nullable(row.contextFill),
  };
}

/** Each named seat's latest usage sample at or before `at` (ms) within the look-back bound, keyed by seat id. */
export function latestSamples(database: Database, at: number, seatIds: ReadonlySet<string>): Map<string, UsageSample> {
  const found = new Map<string, UsageSample>();
  const floor = at - HISTORY_PAST_USAGE_LOOKBACK_MS;
  // Rows before (at + 1, 0) in (at, id) order: every sample at or before the moment (ids are positive).
  let cursor: [number, number] = [at + 1, 0];
  while (found.size < seatIds.size) {
    const rows = database.prepare(PAGE_SQL).all(cursor[0], cursor[1], floor, HISTORY_PAST_USAGE_PAGE);
    for (const row of rows) {
      const seat = String(row.seat);
      if (seatIds.has(seat) && !found.has(seat)) found.set(seat, sampleOf(row));
    }
    if (rows.length < HISTORY_PAST_USAGE_PAGE) break;
    const last = rows[rows.length - 1];
    cursor = [Number(last.at), Number(last.id)];
  }
  return found;
}

/** The samples of `(from, to]` (ms), oldest first, with their seats' ids. */
export function samplesBetween(database: Database, from: number, to: number): { seat: string; sample: UsageSample }[] {
  return database
    .prepare(RANGE_SQL)
    .all(from, to)
    .map((row) => ({ seat: String(row.seat), sample: sampleOf(row) }));
}

/** The seats of a past moment with the usage they had recorded by `at` (ms); seats without a sample keep none. */
export function withPastUsage(database: Database, at: number, seats: readonly Seat[]): Seat[] {
  const found = latestSamples(database, at, new Set(seats.map((seat) => seat.id)));
  return withSampleUsage(seats, (seatId) => found.get(seatId));
}
