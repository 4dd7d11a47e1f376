/**
 * Rule 12 of RULES.md, pure: which subagent files on disk the tray lists as "earlier" when the cold read started
 * inside the session. They are ended (the journal that could say otherwise lies before the window), their times
 * come from the files, their labels from the sidecar or the subagent type, never from the prompt.
 */
import type { SubagentEntry } from '../../../../shared/schemas';
import { childNativeId, startedBefore, type ChildFile } from './childFiles';
import type { CallRecord } from './projectionState';
import { EARLIER_LABEL_BYTES, EARLIER_LIMIT } from '../kit/bounds';
import { capText } from '../kit/text';

/** The label of an earlier subagent whose sidecar names neither a description nor a type. */
export const EARLIER_LABEL = 'earlier subagent';

/**
 * The earlier entries, newest first, at most 64: files started before the window's first timestamp (`before`)
 * that no call of `recent` already names (by agent id or by the sidecar's call id).
 */
export function earlierEntries(files: readonly ChildFile[], before: string | null, recent: readonly CallRecord[]): SubagentEntry[] {
  const agentIds = new Set(recent.flatMap((call) => (call.agentId ? [call.agentId] : [])));
  const callIds = new Set(recent.map((call) => call.nativeId));
  const entries: SubagentEntry[] = [];
  for (const file of files) {
    if (entries.length >= EARLIER_LIMIT) break;
    if (!startedBefore(file.startedAt, before)) continue;
    if (agentIds.has(file.agentId) || (file.toolUseId !== null && callIds.has(file.toolUseId))) continue;
    entries.push(earlierEntry(file));
  }
  return entries;
}

function earlierEntry(file: ChildFile): SubagentEntry {
  const endedMs = Math.max(file.mtimeMs, Date.parse(file.startedAt) || 0);
  return {
    nativeId: childNativeId(file),
    label: cap(file.description ?? file.agentType ?? EARLIER_LABEL),
    kind: file.agentType,
    background: false,
    state: 'ended',
    outcome: 'unknown',
    startedAt: file.startedAt,
    endedAt: new Date(endedMs).toISOString(),
    replayable: true,
  };
}

function cap(label: string): string {
  return capText(label.replace(/\s+/g, ' '), EARLIER_LABEL_BYTES);
}
