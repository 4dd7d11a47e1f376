/**
 * Pure projection of a Codex seat: discovered children + the parent's records + file times → subagent entries.
 */
import type { SubagentEntry, SubagentSummary } from '../../../../shared/schemas';
import { childLabel, type CodexHeader } from './header';
import { normaliseReference, type ChildRecord } from './records';
import { RECENT_LIMIT } from '../kit/bounds';

/** Milliseconds without a write after which a child nobody reported on counts as done (outcome `idle`). */
export const IDLE_AFTER_MS = 5 * 60 * 1000;


/** What the reader knows about one discovered child file. */
export interface ChildFacts {
  header: CodexHeader;
  path: string;
  mtimeMs: number;
  size: number;
  /** Time (ms) of the newest `task_started` in the child's own rollout, when it was looked for. */
  latestTaskStartedMs: number | null;
}

/** The latest parent record naming this child by thread id or agent path. */
export function latestRecord(header: CodexHeader, records: Map<string, ChildRecord>): ChildRecord | null {
  let best: ChildRecord | null = null;
  for (const reference of [header.id, header.agentPath]) {
    const key = reference ? normaliseReference(reference) : null;
    const found = key ? records.get(key) : undefined;
    if (found && (!best || found.seq > best.seq)) best = found;
  }
  return best;
}

/** True when the child's state depends on its own task_started lines (ended by a record, written since). */
export function needsTaskScan(child: Omit<ChildFacts, 'latestTaskStartedMs'>, records: Map<string, ChildRecord>): boolean {
  const record = latestRecord(child.header, records);
  if (!record || record.state !== 'ended') return false;
  const endedMs = Date.parse(record.at);
  return Number.isFinite(endedMs) && child.mtimeMs > endedMs;
}

/**
 * One child's entry under rules 5 (settlement), 5b (foreground when the parent waited on it; otherwise not known, as
 * Codex records no such mode), 6 (reopening) and 7 (idle children).
 */
export function childEntry(child: ChildFacts, records: Map<string, ChildRecord>, nowMs: number, waited: ReadonlySet<string> = new Set()): SubagentEntry {
  const { header } = child;
  const waitedOn = [header.id, header.agentPath].some((reference) => {
    const key = reference ? normaliseReference(reference) : null;
    return key !== null && waited.has(key);
  });
  const base = {
    nativeId: header.id,
    label: childLabel(header),
    kind: header.role,
    background: waitedOn ? false : null,
    startedAt: header.timestamp ?? new Date(child.mtimeMs).toISOString(),
    replayable: true,
  };
  const record = latestRecord(header, records);
  let activeSinceMs = child.mtimeMs;
  if (record) {
    const recordMs = Date.parse(record.at);
    if (record.state === 'ended') {
      const reopenedByChild = child.latestTaskStartedMs !== null && child.latestTaskStartedMs > recordMs;
      if (!reopenedByChild) return { ...base, state: 'ended', outcome: record.outcome ?? 'unknown', endedAt: record.at };
    } else if (!record.reopen) {
      // An explicit running status from the parent wins over idleness.
      return { ...base, state: 'running' };
    } else if (Number.isFinite(recordMs)) {
      activeSinceMs = Math.max(activeSinceMs, recordMs);
    }
  }
  if (nowMs - activeSinceMs >= IDLE_AFTER_MS) {
    return { ...base, state: 'ended', outcome: 'idle', endedAt: new Date(activeSinceMs + IDLE_AFTER_MS).toISOString(), endedAtEstimated: true };
  }
  return { ...base, state: 'running' };
}

/** Rule 8 (recent and running): every running kept child counted, the 8 newest by `startedAt` listed. */
export function summarise(entries: SubagentEntry[]): SubagentSummary {
  const running = entries.filter((entry) => entry.state === 'running').length;
  const recent = [...entries].sort((left, right) => Date.parse(right.startedAt) - Date.parse(left.startedAt)).slice(0, RECENT_LIMIT);
  return { running, recent };
}
