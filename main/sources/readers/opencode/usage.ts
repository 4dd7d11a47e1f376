/**
 * OpenCode usage (issue 26), summed by the store itself: assistant messages carry `tokens {input, output,
 * reasoning, cache {read, write}}`, `cost`, `modelID`, `providerID`.
 *
 * O1. Totals are the sums over the session's assistant messages, per hour (one aggregate query, no message text
 *     crosses); cost is the sum of the recorded `cost` (`estimated: false`).
 * O2. A message with a `tokens` object whose input or output is missing, negative, non-numeric or absurd, or whose
 *     cache or reasoning figure is bad, is skipped and counted; a message with no `tokens` yet (still being
 *     written) is not usage.
 * O3. A message with tokens but no valid `cost` leaves the seat without a cost (unknown, never a partial sum).
 * O4. Context in use = input + cache read + cache write of the last assistant message with tokens; the window comes
 *     from the model table by `modelID` (unknown model: fill null).
 * O5. Child sessions' totals are their own job's usage; every child session of the seat (by `parent_id`, at most
 *     USAGE_SESSION_FILES) counts toward its "with subagents", not only those on the tray.
 * O7. The recorded cost stands (never repriced from the table); the per-model breakdown groups by `modelID`.
 */
import type { SubagentEntry } from '../../../../shared/schemas';
import { seatUsage, subagentUsage, type SeatUsage } from '../../../kit/usage/seatUsage';
import { addAmount, createTally, hourKey, wouldOverflow, zeroAmount, type Tally } from '../../../kit/usage/tally';
import { QUARTER_HOUR_MS } from '../../../kit/usage/localHour';
import { USAGE_MODELS_KEPT, USAGE_SESSION_FILES } from '../../../kit/usage/bounds';
import { USAGE_RECORD_USD_MAX, USAGE_TOKENS_MAX } from '../../../../shared/usage';
import { OPENCODE_USAGE_ROW_BYTES } from '../kit/bounds';
import type { SqliteDatabase } from './sqlite';

const VALID = (column: string, optional: boolean) =>
  `(${optional ? `${column} IS NULL OR ` : ''}(typeof(${column}) = 'integer' AND ${column} BETWEEN 0 AND ${USAGE_TOKENS_MAX}))`;

/**
 * O6. A message row is measured before it is parsed: one that is not text, over OPENCODE_USAGE_ROW_BYTES or not
 *     well-formed JSON (NULs, a BLOB, nesting past SQLite's depth) is skipped and counted, never the whole seat.
 *     The selection is materialised, so each row is parsed once however many figures are taken from it.
 */
const MESSAGES = (where: string) => `
  SELECT id, session_id, time_created, CASE WHEN typeof(data) = 'text' AND octet_length(data) <= ${OPENCODE_USAGE_ROW_BYTES} AND json_valid(data) THEN data END AS data
  FROM message WHERE ${where}`;

/** The figures of each assistant message with tokens, and whether all of them are valid (rule O2) and priced (O3). */
const FIGURES = (where: string) => `
  r AS MATERIALIZED (${MESSAGES(where)}),
  m AS MATERIALIZED (
    SELECT id, session_id, time_created, data IS NULL AS bad,
      json_extract(data, '$.tokens.input') AS i, json_extract(data, '$.tokens.output') AS o,
      json_extract(data, '$.tokens.reasoning') AS r, json_extract(data, '$.tokens.cache.read') AS cr,
      json_extract(data, '$.tokens.cache.write') AS cw, json_extract(data, '$.cost') AS c, json_extract(data, '$.modelID') AS model
    FROM r
    WHERE data IS NULL OR (json_extract(data, '$.role') = 'assistant' AND json_type(data, '$.tokens') IS NOT NULL)
  ), v AS (
    SELECT *, (NOT bad AND ${VALID('i', false)} AND ${VALID('o', false)} AND ${VALID('r', true)} AND ${VALID('cr', true)} AND ${VALID('cw', true)}) AS ok,
      (typeof(c) IN ('integer', 'real') AND c >= 0 AND c <= ${USAGE_RECORD_USD_MAX}) AS priced
    FROM m
  ), s AS (
    SELECT *,
      sum(CASE WHEN ok THEN i ELSE 0 END) OVER w AS si, sum(CASE WHEN ok THEN o ELSE 0 END) OVER w AS so,
      sum(CASE WHEN ok THEN coalesce(r, 0) ELSE 0 END) OVER w AS sr, sum(CASE WHEN ok THEN coalesce(cr, 0) ELSE 0 END) OVER w AS scr,
      sum(CASE WHEN ok THEN coalesce(cw, 0) ELSE 0 END) OVER w AS scw
    FROM v WINDOW w AS (PARTITION BY session_id ORDER BY time_created, id ROWS UNBOUNDED PRECEDING)
  ), t AS (
    -- Checked again where summed: from the record that carries a running total past the bound on, records are skipped.
    SELECT session_id, time_created, id, model, i, o, r, cr, cw, c, priced,
      ok AND si <= ${USAGE_TOKENS_MAX} AND so <= ${USAGE_TOKENS_MAX} AND sr <= ${USAGE_TOKENS_MAX} AND scr <= ${USAGE_TOKENS_MAX} AND scw <= ${USAGE_TOKENS_MAX} AS ok
    FROM s
  )`;

const USAGE_SQL = `
  WITH ${FIGURES('session_id IN (SELECT value FROM json_each(?))')}
  SELECT session_id AS session, (time_created / ${QUARTER_HOUR_MS}) * ${QUARTER_HOUR_MS} AS quarter, model,
    sum(CASE WHEN ok THEN i ELSE 0 END) AS input, sum(CASE WHEN ok THEN o ELSE 0 END) AS output,
    sum(CASE WHEN ok THEN coalesce(r, 0) ELSE 0 END) AS reasoning,
    sum(CASE WHEN ok THEN coalesce(cr, 0) ELSE 0 END) AS cacheRead, sum(CASE WHEN ok THEN coalesce(cw, 0) ELSE 0 END) AS cacheWrite,
    sum(CASE WHEN ok AND priced THEN c ELSE 0 END) AS usd,
    sum(CASE WHEN ok AND NOT priced AND i + o + coalesce(cr, 0) + coalesce(cw, 0) > 0 THEN 1 ELSE 0 END) AS unpriced,
    sum(CASE WHEN ok THEN 1 ELSE 0 END) AS counted,
    sum(CASE WHEN ok THEN 0 ELSE 1 END) AS skipped
  FROM t GROUP BY session_id, quarter, model`;

/** Rule O4 with O2: the context comes only from a message whose figures are all valid (skipped for totals: never here). */
const CONTEXT_SQL = `
  WITH ${FIGURES('session_id = ?')}
  SELECT model, i + coalesce(cr, 0) + coalesce(cw, 0) AS used
  FROM t WHERE ok AND i + coalesce(cr, 0) > 0
  ORDER BY time_created DESC, id DESC LIMIT 1`;

const CHILDREN_SQL = 'SELECT id FROM session WHERE parent_id = ? ORDER BY time_created, id LIMIT ?';

const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** Each session's tally (rules O1–O3), from one aggregate query. */
export function sessionTallies(database: SqliteDatabase, sessionIds: readonly string[]): Map<string, Tally> {
  const tallies = new Map<string, Tally>();
  for (const row of database.all(USAGE_SQL, [JSON.stringify(sessionIds)])) {
    const session = String(row.session);
    let tally = tallies.get(session);
    if (!tally) tallies.set(session, (tally = createTally('recorded')));
    const amount = { ...zeroAmount(), input: num(row.input), output: num(row.output), reasoning: num(row.reasoning), cacheRead: num(row.cacheRead), cacheWrite: num(row.cacheWrite), usd: num(row.usd), unpriced: num(row.unpriced) };
    // Checked again where summed: an hour that would carry a total past the bound is skipped and counted, never capped.
    if (wouldOverflow(tally.sum, amount)) {
      tally.skipped += num(row.skipped) + num(row.counted);
      continue;
    }
    addAmount(tally.sum, amount);
    // Quarter hours from the store, folded into the owner's local hours (hourKey): "today" follows the local clock.
    addAmount((tally.hours[hourKey(num(row.quarter))!] ??= zeroAmount()), amount);
    // Rule O7: the per-model breakdown, by the `modelID` each message recorded.
    const model = typeof row.model === 'string' && row.model !== '' ? row.model : 'unknown';
    const kept = Object.hasOwn(tally.models, model) || Object.keys(tally.models).length < USAGE_MODELS_KEPT ? model : 'other';
    addAmount((tally.models[kept] ??= zeroAmount()), amount);
    // Issue 37: the same by hour, for the per-model rows of a `--since` window.
    addAmount((((tally.modelHours ??= {})[kept] ??= {})[String(num(row.hour))] ??= zeroAmount()), amount);
    tally.skipped += num(row.skipped);
    tally.hasReasoning = true;
  }
  return tallies;
}

/** The seat's usage and its entries with each child session's own (rules O4–O5). */
export function openCodeSeatUsage(
  database: SqliteDatabase,
  sessionId: string,
  entries: readonly SubagentEntry[],
  childOf: ReadonlyMap<string, string>,
): { usage: SeatUsage; entries: SubagentEntry[] } {
  const children = entries.map((entry) => (entry.nativeId === null ? undefined : childOf.get(entry.nativeId)));
  // Rule O5: every child session of the seat counts toward "with subagents" (issue 37), not only the tray's entries.
  const all = new Set(database.all(CHILDREN_SQL, [sessionId, USAGE_SESSION_FILES]).map((row) => String(row.id)));
  for (const child of children) if (child !== undefined) all.add(child);
  all.delete(sessionId); // a session naming itself its own child is not its subagent (issue 36)
  const tallies = sessionTallies(database, [sessionId, ...all]);
  const own = tallies.get(sessionId) ?? createTally('recorded');
  const childTallies = [...all].map((id) => tallies.get(id)).filter((tally): tally is Tally => tally !== undefined);
  const withUsage = entries.map((entry, index) => {
    const tally = children[index] === undefined || children[index] === sessionId ? undefined : tallies.get(children[index]!);
    return tally ? { ...entry, usage: subagentUsage(tally, false) } : entry;
  });
  const context = database.get(CONTEXT_SQL, [sessionId]);
  const model = typeof context?.model === 'string' ? context.model : null;
  const usage = seatUsage({
    own,
    partial: false,
    subagents: childTallies,
    subagentsPartial: false,
    contextUsed: context ? num(context.used) : null,
    model,
  });
  return { usage, entries: withUsage };
}
