/**
 * The Codex activity projection, folded from the parent rollout in the same pass as its subagent records (pure).
 * Formats relied on (Codex CLI rollouts 2026-01 – 2026-04, see ../shared/formats/codex.md §3–8): `event_msg`
 * `task_started` / `task_complete` / `turn_aborted{reason}` / `user_message` / `token_count`, `turn_context`
 * `{approval_policy}`, and `response_item` `function_call` / `custom_tool_call` with their `*_output` by `call_id`.
 *
 * Rule 1 (turn end): the last turn event `task_complete` is turn-done; `turn_aborted` with reason `interrupted` is
 *   interrupted; `budget_limited` and every other abort is an error. All certain.
 * Rule 2 (working / question): `task_started` without its end is working; a pending `request_user_input` call is a
 *   question (certain).
 * Rule 3 (approval): a pending `function_call` / `custom_tool_call` with no progress for 10 s — bookkeeping written
 *   right after a call (`token_count`) is not progress — while the turn's `approval_policy` is not `never`, is
 *   approval, not certain.
 * Rule 4 (idle) is the common rule 7: see `evaluateActivity`.
 */
import { EMPTY_BASIS, needs, working, type ActivityBasis } from '../kit/activityBasis';
import { CODEX_PENDING_APPROVALS } from '../kit/bounds';
import type { Json } from '../kit/json';

/** Rule 3: quiet time with a pending call before it counts as an approval prompt (heuristic), in ms. */
export const APPROVAL_QUIET_MS = 10_000;
/** Event messages that are bookkeeping, not progress (rule 3). */
const BOOKKEEPING = new Set(['token_count']);

/** The activity facts of one rollout, in file order; reset with the parent state on a cold read. */
export interface CodexActivityState {
  turn: 'none' | 'running' | 'complete' | 'aborted';
  abortReason: string | null;
  turnAt: string | null;
  endedAt: string | null;
  turnMs: number | null;
  /** Calls awaiting their output, by call id, in call order. */
  pending: Map<string, { name: string; at: string | null }>;
  /** Time of the last line that shows progress (rule 3's clock). */
  progressAt: string | null;
  approvalPolicy: string | null;
}

/** A fresh activity state. */
export function createCodexActivity(): CodexActivityState {
  return { turn: 'none', abortReason: null, turnAt: null, endedAt: null, turnMs: null, pending: new Map(), progressAt: null, approvalPolicy: null };
}

/** Folds one parsed rollout line (its envelope type, payload and time) into the state. */
export function foldCodexActivity(state: CodexActivityState, type: unknown, payload: Json, at: string | null): void {
  if (type === 'turn_context') {
    if (typeof payload.approval_policy === 'string') state.approvalPolicy = payload.approval_policy;
    return;
  }
  if (type === 'event_msg') {
    if (BOOKKEEPING.has(String(payload.type))) return;
    if (at) state.progressAt = at;
    switch (payload.type) {
      case 'task_started':
        startTurn(state, at);
        return;
      case 'task_complete':
        endTurn(state, 'complete', null, at, payload.duration_ms);
        return;
      case 'turn_aborted':
        endTurn(state, 'aborted', typeof payload.reason === 'string' ? payload.reason : null, at, payload.duration_ms);
        return;
      default:
        return;
    }
  }
  if (type !== 'response_item') return;
  if (at) state.progressAt = at;
  // A rollout read from the middle of a turn (cold read of its tail) shows the turn by its items.
  if (state.turn === 'none') startTurn(state, at);
  const callId = typeof payload.call_id === 'string' ? payload.call_id : null;
  switch (payload.type) {
    case 'function_call':
    case 'custom_tool_call':
      if (callId && typeof payload.name === 'string') {
        state.pending.set(callId, { name: payload.name, at });
        if (state.pending.size > CODEX_PENDING_APPROVALS) state.pending.delete(state.pending.keys().next().value as string);
      }
      return;
    case 'function_call_output':
    case 'custom_tool_call_output':
      if (callId) state.pending.delete(callId);
      return;
    default:
      return;
  }
}

function startTurn(state: CodexActivityState, at: string | null): void {
  state.turn = 'running';
  state.turnAt = at;
  state.abortReason = null;
  state.endedAt = null;
  state.pending.clear();
}

function endTurn(state: CodexActivityState, turn: 'complete' | 'aborted', reason: string | null, at: string | null, durationMs: unknown): void {
  state.turn = turn;
  state.abortReason = reason;
  state.endedAt = at;
  state.pending.clear();
  const start = state.turnAt ? Date.parse(state.turnAt) : Number.NaN;
  const end = at ? Date.parse(at) : Number.NaN;
  if (typeof durationMs === 'number' && Number.isFinite(durationMs)) state.turnMs = durationMs;
  else state.turnMs = Number.isNaN(start) || Number.isNaN(end) ? null : Math.max(0, end - start);
}

/** The basis under rules 1–3. */
export function codexActivityBasis(state: CodexActivityState): ActivityBasis {
  switch (state.turn) {
    case 'none':
      return EMPTY_BASIS;
    case 'complete':
      return { current: needs('turn-done', true, state.endedAt), turnMs: state.turnMs };
    case 'aborted':
      return { current: needs(state.abortReason === 'interrupted' ? 'interrupted' : 'error', true, state.endedAt) };
    case 'running':
      break;
    default:
      return state.turn satisfies never;
  }
  const pending = [...state.pending.values()];
  const question = pending.find((call) => call.name === 'request_user_input');
  if (question) return { current: needs('question', true, question.at, question.name) };
  const call = pending[0];
  const current = working(state.turnAt, call?.name);
  if (call && state.approvalPolicy !== 'never') {
    const quietFrom = Date.parse(state.progressAt ?? call.at ?? '');
    if (!Number.isNaN(quietFrom)) return { current, later: { atMs: quietFrom + APPROVAL_QUIET_MS, activity: needs('approval', false, call.at, call.name) } };
  }
  return { current };
}
