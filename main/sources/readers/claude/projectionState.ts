/**
 * The shape of what one Claude seat folds from its journal: the per-call records and the projection state that
 * ./reducer writes and ./sidechains, the replay and the reader read. Types only.
 */
import type { Outcome } from '../../../../shared/schemas';
import type { ClaudeActivityState } from './activity';

/** A sidechain root seen while calls were running, waiting for its call's result (rule 13). */
export interface PendingRoot {
  digest: string;
  offset: number;
}

/** One subagent call as the journal has shown it so far. */
export interface CallRecord {
  nativeId: string;
  label: string;
  kind: string | null;
  background: boolean;
  /** The assistant message that holds the call; parallel calls share it (rule 4). */
  messageId: string | null;
  startedAt: string;
  startedMs: number;
  /** Position in the file, for ties on `startedAt` (rule 7). */
  sequence: number;
  state: 'running' | 'ended';
  outcome?: Outcome;
  endedAt?: string;
  /**
   * The child's agent id: `toolUseResult.agentId` of a `completed` or `async_launched` result (rule 10), else a
   * recorded live locator (rule 11).
   */
  agentId: string | null;
  /** Byte offset of the journal line holding the call (null when folded without offsets). */
  offset: number | null;
  /** Digest of the call's prompt (rule 13); never the text. */
  promptDigest: string | null;
  /** Written by a build that kept subagent conversations inline (rule 13). */
  inline: boolean;
  /** Where the call's inline sidechain lies in the journal: its root line and the call's result line (rule 13). */
  sidechain: { rootOffset: number; endOffset: number } | null;
  /** More than one sidechain root in the call's span carries its prompt (rule 13). */
  sidechainAmbiguous: boolean;
}


/** Everything one seat derived from its journal since the last cold read. */
export interface ClaudeProjectionState {
  calls: Map<string, CallRecord>;
  /** Running background calls by the agent id of their `async_launched` result (rule 5). */
  byAgentId: Map<string, string>;
  /** Ids of calls still running, for rule 4 without scanning every call. */
  running: Set<string>;
  sequence: number;
  /** Lines that were not JSON (rule 9). */
  skippedLines: number;
  /** The `sessionId` carried by the journal's own lines (names the child folder and checks child identity). */
  sessionId: string | null;
  /** Last timestamp seen, standing in for a line that lacks one. */
  lastAt: string | null;
  /** The activity projection, folded from the same events (a second output of the same pass). */
  activity: ClaudeActivityState;
  /** First timestamp of the read window: subagent files started before it are "earlier" (rule 12). */
  firstAt: string | null;
  /** Inline sidechain roots not yet claimed by a result, at most CLAUDE_PENDING_ROOTS (rule 13). */
  roots: PendingRoot[];
}
