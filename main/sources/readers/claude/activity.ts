/**
 * The Claude Code activity projection: a second output of the same fold as the subagent summary. `foldActivity`
 * takes each main-thread fact in file order; `claudeActivityBasis` applies the numbered rules. No I/O.
 *
 * Rule 1 (turn-done): a `turn_duration`/`stop_hook_summary` line after the last assistant line, or
 *   `stop_reason: "end_turn"`, is certain; a last assistant line of text/thinking only, with nothing after it for
 *   5 s, is turn-done but not certain (one line is written per block, so a tool_use may still follow).
 * Rule 2 (question / plan): a pending AskUserQuestion is a question, a pending ExitPlanMode a plan; both certain.
 * Rule 3 (interrupted): a `[Request interrupted by user…]` user line as the last event; certain.
 * Rule 4 (error): an API error message (`isApiErrorMessage`) as the last event; certain.
 * Rule 5 (approval): another pending tool (not Task/Agent) with no later main-thread line for 10 s looks like a
 *   permission prompt — not certain (a long Bash looks the same) — unless the latest permission mode is
 *   `bypassPermissions`, or `acceptEdits` for an edit tool: then it stays working.
 * Rule 6 (working): any other turn in progress is working, labelled with the pending tool.
 * Rule 7 (idle) is common to every harness: see `evaluateActivity`.
 */
import { EMPTY_BASIS, needs, working, type ActivityBasis } from '../kit/activityBasis';
import type { ClaudeActivityFact, ToolCallFact } from './activityFacts';

/** Rule 1: quiet time after a text-only assistant line before the turn counts as done (heuristic), in ms. */
export const TURN_DONE_QUIET_MS = 5_000;
/** Rule 5: quiet time with a pending tool before it counts as a permission prompt (heuristic), in ms. */
export const APPROVAL_QUIET_MS = 10_000;
/** Spawn tools: their pending calls are running subagents (working), never approvals. */
const SPAWN_TOOLS = new Set(['Agent', 'Task']);
/** Rule 5: tools `acceptEdits` lets through without asking. */
const EDIT_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit']);

type LastEvent = 'prompt' | 'results' | 'text' | 'tools' | 'end' | 'interrupt' | 'error';

/** Everything the activity rules need, folded from the journal in file order (reset on a cold read). */
export interface ClaudeActivityState {
  last: LastEvent | null;
  /** Time of the last main-thread event (any kind but bookkeeping). */
  lastAt: string | null;
  /** Time of the last main-thread assistant line. */
  speechAt: string | null;
  /** Time the current (or last) turn began: the owner's prompt, or the first event read. */
  turnAt: string | null;
  /** Time the last turn ended by a record (rule 1), with how long it ran. */
  endedAt: string | null;
  turnMs: number | null;
  /** Main-thread tool calls awaiting their result, in call order. */
  pending: Map<string, ToolCallFact>;
  permissionMode: string | null;
}

/** A fresh activity state. */
export function createActivityState(): ClaudeActivityState {
  return { last: null, lastAt: null, speechAt: null, turnAt: null, endedAt: null, turnMs: null, pending: new Map(), permissionMode: null };
}

/** Folds one fact into the state (mutates it). */
export function foldActivity(state: ClaudeActivityState, fact: ClaudeActivityFact): void {
  if (fact.kind === 'mode') {
    state.permissionMode = fact.permissionMode;
    return;
  }
  if (fact.at !== null) state.lastAt = fact.at;
  if (state.turnAt === null) state.turnAt = fact.at;
  switch (fact.kind) {
    case 'speech':
      state.speechAt = fact.at ?? state.speechAt;
      if (fact.apiError) {
        state.last = 'error';
        return;
      }
      for (const tool of fact.tools) state.pending.set(tool.id, tool);
      if (fact.tools.length > 0) state.last = 'tools';
      else if (fact.endTurn) endTurn(state, fact.at);
      else if (fact.text) state.last = 'text';
      return;
    case 'prompt':
      if (fact.permissionMode) state.permissionMode = fact.permissionMode;
      state.pending.clear();
      state.turnAt = fact.at;
      state.endedAt = null;
      state.last = 'prompt';
      return;
    case 'results':
      if (fact.permissionMode) state.permissionMode = fact.permissionMode;
      for (const id of fact.ids) state.pending.delete(id);
      state.last = 'results';
      return;
    case 'interrupt':
      state.pending.clear();
      state.last = 'interrupt';
      return;
    case 'turn-end':
      // Rule 1: only a turn that has spoken ends here (a summary line right after a prompt says nothing).
      if (state.last === 'text' || state.last === 'tools' || state.last === 'results') endTurn(state, state.speechAt ?? fact.at);
      return;
    case 'local':
      // A local command (/model, /cost…) answers at once; the session waits for the owner again.
      endTurn(state, fact.at);
      return;
    case 'progress':
      // A progress line for a pending tool is later main-thread output (rule 5's clock), nothing more.
      return;
    default:
      fact satisfies never;
  }
}

function endTurn(state: ClaudeActivityState, at: string | null): void {
  state.pending.clear();
  state.last = 'end';
  state.endedAt = at;
  const start = state.turnAt ? Date.parse(state.turnAt) : Number.NaN;
  const end = at ? Date.parse(at) : Number.NaN;
  state.turnMs = Number.isNaN(start) || Number.isNaN(end) ? null : Math.max(0, end - start);
}

function msOf(at: string | null): number {
  const ms = at ? Date.parse(at) : Number.NaN;
  return Number.isNaN(ms) ? 0 : ms;
}

/** The basis under rules 1–6; `runningForeground` is how many foreground subagent calls still run. */
export function claudeActivityBasis(state: ClaudeActivityState, runningForeground = 0): ActivityBasis {
  switch (state.last) {
    case null:
      return EMPTY_BASIS;
    case 'error':
      return { current: needs('error', true, state.lastAt) };
    case 'interrupt':
      return { current: needs('interrupted', true, state.lastAt) };
    case 'end':
      return { current: needs('turn-done', true, state.endedAt), turnMs: state.turnMs };
    default:
      break;
  }
  const pending = [...state.pending.values()];
  const asking = pending.find((tool) => tool.name === 'AskUserQuestion' || tool.name === 'ExitPlanMode');
  if (asking) return { current: needs(asking.name === 'AskUserQuestion' ? 'question' : 'plan', true, asking.at, asking.name) };
  const tool = pending.find((call) => !SPAWN_TOOLS.has(call.name));
  const label = tool?.label ?? pending[0]?.label ?? null;
  const current = working(state.turnAt, label);
  if (tool && !allowedWithoutAsking(state.permissionMode, tool.name)) {
    return { current, later: { atMs: msOf(state.lastAt) + APPROVAL_QUIET_MS, activity: needs('approval', false, tool.at, tool.label) } };
  }
  if (state.last === 'text' && pending.length === 0 && runningForeground === 0) {
    const turnMs = state.turnAt && state.speechAt ? Math.max(0, msOf(state.speechAt) - msOf(state.turnAt)) : null;
    return { current, later: { atMs: msOf(state.lastAt) + TURN_DONE_QUIET_MS, activity: needs('turn-done', false, state.speechAt) }, turnMs };
  }
  return { current };
}

function allowedWithoutAsking(mode: string | null, tool: string): boolean {
  return mode === 'bypassPermissions' || (mode === 'acceptEdits' && EDIT_TOOLS.has(tool));
}
