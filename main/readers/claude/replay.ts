/**
 * Replay of one subagent: resolves its child journal only from the agent id recorded for that call (rules 10–12),
 * checks the child's identity, and pages through a bounded window of it. Stores nothing.
 */
import { lstat, open } from 'node:fs/promises';
import type { ReplayResult } from '../port';
import { childJournalCandidates, isPlainToken } from './locate';
import { REPLAY_REASONS } from './reasons';
import type { CallRecord } from './reducer';
import { checkIdentity, decodeCursor, encodeCursor, entriesOfLine, pageOf, type PlacedEntry } from './replayEntries';
import { REPLAY_WINDOW_BYTES, REPLAY_WINDOW_ENTRIES } from '../kit/bounds';

export { REPLAY_REASONS } from './reasons';

/** What replay needs to know about the call and its parent. */
export interface ReplayTarget {
  parentJournal: string;
  /** The session id written in the parent's lines: names the child folder and must appear in the child's lines. */
  sessionId: string;
  /** The seat's session id, to which cursors are bound. */
  seatSessionId: string;
  call: Pick<CallRecord, 'nativeId' | 'agentId' | 'state'>;
}

/** One page of the call's child transcript, or why it cannot be shown. */
export async function replayChild(target: ReplayTarget, cursor?: string): Promise<ReplayResult> {
  const { call } = target;
  if (call.agentId === null) return { status: 'unavailable', reason: REPLAY_REASONS.notRecorded };
  if (!isPlainToken(call.agentId)) return { status: 'refused', reason: REPLAY_REASONS.badAgentId };
  const before = cursorPosition(target, cursor);
  if (before === 'refused') return { status: 'refused', reason: REPLAY_REASONS.badCursor };
  const candidates = childJournalCandidates(target.parentJournal, target.sessionId, call.agentId);
  if (!candidates) return { status: 'refused', reason: REPLAY_REASONS.badAgentId };
  const child = await firstRegularFile(candidates);
  // A live locator can name a child before its file is written; an ended child's missing file was removed.
  if (!child) return { status: 'unavailable', reason: call.state === 'running' ? REPLAY_REASONS.notWrittenYet : REPLAY_REASONS.gone };

  const lines = await readWindow(child, REPLAY_WINDOW_BYTES);
  const placed: PlacedEntry[] = [];
  const toolNames = new Map<string, string>();
  for (const { offset, text } of lines) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue; // a bad line is skipped, never fatal
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    const record = value as Record<string, unknown>;
    // Identity first: nothing of a file that is not this agent's is read into a page (rule 10).
    if (checkIdentity(record, call.agentId, target.sessionId) === 'mismatch') return { status: 'refused', reason: REPLAY_REASONS.mismatch };
    entriesOfLine(record, toolNames).forEach((entry, block) => placed.push({ offset, block, entry }));
  }
  return pageAnswer(target, placed, before, call.state === 'running');
}

/** Who a page and its cursors belong to: the seat's session and the call. */
export interface PageOwner {
  seatSessionId: string;
  call: { nativeId: string };
}

/** The position a cursor names for this call; null without one, 'refused' for a foreign or damaged one. */
export function cursorPosition(target: PageOwner, cursor: string | undefined): { offset: number; block: number } | null | 'refused' {
  if (cursor === undefined || cursor === '') return null;
  return decodeCursor(cursor, target.seatSessionId, target.call.nativeId) ?? 'refused';
}

/** The page before `before` of the last 500 entries, with the cursor to the next older page. */
export function pageAnswer(target: PageOwner, placed: PlacedEntry[], before: { offset: number; block: number } | null, running: boolean): ReplayResult {
  const windowed = placed.slice(-REPLAY_WINDOW_ENTRIES);
  const { page, more } = pageOf(windowed, before);
  const oldest = page[0];
  return {
    status: 'ok',
    running,
    entries: page.map((item) => item.entry),
    nextCursor: more && oldest ? encodeCursor({ sessionId: target.seatSessionId, nativeId: target.call.nativeId, offset: oldest.offset, block: oldest.block }) : null,
  };
}

/** The first candidate that is a regular file; symbolic links (like Claude's `.output` links) are not followed. */
async function firstRegularFile(candidates: string[]): Promise<string | null> {
  for (const candidate of candidates) {
    try {
      if ((await lstat(candidate)).isFile()) return candidate;
    } catch {
      // absent: try the older layout
    }
  }
  return null;
}

/** The complete lines in the last `maxBytes` of a file, with their byte offsets. */
export async function readWindow(file: string, maxBytes: number): Promise<{ offset: number; text: string }[]> {
  return readLinesBetween(file, 0, Number.MAX_SAFE_INTEGER, maxBytes);
}

/**
 * The lines of a file between two byte offsets (`to` exclusive, cut at the file's end), at most the last `maxBytes`
 * of that span: when the span is longer, the first, partial line is dropped.
 */
export async function readLinesBetween(file: string, lower: number, upper: number, maxBytes: number): Promise<{ offset: number; text: string }[]> {
  const handle = await open(file, 'r');
  try {
    const size = Math.min((await handle.stat()).size, upper);
    if (size <= lower) return [];
    const start = Math.max(lower, size - maxBytes);
    // One byte early, so a window that begins exactly on a line boundary keeps that line.
    const from = start > lower ? start - 1 : lower;
    const buffer = Buffer.alloc(size - from);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, from + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const lines: { offset: number; text: string }[] = [];
    let cursor = 0;
    if (start > lower) {
      const first = buffer.indexOf(0x0a, 0);
      if (first === -1 || first >= filled) return [];
      cursor = first + 1;
    }
    while (cursor < filled) {
      const newline = buffer.indexOf(0x0a, cursor);
      // A last line without its newline may still be being written; JSON.parse later drops it if partial.
      const end = newline === -1 || newline >= filled ? filled : newline;
      if (end > cursor) lines.push({ offset: from + cursor, text: buffer.toString('utf8', cursor, end) });
      cursor = end + 1;
    }
    return lines;
  } finally {
    await handle.close();
  }
}
