/**
 * The schema check of an OpenCode store: the 1.x tables and columns the reader uses must exist; later columns,
 * tables and migrations are admitted.
 */
import type { SqliteDatabase } from './sqlite';

/** Tables and columns the reader reads (issue rule "Schema check"). */
export const REQUIRED_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  session: ['id', 'parent_id', 'directory', 'time_created'],
  message: ['id', 'session_id', 'time_created', 'data'],
  part: ['id', 'message_id', 'session_id', 'time_created', 'data'],
};

/** The reason shown for a seat whose session exists only in the 2.x tables. */
export const V2_ONLY_REASON = 'OpenCode 2.x history is not supported yet';

/** What the store offers beyond the required columns. */
export interface StoreShape {
  /** Whether each table has `time_updated` (used for the seat's last write). */
  timeUpdated: { session: boolean; message: boolean; part: boolean };
  /** Whether the 2.x `session_v2` table exists. */
  hasSessionV2: boolean;
}

/** Pure: the missing `table.column` names, given each table's column list (absent table = undefined). */
export function missingColumns(columnsByTable: Readonly<Record<string, readonly string[] | undefined>>): string[] {
  const missing: string[] = [];
  for (const [table, required] of Object.entries(REQUIRED_COLUMNS)) {
    const present = columnsByTable[table];
    if (!present) {
      missing.push(`table ${table}`);
      continue;
    }
    for (const column of required) if (!present.includes(column)) missing.push(`${table}.${column}`);
  }
  return missing;
}

function tableColumns(database: SqliteDatabase, table: string): string[] | undefined {
  const rows = database.all('SELECT name FROM pragma_table_info(?)', [table]);
  return rows.length === 0 ? undefined : rows.map((row) => String(row.name));
}

/** Reads the store's shape, or the sentence naming what is missing. */
export function inspectStore(database: SqliteDatabase): { ok: true; shape: StoreShape } | { ok: false; missing: string[] } {
  const columns: Record<string, string[] | undefined> = {};
  for (const table of Object.keys(REQUIRED_COLUMNS)) columns[table] = tableColumns(database, table);
  const missing = missingColumns(columns);
  if (missing.length > 0) return { ok: false, missing };
  const has = (table: string) => columns[table]?.includes('time_updated') ?? false;
  return {
    ok: true,
    shape: {
      timeUpdated: { session: has('session'), message: has('message'), part: has('part') },
      hasSessionV2: tableColumns(database, 'session_v2') !== undefined,
    },
  };
}

/** The sentence for a store that fails the schema check. */
export function schemaReason(missing: readonly string[]): string {
  return `The OpenCode database is missing ${missing.join(', ')}; this version of OpenCode is not supported.`;
}

/** True when `sessionId` is a row of the 2.x `session_v2` table (false when that table or its id is absent). */
export function existsInSessionV2(database: SqliteDatabase, sessionId: string): boolean {
  const columns = tableColumns(database, 'session_v2');
  if (!columns?.includes('id')) return false;
  return database.get('SELECT 1 AS found FROM session_v2 WHERE id = ?', [sessionId]) !== undefined;
}
