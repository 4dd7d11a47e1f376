/**
 * Pure parsing of one Claude Code journal line into the few facts the subagent projection needs
 * (rules 1–5, 9, 11 and 13 of RULES.md). Unknown line types and fields yield null.
 */
import { createHash } from 'node:crypto';
import { activityFact, type ClaudeActivityFact } from './activityFacts';
import { asText, isObject, type Json } from '../kit/json';

/** A subagent call found on a main-thread assistant line (rules 1–2). */
export interface CallStart {
  nativeId: string;
  label: string;
  kind: string | null;
  /** True when the call asked to run in the background. */
  background: boolean;
  /**
   * SHA-256 of the call's `prompt`, kept only to find its inline sidechain (rule 13); the text itself is never kept.
   * Null when the call recorded no prompt, or when its line names a build that wrote subagents to files of their own
   * (2.0.24 on): such a call has no inline sidechain, so its prompt is not hashed (a cold read meets thousands).
   */
  promptDigest: string | null;
  /** True when the line was written by a build that kept subagents inline in the journal (before 2.0.24, rule 13). */
  inline: boolean;
}

/** A tool result on a user line (rule 3); `status` and `agentId` come from the line's `toolUseResult`. */
export interface ToolResult {
  toolUseId: string;
  isError: boolean;
  status: string | null;
  agentId: string | null;
}

/** A delivered `<task-notification>` (rule 5). */
export interface TaskNotification {
  taskId: string | null;
  toolUseId: string | null;
  status: string | null;
}

/**
 * The facts of one journal line. `invalid` is a line that is not JSON (counted, rule 9); `mark` is a line that
 * matters only to the activity projection. Every other event may carry the line's activity fact too.
 */
export type ClaudeEvent =
  | { type: 'invalid' }
  | { type: 'mark'; activity: ClaudeActivityFact }
  | { type: 'speech'; at: string | null; sessionId: string | null; messageId: string | null; calls: CallStart[]; activity?: ClaudeActivityFact | null }
  | { type: 'user'; at: string | null; sessionId: string | null; results: ToolResult[]; notifications: TaskNotification[]; activity?: ClaudeActivityFact | null }
  | { type: 'delivery'; at: string | null; notifications: TaskNotification[]; activity?: ClaudeActivityFact | null }
  /** An `agent_progress` line: the running call `toolUseId` has the child `agentId` (rule 11). */
  | { type: 'progress'; at: string | null; toolUseId: string; agentId: string; activity?: ClaudeActivityFact | null }
  /** The first line of an inline sidechain (1.0.x): its content's digest, to be compared with a call's (rule 13). */
  | { type: 'sidechain-root'; at: string | null; digest: string; activity?: ClaudeActivityFact | null };

type SubagentEvent = Extract<ClaudeEvent, { type: 'speech' | 'user' | 'delivery' | 'progress' | 'sidechain-root' }>;

/** Spawn tool names: `Task` was renamed `Agent` in 2.1.63 (rule 1). */
const SPAWN_TOOLS = new Set(['Agent', 'Task']);
const NOTIFICATION_OPEN = '<task-notification>';

/** The event of a line that is not a JSON object (rule 9). */
const INVALID: ClaudeEvent = Object.freeze({ type: 'invalid' });

/** Parses one line (without its newline) into an event, or null when the line says nothing about subagents. */
export function parseLine(line: string): ClaudeEvent | null {
  const record = parseRecord(line);
  return record === null ? null : eventOf(record);
}

/** The one parse of a line: its JSON object, `invalid` when it is not one (rule 9), null when it is blank. */
export function parseRecord(line: string): Json | 'invalid' | null {
  if (line.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'invalid';
  }
  return isObject(value) ? value : 'invalid';
}

/** The event of a parsed line (`invalid` for what `parseRecord` refused), or null when it says nothing. */
export function eventOf(record: Json | 'invalid'): ClaudeEvent | null {
  if (record === 'invalid') return INVALID;
  // The activity projection reads the same parsed object: one parse per line for both outputs.
  const activity = activityFact(record);
  const event = parseSubagentFacts(record);
  if (event) {
    if (activity) event.activity = activity;
    return event;
  }
  return activity ? { type: 'mark', activity } : null;
}

function parseSubagentFacts(value: Json): SubagentEvent | null {
  const at = asText(value.timestamp);
  const sessionId = asText(value.sessionId);
  switch (value.type) {
    case 'assistant':
      return value.isSidechain === true ? null : parseSpeech(value, at, sessionId);
    case 'user':
      return parseSidechainRoot(value, at) ?? parseUser(value, at, sessionId);
    case 'attachment':
      return parseAttachment(value, at);
    case 'progress':
      return parseProgress(value, at);
    default:
      // queue-operation lines echo notifications but are bookkeeping, not deliveries (rule 5).
      return null;
  }
}

function parseSpeech(value: Json, at: string | null, sessionId: string | null): SubagentEvent {
  const message = isObject(value.message) ? value.message : {};
  // Asked only once the line holds a spawn call: most assistant lines hold none.
  let era: BuildEra | null = null;
  const calls: CallStart[] = [];
  if (Array.isArray(message.content)) {
    for (const block of message.content) {
      if (!isObject(block) || block.type !== 'tool_use') continue;
      if (typeof block.name !== 'string' || !SPAWN_TOOLS.has(block.name)) continue;
      if (typeof block.id !== 'string' || block.id === '') continue;
      const input = isObject(block.input) ? block.input : {};
      const description = typeof input.description === 'string' ? input.description.trim() : '';
      const kind = typeof input.subagent_type === 'string' && input.subagent_type !== '' ? input.subagent_type : null;
      era ??= buildEra(value.version);
      calls.push({
        nativeId: block.id,
        label: description !== '' ? description : (kind ?? 'subagent'),
        kind,
        background: input.run_in_background === true,
        promptDigest: typeof input.prompt === 'string' && era !== 'files' ? digestOf(input.prompt) : null,
        inline: era === 'inline',
      });
    }
  }
  return { type: 'speech', at, sessionId, messageId: asText(message.id), calls };
}

function parseUser(value: Json, at: string | null, sessionId: string | null): SubagentEvent | null {
  const message = isObject(value.message) ? value.message : {};
  const content = message.content;
  const notifications: TaskNotification[] = [];
  const results: ToolResult[] = [];
  if (typeof content === 'string') {
    notifications.push(...findNotifications(content));
  } else if (Array.isArray(content)) {
    const resultBlocks: Json[] = [];
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') notifications.push(...findNotifications(block.text));
      if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') resultBlocks.push(block);
    }
    // `toolUseResult` belongs to the line, so it can only be attributed when the line holds a single result.
    const record = resultBlocks.length === 1 && isObject(value.toolUseResult) ? value.toolUseResult : null;
    for (const block of resultBlocks) {
      results.push({
        toolUseId: block.tool_use_id as string,
        isError: block.is_error === true,
        status: record ? asText(record.status) : null,
        agentId: record ? asText(record.agentId) : null,
      });
    }
  }
  if (results.length === 0 && notifications.length === 0) return null;
  return { type: 'user', at, sessionId, results, notifications };
}

/**
 * Rule 11: `progress` lines with `data.type: "agent_progress"` (2.0.x–2.1.7x) name the running call
 * (`parentToolUseID`) and its child's `agentId`. Only the two ids are taken; the mirrored message is ignored.
 */
function parseProgress(value: Json, at: string | null): SubagentEvent | null {
  if (value.isSidechain === true || typeof value.agentId === 'string') return null;
  const data = value.data;
  if (!isObject(data) || data.type !== 'agent_progress') return null;
  const toolUseId = asText(value.parentToolUseID);
  const agentId = asText(data.agentId);
  return toolUseId && agentId ? { type: 'progress', at, toolUseId, agentId } : null;
}

/**
 * Rule 13: an inline sidechain's root (1.0.x) is a user line with `isSidechain: true`, `parentUuid: null`, no
 * `agentId`, and the call's prompt as its string content. Only the content's digest leaves this function.
 */
function parseSidechainRoot(value: Json, at: string | null): SubagentEvent | null {
  if (value.isSidechain !== true || value.parentUuid !== null || 'agentId' in value) return null;
  const message = isObject(value.message) ? value.message : {};
  return typeof message.content === 'string' ? { type: 'sidechain-root', at, digest: digestOf(message.content) } : null;
}

/** The digest by which a prompt and a sidechain root are compared: equal digests mean equal texts. */
export function digestOf(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** How a line's build kept subagent conversations: inline in the parent journal, in files of their own, or not stated. */
type BuildEra = 'inline' | 'files' | 'unknown';

/** Builds before 2.0.24 wrote subagent conversations inline in the parent journal (format §2); later ones, in files. */
function buildEra(version: unknown): BuildEra {
  const match = typeof version === 'string' ? /^(\d+)\.(\d+)\.(\d+)/.exec(version) : null;
  if (!match) return 'unknown';
  const [major, minor, patch] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return major < 2 || (major === 2 && minor === 0 && patch < 24) ? 'inline' : 'files';
}

function parseAttachment(value: Json, at: string | null): SubagentEvent | null {
  const attachment = value.attachment;
  if (!isObject(attachment) || attachment.type !== 'queued_command') return null;
  const prompt = attachment.prompt;
  const notifications: TaskNotification[] = [];
  if (typeof prompt === 'string') notifications.push(...findNotifications(prompt));
  else if (Array.isArray(prompt)) {
    for (const block of prompt) {
      if (isObject(block) && typeof block.text === 'string') notifications.push(...findNotifications(block.text));
    }
  }
  return notifications.length === 0 ? null : { type: 'delivery', at, notifications };
}

/** Every `<task-notification>` block in a text, with its ids and status. */
export function findNotifications(text: string): TaskNotification[] {
  const found: TaskNotification[] = [];
  let from = text.indexOf(NOTIFICATION_OPEN);
  while (from !== -1) {
    const close = text.indexOf('</task-notification>', from);
    const body = text.slice(from + NOTIFICATION_OPEN.length, close === -1 ? text.length : close);
    found.push({ taskId: tagValue(body, 'task-id'), toolUseId: tagValue(body, 'tool-use-id'), status: tagValue(body, 'status') });
    if (close === -1) break;
    from = text.indexOf(NOTIFICATION_OPEN, close);
  }
  return found;
}

function tagValue(body: string, tag: string): string | null {
  const open = body.indexOf(`<${tag}>`);
  if (open === -1) return null;
  const start = open + tag.length + 2;
  const close = body.indexOf(`</${tag}>`, start);
  if (close === -1) return null;
  const value = body.slice(start, close).trim();
  return value === '' ? null : value;
}

