/**
 * The OpenCode record census (issue 29): per seat, the message roles, part types and top-level JSON fields of the
 * seat's bounded window (the newest `OPENCODE_MESSAGES` messages, their newest `OPENCODE_PARTS` parts) that the
 * reader's rules do not know, counted by SQLite in the same read-only snapshot as the projection, and the version
 * the session row states. Names only; payload values never leave SQLite.
 */
import { censusView, createCensus, noteCount, noteVersion, type CensusView } from '../kit/census';
import { OPENCODE_MESSAGES, OPENCODE_PARTS } from '../kit/bounds';
import { asString } from '../kit/json';
import { OPENCODE_KNOWN } from './known';
import type { SqliteDatabase } from './sqlite';

const NO_TYPE = '(no type)';

/** The census of one session's window, with the version its session row states (when the store has that column). */
export function readCensus(database: SqliteDatabase, sessionId: string): CensusView {
  const census = createCensus();
  const hasVersion = database.all("SELECT name FROM pragma_table_info('session') WHERE name = 'version'").length > 0;
  if (hasVersion) noteVersion(census, database.get('SELECT version FROM session WHERE id = ?', [sessionId])?.version);
  const object = (column: string) => `CASE WHEN json_valid(${column}) AND json_type(${column}) = 'object' THEN ${column} ELSE '{}' END`;
  const rows = database.all(
    `WITH recent_messages AS (
       SELECT id, time_created, data FROM message WHERE session_id = ? ORDER BY time_created DESC, id DESC LIMIT ${OPENCODE_MESSAGES}
     ),
     recent_parts AS (
       SELECT p.id, p.data FROM part p JOIN recent_messages m ON m.id = p.message_id
       ORDER BY m.time_created DESC, m.id DESC, p.id DESC LIMIT ${OPENCODE_PARTS}
     )
     SELECT 'kinds' AS list, 'part.' || coalesce(json_extract(${object('data')}, '$.type'), '${NO_TYPE}') AS name, count(*) AS n
       FROM recent_parts WHERE json_valid(data) GROUP BY name
     UNION ALL
     SELECT 'kinds', 'message.' || coalesce(json_extract(${object('data')}, '$.role'), '${NO_TYPE}') AS name, count(*)
       FROM recent_messages WHERE json_valid(data) GROUP BY name
     UNION ALL
     SELECT 'fields', 'part.' || j.key AS name, count(*) FROM recent_parts, json_each(${object('recent_parts.data')}) j GROUP BY name
     UNION ALL
     SELECT 'fields', 'message.' || j.key AS name, count(*) FROM recent_messages, json_each(${object('recent_messages.data')}) j GROUP BY name`,
    [sessionId],
  );
  for (const row of rows) {
    const name = asString(row.name);
    if (name !== null) noteCount(census, OPENCODE_KNOWN, row.list === 'kinds' ? 'kinds' : 'fields', name, Number(row.n) || 0);
  }
  census.newestUnknown = newestKindUnknown(database, sessionId, object);
  return censusView(census, OPENCODE_KNOWN);
}

/** True when the session's newest record (the newest part of its newest message, else that message) is of an unknown kind. */
function newestKindUnknown(database: SqliteDatabase, sessionId: string, object: (column: string) => string): boolean {
  const newest = database.get(
    `SELECT m.id AS id, json_extract(${object('m.data')}, '$.role') AS role,
            (SELECT json_extract(${object('p.data')}, '$.type') FROM part p WHERE p.message_id = m.id ORDER BY p.id DESC LIMIT 1) AS part
     FROM message m WHERE m.session_id = ? ORDER BY m.time_created DESC, m.id DESC LIMIT 1`,
    [sessionId],
  );
  if (!newest) return false;
  const part = asString(newest.part);
  const kind = part !== null ? `part.${part}` : `message.${asString(newest.role) ?? NO_TYPE}`;
  return !OPENCODE_KNOWN.kinds.has(kind);
}
