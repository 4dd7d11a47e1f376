/**
 * Replay of one task call's child session: resolved only from the call's recorded child reference, checked to be a
 * direct child before and after reading, read within the window bounds, paged with bound cursors.
 */
import { statSync } from 'node:fs';
import type { SeatAddress } from '../../../../shared/schemas';
import type { ReplayResult } from '../port';
import { existsInSessionV2, inspectStore, schemaReason, V2_ONLY_REASON } from './schema';
import { isBusyError, withReadOnly } from './sqlite';
import type { SqliteDatabase } from './sqlite';
import { readSession, selectAllRows, selectMessageFacts, selectTaskRows } from './store';
import type { SessionRow } from './store';
import { collectRows } from './taskCalls';
import { normalizeChild, PART_POSITION, PLAIN_ID, type PartPosition } from './transcript';
import { replayPage, type NoPage, type PagerSpec, type WindowRead } from '../kit/pager';

const CHILD_ID_PATTERN = /^ses_[A-Za-z0-9]{1,64}$/;

const unavailable = (reason: string): NoPage => ({ status: 'unavailable', reason });
const refused = (reason: string): NoPage => ({ status: 'refused', reason });

function isDirectChild(child: SessionRow | undefined, parent: SessionRow): boolean {
  return child !== undefined && child.parentId === parent.id && child.directory !== null && child.directory === parent.directory;
}

/** The call's child entries, oldest first; the child session id is the source a cursor is checked against. */
function readChild(database: SqliteDatabase, seat: SeatAddress, callId: string): WindowRead<PartPosition> {
  const store = inspectStore(database);
  if (!store.ok) {
    return unavailable(existsInSessionV2(database, seat.sessionId) ? V2_ONLY_REASON : schemaReason(store.missing));
  }
  const parent = readSession(database, store.shape, seat.sessionId);
  if (!parent) {
    if (existsInSessionV2(database, seat.sessionId)) return unavailable(V2_ONLY_REASON);
    return unavailable(`OpenCode session ${seat.sessionId} is not in ${seat.home}.`);
  }
  const call = collectRows(selectTaskRows(database, store.shape, parent.id).rows).calls.find(
    (candidate) => candidate.callId === callId,
  );
  if (!call) return unavailable(`No task call ${callId} in the recent history of this session.`);
  if (call.childId === null) return unavailable('This subagent has no child session yet.');
  if (!CHILD_ID_PATTERN.test(call.childId)) return refused('The recorded child session id is not a session id.');
  const childId = call.childId;
  const child = readSession(database, store.shape, childId);
  if (!child) return unavailable('The subagent’s session is no longer in the OpenCode database.');
  // Titles never select a child: only the recorded id, and only when it is a direct child in the same directory.
  if (!isDirectChild(child, parent)) return refused('The recorded child session is not a direct child of this session.');
  const rows = selectAllRows(database, store.shape, childId).rows;
  const facts = selectMessageFacts(database, childId);
  // The relation is checked again after reading: a session rewritten meanwhile is refused, not shown.
  if (!isDirectChild(readSession(database, store.shape, childId), parent)) {
    return refused('The child session changed while it was read.');
  }
  const roles = new Map([...facts].map(([id, fact]) => [id, fact.role]));
  const last = [...facts.values()].at(-1);
  const running = last !== undefined && !(last.role === 'assistant' && last.completed);
  return { status: 'read', entries: normalizeChild(rows, roles), running, source: childId };
}

/** The pager's view of an OpenCode replay: cursors bound to the seat's session and the call, row positions. */
function pagerSpec(seat: SeatAddress, callId: string): PagerSpec<PartPosition> {
  return { owner: { harness: 'opencode', ids: [seat.sessionId, callId] }, position: PART_POSITION };
}

/** One page of the child transcript of task call `callId` of the seat, or why it cannot or may not be shown. */
export async function replayCall(seat: SeatAddress, callId: string, cursor?: string): Promise<ReplayResult> {
  if (!PLAIN_ID.safeParse(callId).success) return refused('That is not a task call id this reader recorded.');
  try {
    if (!statSync(seat.home).isFile()) return unavailable(`The OpenCode database ${seat.home} does not exist.`);
  } catch {
    return unavailable(`The OpenCode database ${seat.home} does not exist.`);
  }
  // The store's own selection holds the window's 4 MiB (OPENCODE_PAYLOAD_BYTES); the pager keeps the newest 500.
  return replayPage(pagerSpec(seat, callId), cursor, async () => {
    try {
      return await withReadOnly(seat.home, (database) => readChild(database, seat, callId));
    } catch (error) {
      if (isBusyError(error)) return unavailable('The OpenCode database is locked by another process; try again in a moment.');
      return unavailable(`The OpenCode database could not be read: ${(error as Error).message}`);
    }
  });
}
