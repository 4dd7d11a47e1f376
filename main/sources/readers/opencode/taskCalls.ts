/**
 * Pure rules: OpenCode part rows of a seat's session → task calls and background completions → the seat's
 * subagent summary. No I/O here; `store.ts` selects the rows within the bounds.
 */
import { safeIso } from '../kit/time';
import type { Outcome, SubagentEntry, SubagentSummary } from '../../../../shared/schemas';
import { OPENCODE_TASK_CALLS, RECENT_LIMIT } from '../kit/bounds';
import { asNumber, asObject, type Json } from '../kit/json';

/** One selected part row with its message's position, parsed `data` (undefined when the JSON was malformed). */
export interface PartRow {
  partId: string;
  messageId: string;
  /** The message's `time_created` (ms since epoch). */
  messageTime: number;
  /** The part's `time_created` (ms since epoch). */
  partTime: number;
  data: unknown;
}

/** A `task` tool call read from one part. */
export interface TaskCall {
  callId: string;
  label: string;
  kind: string | null;
  background: boolean;
  status: string;
  startedMs: number;
  endedMs: number | null;
  interrupted: boolean;
  /** The child session the call names (metadata or output), not yet checked to be a direct child. */
  childId: string | null;
  messageTime: number;
  messageId: string;
  partId: string;
}

/** A synthetic `<task id=… state=…>` envelope announcing that a background child ended. */
export interface Completion {
  childId: string;
  state: 'completed' | 'error' | 'cancelled';
  messageTime: number;
  messageId: string;
}


const SESSION_ID = 'ses_[A-Za-z0-9]+';
const ENVELOPE = new RegExp(`<task id="(${SESSION_ID})" state="(running|completed|error|cancelled)">`);
const OLDER_CHILD_REFERENCES = [new RegExp(`task_id: (${SESSION_ID})`), new RegExp(`session_id: (${SESSION_ID})`)];

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Rule 6 (children), pure: the child session a task part names — `metadata.sessionId`, else the id in an older output format. */
export function childReference(state: Json): string | null {
  const metadata = asObject(state.metadata);
  const fromMetadata = text(metadata?.sessionId);
  if (fromMetadata && new RegExp(`^${SESSION_ID}$`).test(fromMetadata)) return fromMetadata;
  const output = typeof state.output === 'string' ? state.output : '';
  const envelope = ENVELOPE.exec(output);
  if (envelope) return envelope[1];
  for (const pattern of OLDER_CHILD_REFERENCES) {
    const match = pattern.exec(output);
    if (match) return match[1];
  }
  return null;
}

function isBackground(state: Json): boolean {
  if (asObject(state.metadata)?.background === true) return true;
  const output = typeof state.output === 'string' ? state.output : '';
  const envelope = ENVELOPE.exec(output);
  if (envelope) return envelope[2] === 'running';
  return output.includes('(for polling this task with task_status)');
}

/** Rule 4 (task calls), pure: the call in a part row, `null` when the part is something else, `'malformed'` when unusable. */
export function readTaskCall(row: PartRow): TaskCall | null | 'malformed' {
  const data = asObject(row.data);
  if (row.data === undefined) return 'malformed';
  if (!data || data.type !== 'tool' || data.tool !== 'task') return null;
  const state = asObject(data.state);
  const callId = text(data.callID);
  if (!state || !callId) return 'malformed';
  const input = asObject(state.input) ?? {};
  const kind = text(input.subagent_type) ?? null;
  const description = text(input.description);
  const label = kind && description ? `${kind}: ${description}` : (description ?? kind ?? 'task');
  const time = asObject(state.time) ?? {};
  return {
    callId,
    label,
    kind,
    background: isBackground(state),
    status: typeof state.status === 'string' ? state.status : 'unknown',
    startedMs: asNumber(time.start) ?? row.partTime,
    endedMs: asNumber(time.end) ?? null,
    interrupted: asObject(state.metadata)?.interrupted === true,
    childId: childReference(state),
    messageTime: row.messageTime,
    messageId: row.messageId,
    partId: row.partId,
  };
}

/** Rule 5 (endings), pure: the background completion a synthetic text part announces, or null. */
export function readCompletion(row: PartRow): Completion | null {
  const data = asObject(row.data);
  if (!data || data.type !== 'text' || data.synthetic !== true || typeof data.text !== 'string') return null;
  const envelope = ENVELOPE.exec(data.text);
  if (!envelope || envelope[2] === 'running') return null;
  return {
    childId: envelope[1],
    state: envelope[2] as Completion['state'],
    messageTime: row.messageTime,
    messageId: row.messageId,
  };
}

function comparePosition(a: { messageTime: number; messageId: string }, b: { messageTime: number; messageId: string }) {
  if (a.messageTime !== b.messageTime) return a.messageTime - b.messageTime;
  return a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0;
}

/** Pure: splits rows (any order) into task calls and completions, oldest first, counting unusable rows. */
export function collectRows(rows: readonly PartRow[]): { calls: TaskCall[]; completions: Completion[]; malformed: number } {
  const calls: TaskCall[] = [];
  const completions: Completion[] = [];
  let malformed = 0;
  for (const row of rows) {
    const call = readTaskCall(row);
    if (call === 'malformed') malformed += 1;
    else if (call) calls.push(call);
    else {
      const completion = readCompletion(row);
      if (completion) completions.push(completion);
    }
  }
  const byPosition = (a: TaskCall, b: TaskCall) => comparePosition(a, b) || (a.partId < b.partId ? -1 : 1);
  calls.sort(byPosition);
  completions.sort(comparePosition);
  return { calls, completions, malformed };
}

const COMPLETION_OUTCOME: Record<Completion['state'], Outcome> = {
  completed: 'completed',
  error: 'failed',
  cancelled: 'stopped',
};

function iso(milliseconds: number): string {
  return safeIso(milliseconds) ?? new Date(0).toISOString();
}

/** Rule 5 (endings), pure: one call's entry, given the completions seen and whether its child is a direct child. */
export function entryOf(call: TaskCall, completions: readonly Completion[], replayable: boolean): SubagentEntry {
  const base = { nativeId: call.callId, label: call.label, kind: call.kind, background: call.background, replayable };
  const started = iso(call.startedMs);
  const ended = (outcome: Outcome, endedMs: number | null): SubagentEntry => ({
    ...base,
    state: 'ended',
    outcome,
    startedAt: started,
    endedAt: iso(endedMs ?? call.startedMs),
  });
  switch (call.status) {
    case 'pending':
    case 'running':
      return { ...base, state: 'running', startedAt: started };
    case 'error':
      return ended(call.interrupted ? 'interrupted' : 'failed', call.endedMs);
    case 'completed': {
      if (!call.background) return ended('completed', call.endedMs);
      // A background launch runs until a later parent message announces its child ended; no idleness guess.
      const completion = call.childId
        ? completions.find((candidate) => candidate.childId === call.childId && comparePosition(candidate, call) > 0)
        : undefined;
      if (!completion) return { ...base, state: 'running', startedAt: started };
      return ended(COMPLETION_OUTCOME[completion.state], completion.messageTime);
    }
    default:
      return ended('unknown', call.endedMs);
  }
}

/** Rule 7 (recent and running), pure: the seat's summary from its calls (oldest first), completions and direct children. */
export function summarize(
  calls: readonly TaskCall[],
  completions: readonly Completion[],
  directChildren: ReadonlySet<string>,
): SubagentSummary {
  // Issue 36: parts sharing one call id (a store without primary keys, a rewritten part) are one call — the latest
  // part counts — so the badge and the jobs board, keyed by call id, always agree.
  const byCall = new Map<string, TaskCall>();
  for (const call of calls) {
    byCall.delete(call.callId);
    byCall.set(call.callId, call);
  }
  const kept = [...byCall.values()].slice(-OPENCODE_TASK_CALLS);
  const entries = kept.map((call, index) => ({
    index,
    entry: entryOf(call, completions, call.childId !== null && directChildren.has(call.childId)),
  }));
  const running = entries.filter(({ entry }) => entry.state === 'running').length;
  const recent = entries
    .sort((a, b) => Date.parse(b.entry.startedAt) - Date.parse(a.entry.startedAt) || b.index - a.index)
    .slice(0, RECENT_LIMIT)
    .map(({ entry }) => entry);
  return { running, recent };
}
