/**
 * Pure normalisation of child rollout lines into replay entries, with their text caps. Windows, pages and cursors
 * are the kit's pager (../kit/pager).
 */
import { compactJson } from '../kit/compactJson';
import type { ReplayEntry } from '../../../../shared/schemas';
import { withTargets } from '../toolTarget';
import { ENTRY_TEXT_BYTES, EXCERPT_BYTES, NOTE_BYTES, SUMMARY_BYTES } from '../kit/bounds';
import { capText, oneLine } from '../kit/text';
import { asObject, parseObject, type Json } from '../kit/json';


/** What a child line contributes: entries, and whether it is a `turn_context` (own activity starts there). */
export interface NormalisedLine {
  entries: ReplayEntry[];
  turnContext: boolean;
}

/** Context wrappers shown as notes, never as user speech, with the note they become. */
const WRAPPERS: Array<{ prefix: string; note: string }> = [
  { prefix: '<environment_context>', note: 'environment context' },
  { prefix: '<turn_aborted>', note: 'turn interrupted' },
  { prefix: '<subagent_notification>', note: 'subagent notification' },
  { prefix: '<user_instructions>', note: 'user instructions' },
  { prefix: '<user_shell_command>', note: 'user shell command' },
  { prefix: '# AGENTS.md instructions', note: 'AGENTS.md instructions' },
];

/** Normalises one child line; tool names come from `callNames` (call id → tool), which this fills. */
export function normaliseChildLine(line: string, callNames: Map<string, string>): NormalisedLine {
  const none: NormalisedLine = { entries: [], turnContext: false };
  const envelope = parseObject(line);
  if (!envelope) return none;
  if (envelope.type === 'turn_context') return { entries: [], turnContext: true };
  const at = typeof envelope.timestamp === 'string' ? envelope.timestamp : null;
  const payload = asObject(envelope.payload);
  if (envelope.type === 'compacted') return { entries: [{ at, role: 'note', text: 'conversation compacted' }], turnContext: false };
  if (envelope.type !== 'response_item' || !payload) return none;
  return { entries: responseItemEntries(payload, at, callNames), turnContext: false };
}

function responseItemEntries(payload: Json, at: string | null, callNames: Map<string, string>): ReplayEntry[] {
  switch (payload.type) {
    case 'message':
      return messageEntries(payload, at);
    case 'function_call':
    case 'custom_tool_call': {
      const tool = typeof payload.name === 'string' ? payload.name : 'tool';
      if (typeof payload.call_id === 'string') callNames.set(payload.call_id, tool);
      const input = payload.type === 'function_call' ? payload.arguments : payload.input;
      return [withTargets({ at, role: 'tool', tool, text: summariseInput(input) }, input)];
    }
    case 'local_shell_call': {
      const action = asObject(payload.action);
      const command = Array.isArray(action?.command) ? action.command.join(' ') : summariseInput(action);
      return [{ at, role: 'tool', tool: 'shell', text: oneLine(command, SUMMARY_BYTES) }];
    }
    case 'web_search_call':
      return [{ at, role: 'tool', tool: 'web_search', text: summariseInput(payload.action) }];
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const callId = typeof payload.call_id === 'string' ? payload.call_id : '';
      const tool = callNames.get(callId) ?? 'tool';
      return [{ at, role: 'tool', tool, text: capText(outputText(payload.output), EXCERPT_BYTES) }];
    }
    default:
      return []; // reasoning, snapshots and unknown items are not conversation
  }
}

function messageEntries(payload: Json, at: string | null): ReplayEntry[] {
  const role = payload.role;
  const texts = (Array.isArray(payload.content) ? payload.content : [])
    .map((item) => asObject(item)?.text)
    .filter((text): text is string => typeof text === 'string' && text.trim().length > 0);
  const entries: ReplayEntry[] = [];
  for (const text of texts) {
    const wrapper = wrapperNote(text);
    const mail = role === 'assistant' ? envelopeNote(text) : null;
    if (wrapper) entries.push({ at, role: 'note', text: wrapper });
    else if (mail) entries.push({ at, role: 'note', text: mail });
    else if (role === 'user') entries.push({ at, role: 'user', text: capText(text, ENTRY_TEXT_BYTES) });
    else if (role === 'assistant') entries.push({ at, role: 'assistant', text: capText(text, ENTRY_TEXT_BYTES) });
    // developer and system messages are instructions, not conversation
  }
  return entries;
}

/** The note for a context wrapper, or null when the text is not one. */
export function wrapperNote(text: string): string | null {
  const trimmed = text.trimStart();
  const wrapper = WRAPPERS.find((candidate) => trimmed.startsWith(candidate.prefix));
  return wrapper ? wrapper.note : null;
}

/** The note for an inter-agent envelope (a single text that parses as `{author, recipient, content, …}`). */
export function envelopeNote(text: string): string | null {
  if (!text.trimStart().startsWith('{')) return null;
  const envelope = parseObject(text);
  if (!envelope || typeof envelope.author !== 'string' || typeof envelope.recipient !== 'string' || typeof envelope.content !== 'string') return null;
  const content = wrapperNote(envelope.content) ?? envelope.content;
  return oneLine(`message from ${envelope.author}: ${content}`, NOTE_BYTES);
}

function summariseInput(input: unknown): string {
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      return oneLine(input, SUMMARY_BYTES);
    }
  }
  const object = asObject(value);
  for (const key of ['cmd', 'command', 'query', 'path', 'message']) {
    const field = object?.[key];
    if (typeof field === 'string') return oneLine(field, SUMMARY_BYTES);
    if (Array.isArray(field)) return oneLine(field.join(' '), SUMMARY_BYTES);
  }
  return oneLine(value === undefined ? '' : compactJson(value, SUMMARY_BYTES * 2), SUMMARY_BYTES);
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map((item) => asObject(item)?.text).filter((text) => typeof text === 'string').join('\n');
  const object = asObject(output);
  return object && typeof object.content === 'string' ? object.content : '';
}

