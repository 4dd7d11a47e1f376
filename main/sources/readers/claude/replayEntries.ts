/**
 * Pure parts of a subagent replay: turning child journal lines into short normalized entries and checking a child
 * line's identity. Windows, pages and cursors are the kit's pager (../kit/pager).
 */
import { compactJson } from '../kit/compactJson';
import type { ReplayEntry } from '../../../../shared/schemas';
import { withTargets } from '../toolTarget';
import { ENTRY_TEXT_BYTES, EXCERPT_BYTES, SUMMARY_BYTES } from '../kit/bounds';
import { capText, oneLine } from '../kit/text';
import { isObject, type Json } from '../kit/json';

/** Whether a child line belongs to the expected agent of the expected session (rule 10). */
export type IdentityVerdict = 'match' | 'mismatch' | 'silent';

/** Checks one parsed child line: message lines must carry both ids; any line carrying a different id fails. */
export function checkIdentity(line: Json, agentId: string, sessionId: string): IdentityVerdict {
  const hasAgent = 'agentId' in line;
  const hasSession = 'sessionId' in line;
  if ((hasAgent && line.agentId !== agentId) || (hasSession && line.sessionId !== sessionId)) return 'mismatch';
  if (line.type === 'user' || line.type === 'assistant') return hasAgent && hasSession ? 'match' : 'mismatch';
  return 'silent';
}

/**
 * The entries of one child line: user text, assistant text, tool calls (name + one-line input summary) and tool
 * results (short excerpt). `toolNames` maps tool_use ids to names and is filled as calls are seen.
 */
export function entriesOfLine(line: Json, toolNames: Map<string, string>): ReplayEntry[] {
  if ((line.type !== 'user' && line.type !== 'assistant') || line.isMeta === true) return [];
  const at = typeof line.timestamp === 'string' ? line.timestamp : null;
  const message = isObject(line.message) ? line.message : {};
  const role = line.type === 'user' ? 'user' : 'assistant';
  if (typeof message.content === 'string') {
    return message.content.trim() === '' ? [] : [{ at, role, text: capText(message.content, ENTRY_TEXT_BYTES) }];
  }
  if (!Array.isArray(message.content)) return [];
  const entries: ReplayEntry[] = [];
  for (const block of message.content) {
    if (!isObject(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string' && block.text.trim() !== '') {
      entries.push({ at, role, text: capText(block.text, ENTRY_TEXT_BYTES) });
    } else if (block.type === 'tool_use' && typeof block.name === 'string') {
      if (typeof block.id === 'string') toolNames.set(block.id, block.name);
      entries.push(withTargets({ at, role: 'tool', text: capText(summarizeInput(block.input), ENTRY_TEXT_BYTES), tool: block.name }, block.input));
    } else if (block.type === 'tool_result') {
      const name = typeof block.tool_use_id === 'string' ? toolNames.get(block.tool_use_id) : undefined;
      const prefix = block.is_error === true ? 'error: ' : '';
      const entry: ReplayEntry = { at, role: 'tool', text: capText(prefix + capText(resultText(block.content).trim(), EXCERPT_BYTES), ENTRY_TEXT_BYTES) };
      if (name) entry.tool = name;
      entries.push(entry);
    }
  }
  return entries;
}

/** A one-line summary of a tool input: its most telling field, else compact JSON, cut to SUMMARY_BYTES. */
export function summarizeInput(input: unknown): string {
  if (!isObject(input)) return '';
  for (const key of ['command', 'file_path', 'path', 'pattern', 'url', 'query', 'description', 'subject', 'prompt']) {
    const value = input[key];
    if (typeof value === 'string' && value.trim() !== '') return oneLine(value, SUMMARY_BYTES);
  }
  return oneLine(compactJson(input, SUMMARY_BYTES * 2), SUMMARY_BYTES);
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const block of content) {
    if (isObject(block) && block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    else if (isObject(block) && block.type === 'image') texts.push('[image]');
  }
  return texts.join('\n');
}

