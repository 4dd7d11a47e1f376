/**
 * What each seat's usage was at a past moment (issue 38): its latest usage sample at or before it. Samples are taken
 * at most once a minute, and only when the seat's totals changed, so the latest one holds until the next. The store
 * keeps samples in time order, so the search walks back from the moment a page at a time and stops once every seat
 * is found, or at the look-back bound (a seat with no sample in it stays unknown, never 0).
 */
import type { Seat } from '../../../shared/schemas';
import type { Usage } from '../../../shared/usage';
import { HISTORY_PAST_USAGE_LOOKBACK_MS, HISTORY_PAST_USAGE_PAGE } from './bounds';
import type { Database, Row } from './sqlite';

const PAGE_SQL = `SELECT s.at AS at, s.id AS id, seat.text AS seat, s.input AS input, s.output AS output, s.cache_read AS cacheRead,
  s.cache_write AS cacheWrite, s.cost_usd AS costUsd, s.context_used AS contextUsed, s.context_fill AS contextFill
  FROM usage_sample s JOIN name seat ON seat.id = s.seat
  WHERE (s.at, s.id) < (?, ?) AND s.at > ? ORDER BY s.at DESC, s.id DESC LIMIT ?`;

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0);
const figure = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null);

/** A sample as a seat's usage: its own totals and cost as recorded then (OpenCode records its cost, the others are priced). */
function usageOf(row: Row, seat: Seat): Usage {
  const used = figure(row.contextUsed);
  const fill = figure(row.contextFill);
  const usd = figure(row.costUsd);
  const context = used === null ? null : { used: Math.round(used), window: fill !== null && fill > 0 ? Math.round(used / fill) : null, fill: fill !== null && fill <= 10 ? fill : null };
  return {
    context,
    totals: { input: count(row.input), output: count(row.output), cacheRead: count(row.cacheRead), cacheWrite: count(row.cacheWrite) },
    partial: false,
    ...(usd === null ? {} : { cost: { usd, estimated: seat.harness !== 'opencode' } }),
    recordedAt: new Date(Number(row.at)).toISOString(),
  };
}

/** The seats of a past moment with the usage they had recorded by `at` (ms); seats without a sample keep none. */
export function withPastUsage(database: Database, at: number, seats: readonly Seat[]): Seat[] {
  const wanted = new Map(seats.map((seat) => [seat.id, seat]));
  const found = new Map<string, Usage>();
  const floor = at - HISTORY_PAST_USAGE_LOOKBACK_MS;
  // Rows before (at + 1, 0) in (at, id) order: every sample at or before the moment (ids are positive).
  let cursor: [number, number] = [at + 1, 0];
  while (found.size < wanted.size) {
    const rows = database.prepare(PAGE_SQL).all(cursor[0], cursor[1], floor, HISTORY_PAST_USAGE_PAGE);
    for (const row of rows) {
      const seat = wanted.get(String(row.seat));
      if (seat && !found.has(seat.id)) found.set(seat.id, usageOf(row, seat));
    }
    if (rows.length < HISTORY_PAST_USAGE_PAGE) break;
    const last = rows[rows.length - 1];
    cursor = [Number(last.at), Number(last.id)];
  }
  return seats.map((seat) => {
    const usage = found.get(seat.id);
    return usage ? { ...seat, usage } : seat;
  });
}
