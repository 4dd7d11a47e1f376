/**
 * Rule 13 of RULES.md, pure: finding a Claude Code 1.0.x call's inline sidechain in the parent journal. Its root is a
 * user line with `isSidechain: true`, `parentUuid: null` and the call's prompt as content, written in one block just
 * before the call's result. Roots and prompts are compared by digest; no text is kept.
 */
import type { CallRecord, ClaudeProjectionState } from './projectionState';
import { CLAUDE_PENDING_ROOTS } from '../kit/bounds';

/** Remembers a root while a call that could claim it runs; roots seen while nothing runs can never be claimed. */
export function noteRoot(state: ClaudeProjectionState, digest: string, offset: number): void {
  if (state.running.size === 0) return;
  state.roots.push({ digest, offset });
  if (state.roots.length > CLAUDE_PENDING_ROOTS) state.roots.shift();
}

/**
 * Rule 13: a 1.0.x call's sidechain is written as one block just before its result, and its root's content is
 * exactly the call's prompt. The root is looked for only between the call and its result; two matches are ambiguous.
 */
export function claimSidechain(state: ClaudeProjectionState, call: CallRecord, resultOffset: number): void {
  if (call.promptDigest === null || call.offset === null) return;
  const start = call.offset;
  const matches = state.roots.filter((root) => root.offset > start && root.offset < resultOffset && root.digest === call.promptDigest);
  if (matches.length === 1) call.sidechain = { rootOffset: matches[0].offset, endOffset: resultOffset };
  else if (matches.length > 1) call.sidechainAmbiguous = true;
}

/** Roots before every running call's start can belong to no pending call. */
export function dropUnclaimableRoots(state: ClaudeProjectionState): void {
  if (state.roots.length === 0) return;
  let earliest = Infinity;
  for (const id of state.running) earliest = Math.min(earliest, state.calls.get(id)?.offset ?? Infinity);
  state.roots = earliest === Infinity ? [] : state.roots.filter((root) => root.offset > earliest);
}

/** Digests of prompts that more than one known call gave: their inline sidechains cannot be told apart (rule 13). */
export function sharedPrompts(state: ClaudeProjectionState): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const call of state.calls.values()) {
    if (call.promptDigest === null) continue;
    if (seen.has(call.promptDigest)) shared.add(call.promptDigest);
    seen.add(call.promptDigest);
  }
  return shared;
}

/** Whether an inline sidechain can be replayed for this call (rule 13): exactly one root, and an unshared prompt. */
export function inlineReplayable(call: CallRecord, shared: ReadonlySet<string>): boolean {
  return call.agentId === null && call.sidechain !== null && !call.sidechainAmbiguous && !(call.promptDigest !== null && shared.has(call.promptDigest));
}
