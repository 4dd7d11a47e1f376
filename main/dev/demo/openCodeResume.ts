/**
 * Restarting the demo on an existing home, for OpenCode seats: the same seed gives the same sessions, so the new run
 * continues them. What the previous run left open in the store — running tool parts (task calls among them),
 * unfinished assistant messages in the seats and their child sessions, background launches no result settled — is
 * closed the way OpenCode records an aborted turn, so no subagent stays "running" and no turn stays working forever.
 */
import { abortPart, taskEnvelope } from './openCodeChildren';
import type { OpenCodeStore } from './openCodeStore';

const ABORTED = { name: 'MessageAbortedError', data: { message: 'The operation was aborted.' } };
const ENVELOPE = /<task id="(ses_[A-Za-z0-9]+)" state="(completed|error|cancelled)">/;

/** Closes what a previous run left open in the sessions `seatIds` and their children, in one transaction. */
export function closeOpenCodeLeftovers(store: OpenCodeStore, seatIds: readonly string[], atMs: number): void {
  if (seatIds.length === 0) return;
  const { database } = store;
  const marks = seatIds.map(() => '?').join(', ');
  const children = database.prepare(`SELECT id FROM session WHERE parent_id IN (${marks})`).all(...seatIds) as { id: string }[];
  const sessions = [...seatIds, ...children.map((row) => row.id)];
  const all = sessions.map(() => '?').join(', ');
  database.exec('BEGIN');
  try {
    const running = database
      .prepare(`SELECT id, data FROM part WHERE session_id IN (${all}) AND json_extract(data, '$.state.status') IN ('pending', 'running')`)
      .all(...sessions) as { id: string; data: string }[];
    for (const row of running) abortPart(store, row, atMs);
    const open = database
      .prepare(`SELECT id, data FROM message WHERE session_id IN (${all}) AND json_extract(data, '$.role') = 'assistant' AND json_extract(data, '$.time.completed') IS NULL`)
      .all(...sessions) as { id: string; data: string }[];
    for (const row of open) {
      const data = JSON.parse(row.data) as { time?: { created?: number } };
      const aborted = { ...data, time: { created: data.time?.created ?? atMs, completed: atMs }, error: ABORTED };
      database.prepare('UPDATE message SET data = ?, time_updated = ? WHERE id = ?').run(JSON.stringify(aborted), atMs, row.id);
    }
    for (const seatId of seatIds) cancelUnsettledLaunches(store, seatId, atMs);
    database.exec('COMMIT');
  } catch (error) {
    database.exec('ROLLBACK');
    throw error;
  }
}

/** Background launches of a seat without a later result get a `cancelled` result, as when OpenCode's process exits. */
function cancelUnsettledLaunches(store: OpenCodeStore, seatId: string, atMs: number): void {
  const rows = store.database
    .prepare(
      `SELECT json_extract(data, '$.state.metadata.sessionId') AS child, json_extract(data, '$.state.input.description') AS description
         FROM part WHERE session_id = ? AND json_extract(data, '$.tool') = 'task' AND json_extract(data, '$.state.metadata.background') = 1`,
    )
    .all(seatId) as { child: string | null; description: string | null }[];
  if (rows.length === 0) return;
  const results = store.database
    .prepare(`SELECT json_extract(data, '$.text') AS text FROM part WHERE session_id = ? AND json_extract(data, '$.synthetic') = 1`)
    .all(seatId) as { text: string | null }[];
  const settled = new Set(results.flatMap((row) => (row.text ? [ENVELOPE.exec(row.text)?.[1]] : [])));
  const open = rows.filter((row) => row.child !== null && !settled.has(row.child));
  if (open.length === 0) return;
  const user = store.addMessage(seatId, atMs, { role: 'user', time: { created: atMs }, agent: 'build', model: { modelID: 'demo-model', providerID: 'demo' } });
  for (const row of open) {
    const text = taskEnvelope(row.child!, 'cancelled', `Background task cancelled: ${row.description ?? 'task'}`, 'Stopped when the demo restarted.');
    store.addPart(user, seatId, atMs, { type: 'text', text, synthetic: true });
  }
}
