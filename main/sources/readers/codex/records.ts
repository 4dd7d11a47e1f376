/**
 * The parent's own records about its children, reduced in file order (pure). A record is keyed by the reference
 * it uses (a thread id or an agent path); the projection later matches references to discovered children.
 */
import type { Outcome } from '../../../../shared/schemas';
import { createCodexActivity, foldCodexActivity, type CodexActivityState } from './activity';
import { CODEX_PENDING_CALLS } from '../kit/bounds';
import { createCodexUsage, foldCodexUsage, type CodexUsageFold } from './usageFold';
import { asObject, parseJson, type Json } from '../kit/json';
import { createCensus, noteFields, noteKind, noteVersion, type RecordCensus } from '../kit/census';
import { CODEX_KNOWN, envelopeKind } from './known';

/** What one parent record says about a child. */
export interface ChildRecord {
  /** Order in the file (the latest record about a child wins). */
  seq: number;
  /** The parent line's timestamp (ISO), used as `endedAt` when the record ends the child. */
  at: string;
  state: 'running' | 'ended';
  outcome?: Outcome;
  /** True for a successful followup/send_input/resume: clears an ending but is not an explicit status. */
  reopen: boolean;
}

/** Reducer state for one parent rollout, reset on a cold read. */
export interface ParentState {
  seq: number;
  /** Multi-agent calls awaiting their output, by call id (bounded). */
  calls: Map<string, { name: string; args: Record<string, unknown> }>;
  /** Latest record per normalised reference. */
  records: Map<string, ChildRecord>;
  /**
   * Rule 5b: the children the parent waited on (named in a `wait`/`wait_agent` call), by normalised reference. Codex
   * spawns every child without blocking; a wait is the only record that tells the parent held for it (foreground).
   */
  waited: Set<string>;
  /** Lines that were not JSON (skipped and counted). */
  malformed: number;
  /** The activity projection, folded from the same lines (a second output of the same pass). */
  activity: CodexActivityState;
  /** Token usage, folded from the same lines (issue 26, rules X1–X5 of ../../usage/codexUsage.ts). */
  usage: CodexUsageFold;
  /** The record census of the lines read (issue 29): unknown kinds and fields by name, the `cli_version` stated. */
  census: RecordCensus;
}


const TRACKED_TOOLS = new Set(['wait', 'wait_agent', 'close_agent', 'list_agents', 'followup_task', 'send_input', 'resume_agent']);
const REOPEN_TOOLS = new Set(['followup_task', 'send_input', 'resume_agent']);
const THREAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NOTIFICATION = /<subagent_notification>([\s\S]*?)<\/subagent_notification>/;

/** A fresh reducer state. */
export function createParentState(): ParentState {
  return { seq: 0, calls: new Map(), records: new Map(), waited: new Set(), malformed: 0, activity: createCodexActivity(), usage: createCodexUsage(), census: createCensus() };
}

/** Normalises a child reference: thread ids lower-cased, paths absolute (`changelog` names `/root/changelog`). */
export function normaliseReference(reference: string): string | null {
  const trimmed = reference.trim();
  if (trimmed.length === 0) return null;
  if (THREAD_ID.test(trimmed)) return trimmed.toLowerCase();
  const path = trimmed.startsWith('/') ? trimmed : `/root/${trimmed}`;
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** Maps an AgentStatus JSON value to running / ended with its outcome; null when it is not a known status. */
export function readAgentStatus(status: unknown): { state: 'running' | 'ended'; outcome?: Outcome } | null {
  if (typeof status === 'string') {
    switch (status) {
      case 'running':
      case 'pending_init':
        return { state: 'running' };
      case 'interrupted':
        return { state: 'ended', outcome: 'interrupted' };
      case 'shutdown':
        return { state: 'ended', outcome: 'stopped' };
      case 'not_found':
        return { state: 'ended', outcome: 'unknown' };
      default:
        return null;
    }
  }
  const object = asObject(status);
  if (!object) return null;
  if ('completed' in object) return { state: 'ended', outcome: 'completed' };
  if ('errored' in object) return { state: 'ended', outcome: 'failed' };
  return null;
}

/**
 * Rule 5 (parent records settle children): feeds one parent line into the state (mutates it; pure apart from that).
 * Bad JSON is counted, never thrown.
 */
export function reduceParentLine(state: ParentState, line: string): void {
  if (line.trim().length === 0) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    state.malformed += 1;
    return;
  }
  state.seq += 1;
  const envelope = asObject(parsed);
  const payload = asObject(envelope?.payload);
  const at = typeof envelope?.timestamp === 'string' ? envelope.timestamp : null;
  if (envelope) countEnvelope(state.census, envelope, payload);
  if (envelope && payload) {
    foldCodexActivity(state.activity, envelope.type, payload, at);
    foldCodexUsage(state.usage, envelope.type, payload, at);
  }
  if (!envelope || envelope.type !== 'response_item' || !payload) return;
  switch (payload.type) {
    case 'function_call':
      rememberCall(state, payload);
      return;
    case 'function_call_output':
      if (at) settleFromOutput(state, payload, at);
      return;
    case 'message':
      if (at) settleFromMessage(state, payload, at);
      return;
    default:
      return;
  }
}

function rememberCall(state: ParentState, payload: Json): void {
  const name = typeof payload.name === 'string' ? payload.name : '';
  const callId = typeof payload.call_id === 'string' ? payload.call_id : '';
  if (!TRACKED_TOOLS.has(name) || !callId) return;
  const args = typeof payload.arguments === 'string' ? (asObject(parseJson(payload.arguments)) ?? {}) : (asObject(payload.arguments) ?? {});
  state.calls.set(callId, { name, args });
  if (name === 'wait' || name === 'wait_agent') noteWaited(state, args);
  if (state.calls.size > CODEX_PENDING_CALLS) {
    const oldest = state.calls.keys().next().value;
    if (oldest !== undefined) state.calls.delete(oldest);
  }
}

/** Rule 5 from a call's output (status maps, close, list); rule 6 (reopening) for followups that succeeded. */
function settleFromOutput(state: ParentState, payload: Json, at: string): void {
  const callId = typeof payload.call_id === 'string' ? payload.call_id : '';
  const call = state.calls.get(callId);
  if (!call) return;
  state.calls.delete(callId);
  const output = readOutput(payload.output);
  if (output.error) return;
  const body = asObject(parseJson(output.text));
  switch (call.name) {
    case 'wait':
    case 'wait_agent': {
      // A v2 acknowledgement ({message, timed_out}) has no status map and names no child.
      const statuses = asObject(body?.status);
      for (const [key, value] of Object.entries(statuses ?? {})) {
        const status = readAgentStatus(value);
        if (status) record(state, key, at, status.state, status.outcome, false);
      }
      return;
    }
    case 'close_agent': {
      const target = targetOf(call.args);
      if (target && body) record(state, target, at, 'ended', 'stopped', false);
      return;
    }
    case 'list_agents': {
      const agents = Array.isArray(body?.agents) ? body.agents : [];
      for (const agent of agents) {
        const entry = asObject(agent);
        const status = readAgentStatus(entry?.agent_status);
        if (entry && typeof entry.agent_name === 'string' && status) record(state, entry.agent_name, at, status.state, status.outcome, false);
      }
      return;
    }
    default: {
      // A successful reopening call: an empty output (v2) or a JSON object (v1); errors are plain text.
      const target = targetOf(call.args);
      if (REOPEN_TOOLS.has(call.name) && target && (output.text.trim() === '' || body)) record(state, target, at, 'running', undefined, true);
    }
  }
}

/** Rule 5 from a v1 notification or a v2 envelope. */
function settleFromMessage(state: ParentState, payload: Json, at: string): void {
  const content = Array.isArray(payload.content) ? payload.content : [];
  for (const item of content) {
    const text = asObject(item)?.text;
    if (typeof text !== 'string') continue;
    // v1: the notification is the message text; v2: it is the `content` of an inter-agent envelope.
    const envelope = text.trimStart().startsWith('{') ? asObject(parseJson(text)) : null;
    const carried = envelope && typeof envelope.content === 'string' ? envelope.content : text;
    const match = NOTIFICATION.exec(carried);
    const body = match ? asObject(parseJson(match[1].trim())) : null;
    const status = readAgentStatus(body?.status);
    if (body && typeof body.agent_path === 'string' && status) record(state, body.agent_path, at, status.state, status.outcome, false);
  }
}

/** Rule 5b: notes the children a wait names (`targets`, before 2026-03-20 `ids`, before that `id`), bounded. */
function noteWaited(state: ParentState, args: Record<string, unknown>): void {
  const named = [args.targets, args.ids].flatMap((list) => (Array.isArray(list) ? list : [])).concat(args.id === undefined ? [] : [args.id]);
  for (const reference of named) {
    const key = typeof reference === 'string' ? normaliseReference(reference) : null;
    if (!key) continue;
    state.waited.delete(key);
    state.waited.add(key);
    if (state.waited.size > CODEX_PENDING_CALLS) {
      const oldest = state.waited.values().next().value;
      if (oldest !== undefined) state.waited.delete(oldest);
    }
  }
}

function record(state: ParentState, reference: string, at: string, childState: 'running' | 'ended', outcome: Outcome | undefined, reopen: boolean): void {
  const key = normaliseReference(reference);
  if (!key) return;
  state.records.set(key, { seq: state.seq, at, state: childState, outcome, reopen });
}

function targetOf(args: Record<string, unknown>): string | null {
  for (const key of ['target', 'id']) {
    const value = args[key];
    if (typeof value === 'string' && value.length > 0) return value;
  }
  return null;
}

/** Reads a function output: a string, content items, or an older `{content, success}` object. */
function readOutput(output: unknown): { text: string; error: boolean } {
  if (typeof output === 'string') return { text: output, error: false };
  if (Array.isArray(output)) {
    const text = output.map((item) => asObject(item)?.text).filter((part): part is string => typeof part === 'string').join('');
    return { text, error: false };
  }
  const object = asObject(output);
  if (object && typeof object.content === 'string') return { text: object.content, error: object.success === false };
  return { text: '', error: true };
}


/** The census of one rollout line: the header's `cli_version`, the line's kind and its unknown envelope fields. */
function countEnvelope(census: RecordCensus, envelope: Json, payload: Json | null): void {
  if (envelope.type === 'session_meta' && payload) noteVersion(census, payload.cli_version);
  noteKind(census, CODEX_KNOWN, envelopeKind(envelope.type, payload?.type));
  noteFields(census, CODEX_KNOWN, envelope);
}
