/**
 * The OpenCode activity projection: pure rules over the newest message of a seat and its tool parts, read in the
 * same read-only connection as the subagent summary (see `selectActivityFacts` in store.ts).
 * Formats relied on (OpenCode 1.2 – 1.15, see ../shared/formats/opencode.md §4–6): message `data.role`,
 * `data.time.completed` (ms), `data.error{name}` (`MessageAbortedError` when the owner stopped it), `data.finish`
 * (`tool-calls` while the agent loop goes on), and tool parts `{type: "tool", tool, state{status}}`.
 *
 * Rule 1 (turn-done): the newest message is an assistant message with `time.completed` set, no `error`, and no
 *   tool part pending or running → turn-done, certain.
 * Rule 2 (error / interrupted): the same with an `error` → error, certain (`MessageAbortedError` → interrupted).
 * Rule 3 (working): a tool part `pending`/`running` → working, labelled with its tool; an unanswered user message,
 *   an assistant message still being written, or a step that ended in `tool-calls` → working.
 * Rule 4 (no approval state): the 1.x store keeps no pending permission requests or questions (OpenCode holds them
 *   in memory), so an OpenCode seat never shows approval or question — it shows working while it waits.
 * Rule 5 (idle) is the common rule 7: see `evaluateActivity`.
 */
import { safeIso } from '../kit/time';
import { EMPTY_BASIS, needs, working, type ActivityBasis } from '../kit/activityBasis';

/** The facts of a seat's newest message the rules need. */
export interface OpenCodeActivityFacts {
  /** The newest message (null when the session has none). */
  last: { role: string | null; createdMs: number; completedMs: number | null; errorName: string | null; finish: string | null } | null;
  /** Tool parts of the newest message, oldest first. */
  tools: Array<{ tool: string; status: string | null }>;
  /** When the newest user message was written (the turn's start), ms. */
  turnStartMs: number | null;
}

function iso(ms: number | null): string | null {
  return safeIso(ms);
}

/** The basis under rules 1–4. */
export function openCodeActivityBasis(facts: OpenCodeActivityFacts): ActivityBasis {
  const { last } = facts;
  if (!last) return EMPTY_BASIS;
  const turnAt = iso(facts.turnStartMs);
  const busy = facts.tools.find((part) => part.status === 'pending' || part.status === 'running');
  if (busy) return { current: working(turnAt, busy.tool) };
  if (last.role !== 'assistant' || last.completedMs === null) return { current: working(turnAt ?? iso(last.createdMs)) };
  const since = iso(last.completedMs);
  if (last.errorName !== null) return { current: needs(last.errorName === 'MessageAbortedError' ? 'interrupted' : 'error', true, since) };
  if (last.finish === 'tool-calls') return { current: working(turnAt) };
  const turnMs = facts.turnStartMs !== null ? Math.max(0, last.completedMs - facts.turnStartMs) : null;
  return { current: needs('turn-done', true, since), turnMs };
}
