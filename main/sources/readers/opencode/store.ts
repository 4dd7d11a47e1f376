/**
 * Bounded queries over an OpenCode 1.x store. Every selection is capped in SQL (messages, parts, payload bytes)
 * so a read costs the same however long the session grew; JSON is parsed only for rows inside the window.
 */
import type { StoreShape } from './schema';
import type { SqliteDatabase } from './sqlite';
import type { PartRow } from './taskCalls';
import type { OpenCodeActivityFacts } from './activity';
import { OPENCODE_MESSAGES, OPENCODE_PARTS, OPENCODE_PAYLOAD_BYTES } from '../kit/bounds';
import { asString } from '../kit/json';


/** A session row: the identity facts the reader checks. */
export interface SessionRow {
  id: string;
  parentId: string | null;
  directory: string | null;
  updatedMs: number | null;
}

/** The rows of one bounded window. */
export interface Window<T> {
  rows: T[];
  /** Rows inside the window whose JSON is malformed. */
  malformed: number;
  /** Part payload bytes inside the window. */
  bytes: number;
  /** Latest write time seen in the window, ms since epoch. */
  lastWriteMs: number | null;
}

const numberOrNull = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** The session row of `sessionId` in the 1.x `session` table, or undefined. */
export function readSession(database: SqliteDatabase, shape: StoreShape, sessionId: string): SessionRow | undefined {
  const updated = shape.timeUpdated.session ? 'time_updated' : 'time_created';
  const row = database.get(`SELECT id, parent_id, directory, ${updated} AS updated FROM session WHERE id = ?`, [
    sessionId,
  ]);
  if (!row) return undefined;
  return {
    id: String(row.id),
    parentId: asString(row.parent_id),
    directory: asString(row.directory),
    updatedMs: numberOrNull(row.updated),
  };
}

/** Of `candidates`, the ids that are direct children of `parent`: `parent_id` = parent and the same directory. */
export function directChildren(database: SqliteDatabase, parent: SessionRow, candidates: readonly string[]): Set<string> {
  if (candidates.length === 0 || parent.directory === null) return new Set();
  const rows = database.all(
    'SELECT id FROM session WHERE parent_id = ? AND directory = ? AND id IN (SELECT value FROM json_each(?))',
    [parent.id, parent.directory, JSON.stringify([...new Set(candidates)])],
  );
  return new Set(rows.map((row) => String(row.id)));
}

function messageUpdatedColumn(shape: StoreShape): string {
  return shape.timeUpdated.message ? 'coalesce(time_updated, time_created)' : 'time_created';
}

/**
 * Rule 3 (bounded reads), the shared window: the newest `OPENCODE_MESSAGES` messages of a session, their newest `OPENCODE_PARTS` parts, cut where
 * the running sum of part payload (newest first) would pass `OPENCODE_PAYLOAD_BYTES`. `selectData` is an SQL
 * expression over `p.data` (only evaluated for well-formed JSON) choosing which payloads come back.
 */
function windowSql(shape: StoreShape, selectData: string): string {
  const partUpdated = shape.timeUpdated.part ? 'coalesce(p.time_updated, p.time_created)' : 'p.time_created';
  return `
    WITH recent_messages AS (
      SELECT id, time_created FROM message
      WHERE session_id = ? ORDER BY time_created DESC, id DESC LIMIT ${OPENCODE_MESSAGES}
    ),
    recent_parts AS (
      SELECT p.id, p.message_id, m.time_created AS message_time, p.time_created, ${partUpdated} AS updated,
             octet_length(p.data) AS bytes
      FROM part p JOIN recent_messages m ON m.id = p.message_id
      ORDER BY m.time_created DESC, m.id DESC, p.id DESC LIMIT ${OPENCODE_PARTS}
    ),
    budgeted AS (
      SELECT *, sum(bytes) OVER (ORDER BY message_time DESC, message_id DESC, id DESC ROWS UNBOUNDED PRECEDING) AS total
      FROM recent_parts
    )
    SELECT b.id, b.message_id, b.message_time, b.time_created, b.updated, b.bytes,
           json_valid(p.data) AS valid,
           CASE WHEN json_valid(p.data) AND (${selectData}) THEN p.data END AS data
    FROM budgeted b JOIN part p ON p.id = b.id
    WHERE b.total <= ${OPENCODE_PAYLOAD_BYTES}
    ORDER BY b.message_time, b.message_id, b.id`;
}

function parse(data: unknown): unknown {
  if (typeof data !== 'string') return null;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

function readWindow(database: SqliteDatabase, shape: StoreShape, sql: string, sessionId: string): Window<PartRow> {
  const rows: PartRow[] = [];
  let malformed = 0;
  let bytes = 0;
  let lastWriteMs: number | null = null;
  for (const row of database.all(sql, [sessionId])) {
    bytes += Number(row.bytes) || 0;
    lastWriteMs = Math.max(lastWriteMs ?? 0, numberOrNull(row.updated) ?? 0);
    if (row.valid !== 1) {
      malformed += 1;
      continue;
    }
    if (row.data === null || row.data === undefined) continue;
    rows.push({
      partId: String(row.id),
      messageId: String(row.message_id),
      messageTime: Number(row.message_time),
      partTime: Number(row.time_created),
      data: parse(row.data),
    });
  }
  // Messages without parts (a turn just opened) still count as writes.
  const latest = numberOrNull(
    database.get(
      `SELECT max(updated) AS latest FROM (SELECT ${messageUpdatedColumn(shape)} AS updated FROM message
       WHERE session_id = ? ORDER BY time_created DESC, id DESC LIMIT ${OPENCODE_MESSAGES})`,
      [sessionId],
    )?.latest,
  );
  if (latest !== null) lastWriteMs = Math.max(lastWriteMs ?? 0, latest);
  return { rows, malformed, bytes, lastWriteMs };
}

/** Task parts and synthetic task envelopes of the seat's window, oldest first. */
export function selectTaskRows(database: SqliteDatabase, shape: StoreShape, sessionId: string): Window<PartRow> {
  const relevant = `(json_extract(p.data, '$.type') = 'tool' AND json_extract(p.data, '$.tool') = 'task')
    OR (json_extract(p.data, '$.type') = 'text' AND instr(p.data, '<task id=') > 0)`;
  return readWindow(database, shape, windowSql(shape, relevant), sessionId);
}

/** Every part of a child's window (for replay), oldest first. */
export function selectAllRows(database: SqliteDatabase, shape: StoreShape, sessionId: string): Window<PartRow> {
  return readWindow(database, shape, windowSql(shape, '1'), sessionId);
}

/** Role and completion of the newest messages of a session (replay's speaker and running check), by message id. */
export function selectMessageFacts(
  database: SqliteDatabase,
  sessionId: string,
): Map<string, { role: string | null; completed: boolean; time: number }> {
  const rows = database.all(
    `SELECT id, time_created,
            CASE WHEN json_valid(data) THEN json_extract(data, '$.role') END AS role,
            CASE WHEN json_valid(data) THEN json_extract(data, '$.time.completed') END AS completed
     FROM message WHERE session_id = ? ORDER BY time_created DESC, id DESC LIMIT ${OPENCODE_MESSAGES}`,
    [sessionId],
  );
  const facts = new Map<string, { role: string | null; completed: boolean; time: number }>();
  for (const row of rows.reverse()) {
    facts.set(String(row.id), {
      role: asString(row.role),
      completed: row.completed !== null && row.completed !== undefined,
      time: Number(row.time_created),
    });
  }
  return facts;
}

/**
 * The activity facts of a session: its newest message (role, completion, error, finish), that message's tool parts
 * (at most `OPENCODE_PARTS`, status and tool name only) and the newest user message's time, within the newest
 * `OPENCODE_MESSAGES` messages. Payload JSON never leaves SQLite.
 */
export function selectActivityFacts(database: SqliteDatabase, sessionId: string): OpenCodeActivityFacts {
  const message = database.get(
    `SELECT id, time_created,
            CASE WHEN json_valid(data) THEN json_extract(data, '$.role') END AS role,
            CASE WHEN json_valid(data) THEN json_extract(data, '$.time.completed') END AS completed,
            CASE WHEN json_valid(data) THEN json_extract(data, '$.error.name') END AS error_name,
            CASE WHEN json_valid(data) THEN json_type(data, '$.error') END AS error_type,
            CASE WHEN json_valid(data) THEN json_extract(data, '$.finish') END AS finish
     FROM message WHERE session_id = ? ORDER BY time_created DESC, id DESC LIMIT 1`,
    [sessionId],
  );
  if (!message) return { last: null, tools: [], turnStartMs: null };
  const tools = database
    .all(
      `SELECT json_extract(data, '$.tool') AS tool, json_extract(data, '$.state.status') AS status FROM part
       WHERE message_id = ? AND json_valid(data) AND json_extract(data, '$.type') = 'tool' ORDER BY id LIMIT ${OPENCODE_PARTS}`,
      [String(message.id)],
    )
    .map((row) => ({ tool: asString(row.tool) ?? 'tool', status: asString(row.status) }));
  const turn = database.get(
    `SELECT max(time_created) AS started FROM (SELECT time_created, data FROM message WHERE session_id = ?
       ORDER BY time_created DESC, id DESC LIMIT ${OPENCODE_MESSAGES})
     WHERE json_valid(data) AND json_extract(data, '$.role') = 'user'`,
    [sessionId],
  );
  const errorType = asString(message.error_type);
  return {
    last: {
      role: asString(message.role),
      createdMs: Number(message.time_created),
      completedMs: numberOrNull(message.completed),
      errorName: errorType === null || errorType === 'null' ? null : (asString(message.error_name) ?? 'error'),
      finish: asString(message.finish),
    },
    tools,
    turnStartMs: numberOrNull(turn?.started),
  };
}

/**
 * Rule 3b (re-read only what changed): a short text that changes with every write the seat's projection can see — its
 * session row, the rows of its child sessions, every message of the seat and of its children (usage sums them all) and
 * the parts of its newest `OPENCODE_MESSAGES` messages (the window every other rule reads) — by their counts, newest
 * write times and payload sizes, counted by SQLite without reading a payload. Null when the store lacks `time_updated`
 * on sessions, messages or parts (an in-place update would then change no time, so such a store is always read again)
 * or the session is not there. A write it cannot see (an update in the same millisecond that keeps a row's size) shows
 * at the next full read, at most OPENCODE_UNCHANGED_REUSE_MS later.
 */
export function sessionFingerprint(database: SqliteDatabase, shape: StoreShape, sessionId: string): string | null {
  if (!shape.timeUpdated.session || !shape.timeUpdated.message || !shape.timeUpdated.part) return null;
  // The id is bound once (`s`): both drivers take plain positional parameters only.
  const row = database.get(
    `WITH s(id) AS (SELECT ?), kin(id) AS (SELECT id FROM s UNION ALL SELECT id FROM session WHERE parent_id = (SELECT id FROM s))
     SELECT
       (SELECT time_updated || '|' || coalesce(parent_id, '') || '|' || coalesce(directory, '') FROM session WHERE id = (SELECT id FROM s)) AS own,
       (SELECT count(*) || '|' || coalesce(max(time_updated), '') || '|' || coalesce(min(id), '') || '|' || coalesce(max(id), '')
          || '|' || total(octet_length(directory)) FROM session WHERE parent_id = (SELECT id FROM s)) AS children,
       (SELECT count(*) || '|' || coalesce(max(coalesce(time_updated, time_created)), '') || '|' || total(octet_length(data))
          FROM message WHERE session_id IN (SELECT id FROM kin)) AS messages,
       (SELECT count(*) || '|' || coalesce(max(coalesce(p.time_updated, p.time_created)), '') || '|' || total(octet_length(p.data))
          FROM (SELECT id FROM message WHERE session_id = (SELECT id FROM s) ORDER BY time_created DESC, id DESC LIMIT ${OPENCODE_MESSAGES}) m
          JOIN part p ON p.message_id = m.id) AS parts`,
    [sessionId],
  );
  if (!row || row.own === null || row.own === undefined) return null;
  return `${String(row.own)}#${String(row.children)}#${String(row.messages)}#${String(row.parts)}`;
}
