/**
 * The two store questions the terminal asks of OpenCode: did a user message arrive in a session since a moment (a
 * send's acknowledgement), and which root session of a folder was updated last (adoption). Read-only, one query each.
 */
import { withReadOnly } from './sqlite';

/** True when the session holds a user message created at or after `sinceMs` (a second of clock slack allowed). */
export async function openCodeUserMessageSince(db: string, session: string, sinceMs: number): Promise<boolean> {
  try {
    return await withReadOnly(db, (database) => {
      const row = database.get("SELECT count(*) AS n FROM message WHERE session_id = ? AND time_created >= ? AND json_extract(data, '$.role') = 'user'", [session, sinceMs - 1000]);
      return Number(row?.n ?? 0) > 0;
    });
  } catch {
    return false;
  }
}

/** The most recently updated root OpenCode session of a folder (adoption rule 4), or null. */
export async function openCodeLatestSession(db: string, folder: string): Promise<string | null> {
  try {
    return await withReadOnly(db, (database) => {
      const row = database.get('SELECT id FROM session WHERE directory = ? AND parent_id IS NULL ORDER BY time_updated DESC LIMIT 1', [folder]);
      return typeof row?.id === 'string' ? row.id : null;
    });
  } catch {
    return null;
  }
}
