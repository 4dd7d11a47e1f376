/**
 * The Claude subagent projection: folds parsed journal events into per-call records (rules 2–7, 11, 13 of
 * RULES.md) and summarises them. No I/O. The state is mutated in place by `applyEvent` because a seat folds many thousands of lines per
 * refresh; it is owned by one seat and reset on every cold read.
 */
import type { Outcome, SubagentEntry, SubagentSummary } from '../../../../shared/schemas';
import type { ActivityBasis } from '../kit/activityBasis';
import { claudeActivityBasis, createActivityState, foldActivity } from './activity';
import { isPlainToken } from './locate';
import { parseLine, type ClaudeEvent, type TaskNotification } from './parseLine';
import { TRAY_NOTES, type Unreplayable } from './reasons';
import type { CallRecord, ClaudeProjectionState } from './projectionState';
import { claimSidechain, dropUnclaimableRoots, inlineReplayable, noteRoot, sharedPrompts } from './sidechains';
import { CLAUDE_PRUNE_AT, RECENT_LIMIT } from '../kit/bounds';

const EPOCH = '1970-01-01T00:00:00.000Z';

/** A fresh projection state (for a seat's first read and every cold read). */
export function createProjectionState(): ClaudeProjectionState {
  return {
    calls: new Map(), byAgentId: new Map(), running: new Set(), sequence: 0, skippedLines: 0, sessionId: null, lastAt: null,
    activity: createActivityState(), firstAt: null, roots: [],
  };
}

/** Folds one event into the state; `offset` is where its line starts in the journal (null when unknown). */
export function applyEvent(state: ClaudeProjectionState, event: ClaudeEvent, offset: number | null = null): void {
  if (event.type === 'invalid') {
    state.skippedLines += 1;
    return;
  }
  if (event.type === 'mark') {
    foldActivity(state.activity, event.activity);
    return;
  }
  if (event.activity) foldActivity(state.activity, event.activity);
  const at = event.at ?? state.lastAt ?? EPOCH;
  if (event.at) state.lastAt = event.at;
  state.firstAt ??= event.at;
  switch (event.type) {
    case 'speech':
      if (state.sessionId === null && event.sessionId) state.sessionId = event.sessionId;
      interruptEarlierMessages(state, event.messageId, at);
      for (const call of event.calls) {
        if (state.calls.has(call.nativeId)) continue;
        state.sequence += 1;
        // Every field written out: one shape for every record, which the sort of rule 7 and the prune read often.
        state.calls.set(call.nativeId, {
          nativeId: call.nativeId,
          label: call.label,
          kind: call.kind,
          background: call.background,
          promptDigest: call.promptDigest,
          inline: call.inline,
          messageId: event.messageId,
          startedAt: at,
          startedMs: toMs(at),
          sequence: state.sequence,
          state: 'running',
          agentId: null,
          offset,
          sidechain: null,
          sidechainAmbiguous: false,
        });
        state.running.add(call.nativeId);
      }
      prune(state);
      return;
    case 'user':
      if (state.sessionId === null && event.sessionId) state.sessionId = event.sessionId;
      for (const result of event.results) applyResult(state, result, at, offset);
      for (const notification of event.notifications) applyNotification(state, notification, at);
      return;
    case 'delivery':
      for (const notification of event.notifications) applyNotification(state, notification, at);
      return;
    case 'progress':
      locateCall(state, event.toolUseId, event.agentId);
      return;
    case 'sidechain-root':
      if (offset !== null) noteRoot(state, event.digest, offset);
      return;
    default:
      event satisfies never;
  }
}

/** Rule 4: a new main-thread message ends every foreground call of an earlier message that has no result. */
function interruptEarlierMessages(state: ClaudeProjectionState, messageId: string | null, at: string): void {
  for (const id of state.running) {
    const call = state.calls.get(id);
    if (!call || call.background) continue;
    // Without message ids the lines cannot be grouped, so a later line counts as a new message.
    if (messageId !== null && call.messageId === messageId) continue;
    end(state, call, 'interrupted', at);
  }
}

/**
 * Rule 11: a recorded live locator (an `agent_progress` line, or a sidecar naming the call) gives a call without an
 * agent id its child's id. Ids that could not be a file name are not taken. True when the call changed.
 */
export function locateCall(state: ClaudeProjectionState, toolUseId: string, agentId: string): boolean {
  const call = state.calls.get(toolUseId);
  if (!call || call.agentId !== null || !isPlainToken(agentId)) return false;
  call.agentId = agentId;
  return true;
}

/** Rule 3 (and rule 5's `async_launched` exception); results for unseen or ended calls are ignored (rule 8). */
function applyResult(
  state: ClaudeProjectionState,
  result: { toolUseId: string; isError: boolean; status: string | null; agentId: string | null },
  at: string,
  offset: number | null,
): void {
  const call = state.calls.get(result.toolUseId);
  if (!call || call.state !== 'running') return;
  if (result.status === 'async_launched' && !result.isError) {
    call.background = true;
    if (result.agentId) {
      call.agentId = result.agentId;
      state.byAgentId.set(result.agentId, call.nativeId);
    }
    return;
  }
  if (result.status === 'completed' && result.agentId) call.agentId = result.agentId;
  end(state, call, result.isError ? 'failed' : 'completed', at);
  if (call.agentId === null && offset !== null) claimSidechain(state, call, offset);
  dropUnclaimableRoots(state);
}


/** Rule 5: the first delivery naming a running background call ends it; unknown ids are ignored. */
function applyNotification(state: ClaudeProjectionState, notification: TaskNotification, at: string): void {
  const byToolUse = notification.toolUseId ? state.calls.get(notification.toolUseId) : undefined;
  const byAgent = notification.taskId ? state.calls.get(state.byAgentId.get(notification.taskId) ?? '') : undefined;
  const call = byToolUse ?? byAgent;
  if (!call || call.state !== 'running' || !call.background) return;
  end(state, call, notificationOutcome(notification.status), at);
}

function notificationOutcome(status: string | null): Outcome {
  switch (status) {
    case 'completed':
      return 'completed';
    case 'failed':
      return 'failed';
    case 'killed':
      return 'stopped';
    default:
      return 'unknown';
  }
}

function end(state: ClaudeProjectionState, call: CallRecord, outcome: Outcome, at: string): void {
  call.state = 'ended';
  call.outcome = outcome;
  call.endedAt = at;
  state.running.delete(call.nativeId);
  if (call.agentId && state.byAgentId.get(call.agentId) === call.nativeId) state.byAgentId.delete(call.agentId);
}

/** Newest first: later `startedAt`, then later in the file (rule 7). */
function newerFirst(a: CallRecord, b: CallRecord): number {
  return b.startedMs - a.startedMs || b.sequence - a.sequence;
}

/**
 * Drops ended calls that can never reach `recent` again: new calls only push them further down, and an ended
 * call never changes. Running calls are always kept (they count towards `running`).
 */
function prune(state: ClaudeProjectionState): void {
  if (state.calls.size - state.running.size <= CLAUDE_PRUNE_AT) return;
  const keep = new Set([...state.calls.values()].sort(newerFirst).slice(0, RECENT_LIMIT).map((call) => call.nativeId));
  for (const [id, call] of state.calls) {
    if (call.state === 'ended' && !keep.has(id)) state.calls.delete(id);
  }
}

/** The seat's summary: every running call counted, the eight newest calls listed (rules 6–7). */
export function summarize(state: ClaudeProjectionState): SubagentSummary {
  const shared = sharedPrompts(state);
  const recent = recentCalls(state).map((call) => toEntry(call, shared));
  return { running: state.running.size, recent };
}

/** The eight calls `recent` lists, newest first (rule 7). */
export function recentCalls(state: ClaudeProjectionState): CallRecord[] {
  return [...state.calls.values()].sort(newerFirst).slice(0, RECENT_LIMIT);
}


/** The seat's activity basis (rules 1–6 of `activity.ts`), counting the foreground subagent calls still running. */
export function activityOf(state: ClaudeProjectionState): ActivityBasis {
  let foreground = 0;
  for (const id of state.running) if (state.calls.get(id)?.background === false) foreground += 1;
  return claudeActivityBasis(state.activity, foreground);
}

/**
 * A call as the snapshot carries it: `outcome` and `endedAt` only once ended, keys in contract order, and why it
 * cannot be replayed when it cannot (rules 11, 13, 14).
 */
export function toEntry(call: CallRecord, shared: ReadonlySet<string> = new Set()): SubagentEntry {
  const head = { nativeId: call.nativeId, label: call.label, kind: call.kind, background: call.background, state: call.state };
  const replayable = call.agentId !== null || inlineReplayable(call, shared);
  const note = replayable ? {} : { replayNote: TRAY_NOTES[unreplayable(call, shared)] };
  if (call.state === 'ended') {
    return { ...head, outcome: call.outcome ?? 'unknown', startedAt: call.startedAt, endedAt: call.endedAt ?? call.startedAt, replayable, ...note };
  }
  return { ...head, startedAt: call.startedAt, replayable, ...note };
}

/** Why a call with neither a located child nor a replayable sidechain has nothing to replay (rules 11, 13). */
export function unreplayable(call: CallRecord, shared: ReadonlySet<string>): Unreplayable {
  if (call.state === 'running') return call.inline ? 'inlineNotWritten' : 'notLocated';
  const sharedPrompt = call.promptDigest !== null && shared.has(call.promptDigest);
  if (call.sidechainAmbiguous || (sharedPrompt && (call.inline || call.sidechain !== null))) return 'inlineAmbiguous';
  return call.inline ? 'inlineMissing' : 'notRecorded';
}

function toMs(at: string): number {
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? 0 : ms;
}

/** Parses and folds a batch of lines (for tests and the benchmark). */
export function projectLines(lines: Iterable<string>, state = createProjectionState()): ClaudeProjectionState {
  let offset = 0;
  for (const line of lines) {
    const event = parseLine(line);
    if (event) applyEvent(state, event, offset);
    offset += Buffer.byteLength(line, 'utf8') + 1;
  }
  return state;
}
