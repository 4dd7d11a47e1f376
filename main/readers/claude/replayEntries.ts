/**
 * Pure parts of a subagent replay: turning child journal lines into short normalized entries, checking a child
 * line's identity, and the page cursor that is bound to one (session, call).
 */
import type { ReplayEntry } from '../../../shared/schemas';
import { withTargets } from '../toolTarget';

/** Most bytes of one entry's text. */
export const ENTRY_TEXT_BYTES = 4 * 1024;
/** Most characters of a tool result excerpt. */
const RESULT_EXCERPT_CHARS = 1000;
/** Most characters of a tool call's one-line input summary. */
const INPUT_SUMMARY_CHARS = 200;

type Json = Record<string, unknown>;

/** A normalized entry with its position in the child file (byte offset of its line, block index). */
export interface PlacedEntry {
  offset: number;
  block: number;
  entry: ReplayEntry;
}

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
    return message.content.trim() === '' ? [] : [{ at, role, text: capText(message.content) }];
  }
  if (!Array.isArray(message.content)) return [];
  const entries: ReplayEntry[] = [];
  for (const block of message.content) {
    if (!isObject(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string' && block.text.trim() !== '') {
      entries.push({ at, role, text: capText(block.text) });
    } else if (block.type === 'tool_use' && typeof block.name === 'string') {
      if (typeof block.id === 'string') toolNames.set(block.id, block.name);
      entries.push(withTargets({ at, role: 'tool', text: capText(summarizeInput(block.input)), tool: block.name }, block.input));
    } else if (block.type === 'tool_result') {
      const name = typeof block.tool_use_id === 'string' ? toolNames.get(block.tool_use_id) : undefined;
      const prefix = block.is_error === true ? 'error: ' : '';
      const entry: ReplayEntry = { at, role: 'tool', text: capText(prefix + excerpt(resultText(block.content))) };
      if (name) entry.tool = name;
      entries.push(entry);
    }
  }
  return entries;
}

/** A one-line summary of a tool input: its most telling field, else compact JSON, cut to 200 characters. */
export function summarizeInput(input: unknown): string {
  if (!isObject(input)) return '';
  for (const key of ['command', 'file_path', 'path', 'pattern', 'url', 'query', 'description', 'subject', 'prompt']) {
    const value = input[key];
    if (typeof value === 'string' && value.trim() !== '') return oneLine(value);
  }
  return oneLine(JSON.stringify(input));
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > INPUT_SUMMARY_CHARS ? `${flat.slice(0, INPUT_SUMMARY_CHARS - 1)}…` : flat;
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

function excerpt(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > RESULT_EXCERPT_CHARS ? `${trimmed.slice(0, RESULT_EXCERPT_CHARS - 1)}…` : trimmed;
}

/** Cuts a text to at most 4 KiB of UTF-8, never splitting a character. */
export function capText(text: string): string {
  if (text.length * 3 <= ENTRY_TEXT_BYTES) return text;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= ENTRY_TEXT_BYTES) return text;
  const ellipsis = '…'; // 3 bytes
  let cut = bytes.subarray(0, ENTRY_TEXT_BYTES - 3).toString('utf8');
  // A character cut in half decodes as U+FFFD; drop it.
  if (cut.endsWith('\uFFFD')) cut = cut.slice(0, -1);
  return cut + ellipsis;
}

/** Where a page ends: the position of the oldest entry already shown, bound to one session and one call. */
export interface ReplayCursor {
  sessionId: string;
  nativeId: string;
  offset: number;
  block: number;
}

/** Encodes a cursor as an opaque base64url token. */
export function encodeCursor(cursor: ReplayCursor): string {
  const payload = { v: 1, s: cursor.sessionId, n: cursor.nativeId, o: cursor.offset, b: cursor.block };
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/** Decodes a cursor issued for exactly this session and call; any other token gives null (refused). */
export function decodeCursor(token: string, sessionId: string, nativeId: string): ReplayCursor | null {
  if (token.length > 2048 || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!isObject(payload) || payload.v !== 1 || payload.s !== sessionId || payload.n !== nativeId) return null;
  const { o: offset, b: block } = payload;
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(block) || (offset as number) < 0 || (block as number) < 0) return null;
  return { sessionId, nativeId, offset: offset as number, block: block as number };
}

/** Entries per page. */
export const PAGE_SIZE = 50;

/** One page, newest first across pages and oldest first within a page; the cursor walks back towards older ones. */
export function pageOf(entries: PlacedEntry[], before: { offset: number; block: number } | null): { page: PlacedEntry[]; more: boolean } {
  let end = entries.length;
  if (before) {
    end = entries.findIndex((placed) => placed.offset > before.offset || (placed.offset === before.offset && placed.block >= before.block));
    if (end === -1) end = entries.length;
  }
  const start = Math.max(0, end - PAGE_SIZE);
  return { page: entries.slice(start, end), more: start > 0 };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
