/**
 * Pure extraction of the activity facts of one parsed Claude Code journal line (main thread only; sidechain and
 * subagent lines never count). Called by `parseLine` on the object it already parsed, so nothing is read twice.
 * Formats relied on (Claude Code 1.0.108 – 2.1.114, see ../shared/formats/claude-code.md §3–4): `isSidechain`,
 * `agentId`, `isMeta`, `permissionMode` on user lines and `permission-mode` lines, `isApiErrorMessage`,
 * `message.stop_reason`, one content block per assistant line, `system` subtypes `turn_duration` and
 * `stop_hook_summary`, `progress` lines naming `parentToolUseID`.
 */
import { baseName, capLabel } from '../kit/activityBasis';
import { isObject, type Json } from '../kit/json';

/** A tool call of a main-thread assistant line, with its label (tool and target, never the input text). */
export interface ToolCallFact {
  id: string;
  name: string;
  label: string;
  at: string | null;
}

/** What one main-thread line says about the seat's activity. */
export type ClaudeActivityFact =
  | { kind: 'speech'; at: string | null; tools: ToolCallFact[]; text: boolean; endTurn: boolean; apiError: boolean }
  | { kind: 'prompt'; at: string | null; permissionMode: string | null }
  | { kind: 'results'; at: string | null; ids: string[]; permissionMode: string | null }
  | { kind: 'interrupt'; at: string | null; ids: string[] }
  | { kind: 'turn-end'; at: string | null }
  | { kind: 'local'; at: string | null }
  | { kind: 'mode'; permissionMode: string }
  | { kind: 'progress'; at: string | null; toolUseId: string };

const INTERRUPT_PREFIX = '[Request interrupted by user';
const LOCAL_COMMAND_TAGS = ['<local-command-stdout>', '<local-command-stderr>', '<local-command-caveat>'];
const FILE_TOOLS = new Set(['Read', 'Edit', 'MultiEdit', 'Write', 'NotebookEdit', 'NotebookRead']);

/** The activity fact of a parsed line, or null when the line says nothing about the main thread's activity. */
export function activityFact(value: Json): ClaudeActivityFact | null {
  if (value.isSidechain === true || typeof value.agentId === 'string') return null;
  const at = typeof value.timestamp === 'string' && value.timestamp !== '' ? value.timestamp : null;
  switch (value.type) {
    case 'assistant':
      return speechFact(value, at);
    case 'user':
      return userFact(value, at);
    case 'system':
      return value.subtype === 'turn_duration' || value.subtype === 'stop_hook_summary' ? { kind: 'turn-end', at } : null;
    case 'permission-mode':
      return typeof value.permissionMode === 'string' ? { kind: 'mode', permissionMode: value.permissionMode } : null;
    case 'progress':
      return typeof value.parentToolUseID === 'string' ? { kind: 'progress', at, toolUseId: value.parentToolUseID } : null;
    default:
      return null;
  }
}

function speechFact(value: Json, at: string | null): ClaudeActivityFact {
  const message = isObject(value.message) ? value.message : {};
  const tools: ToolCallFact[] = [];
  let text = false;
  if (Array.isArray(message.content)) {
    for (const block of message.content) {
      if (!isObject(block)) continue;
      if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') {
        tools.push({ id: block.id, name: block.name, label: toolLabel(block.name, isObject(block.input) ? block.input : {}), at });
      } else if (block.type === 'text' || block.type === 'thinking' || block.type === 'redacted_thinking') {
        text = true;
      }
    }
  } else if (typeof message.content === 'string') {
    text = true;
  }
  return { kind: 'speech', at, tools, text, endTurn: message.stop_reason === 'end_turn', apiError: value.isApiErrorMessage === true };
}

function userFact(value: Json, at: string | null): ClaudeActivityFact | null {
  if (value.isMeta === true || value.isCompactSummary === true) return null;
  const permissionMode = typeof value.permissionMode === 'string' ? value.permissionMode : null;
  const message = isObject(value.message) ? value.message : {};
  const texts: string[] = [];
  const ids: string[] = [];
  if (typeof message.content === 'string') texts.push(message.content);
  else if (Array.isArray(message.content)) {
    for (const block of message.content) {
      if (!isObject(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
      if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') ids.push(block.tool_use_id);
    }
  }
  if (texts.some((text) => text.trimStart().startsWith(INTERRUPT_PREFIX))) return { kind: 'interrupt', at, ids };
  if (ids.length > 0) return { kind: 'results', at, ids, permissionMode };
  if (texts.length === 0) return null;
  if (texts.every((text) => LOCAL_COMMAND_TAGS.some((tag) => text.trimStart().startsWith(tag)))) return { kind: 'local', at };
  return { kind: 'prompt', at, permissionMode };
}

/** "Bash · Run unit tests", "Edit · World.ts", "WebFetch · example.com", else the tool's name. */
export function toolLabel(name: string, input: Json): string {
  if (name === 'Bash' && typeof input.description === 'string' && input.description.trim() !== '') return capLabel(`Bash · ${input.description}`);
  if (FILE_TOOLS.has(name)) {
    const file = typeof input.file_path === 'string' ? input.file_path : typeof input.notebook_path === 'string' ? input.notebook_path : null;
    if (file) return capLabel(`${name} · ${baseName(file)}`);
  }
  if (name === 'WebFetch' && typeof input.url === 'string') {
    try {
      return capLabel(`WebFetch · ${new URL(input.url).host}`);
    } catch {
      return name;
    }
  }
  if ((name === 'Agent' || name === 'Task') && typeof input.description === 'string' && input.description.trim() !== '') {
    return capLabel(`${name} · ${input.description}`);
  }
  return capLabel(name);
}

