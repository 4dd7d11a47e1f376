/**
 * Replay of one subagent: resolves its child journal only from the agent id recorded for that call (rules 10–12),
 * checks the child's identity, and pages through a bounded window of it. Stores nothing.
 */
import { lstat } from 'node:fs/promises';
import { openRegular } from '../kit/openRegular';
import type { ReplayResult } from '../port';
import { childJournalCandidates, isPlainToken } from './locate';
import { REPLAY_REASONS } from './reasons';
import type { CallRecord } from './projectionState';
import { checkIdentity, entriesOfLine } from './replayEntries';
import { LINE_POSITION, replayPage, type LinePosition, type PagerSpec, type Placed, type WindowRequest } from '../kit/pager';
import { parseObject } from '../kit/json';

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
  const agentId = call.agentId;
  return replayPage(pagerSpec(target), cursor, async (request) => {
    const candidates = childJournalCandidates(target.parentJournal, target.sessionId, agentId);
    if (!candidates) return { status: 'refused', reason: REPLAY_REASONS.badAgentId };
    const child = await firstRegularFile(candidates);
    // A live locator can name a child before its file is written; an ended child's missing file was removed.
    if (!child) return { status: 'unavailable', reason: call.state === 'running' ? REPLAY_REASONS.notWrittenYet : REPLAY_REASONS.gone };
    const { source, lines } = await readLinesBetween(child, windowRange(request, 0, Number.MAX_SAFE_INTEGER));
    const entries: Placed<LinePosition>[] = [];
    const toolNames = new Map<string, string>();
    for (const { offset, text } of lines) {
      const record = parseObject(text);
      if (!record) continue; // a bad line is skipped, never fatal
      // Identity first: nothing of a file that is not this agent's is read into a page (rule 10).
      if (checkIdentity(record, agentId, target.sessionId) === 'mismatch') return { status: 'refused', reason: REPLAY_REASONS.mismatch };
      entriesOfLine(record, toolNames).forEach((entry, block) => entries.push({ position: [offset, block], entry }));
    }
    return { status: 'read', entries, running: call.state === 'running', source };
  });
}

/** The pager's view of a Claude replay: cursors bound to the seat's session and the call, journal positions. */
export function pagerSpec(target: { seatSessionId: string; call: { nativeId: string } }): PagerSpec<LinePosition> {
  return { owner: { harness: 'claude', ids: [target.seatSessionId, target.call.nativeId] }, position: LINE_POSITION };
}

/** Bytes of a journal span to read for a window request: the newest window, or from the walk's floor on. */
export interface LineRange {
  lower: number;
  upper: number;
  maxBytes: number;
}

/**
 * The span to read between `lower` and `upper`: the last `maxBytes` of it on a first page; on a later page the
 * `maxBytes` from the walk's floor, which hold all of the window the walk began with.
 */
export function windowRange(request: WindowRequest<LinePosition>, lower: number, upper: number): LineRange {
  const from = request.floor ? Math.max(lower, request.floor[0]) : lower;
  const to = request.floor ? Math.min(upper, from + request.maxBytes) : upper;
  return { lower: from, upper: to, maxBytes: request.maxBytes };
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

/**
 * The lines of a file between two byte offsets (`upper` exclusive, cut at the file's end), at most the last `maxBytes`
 * of that span: when the span is longer, the first, partial line is dropped. `source` is the file's inode, so a cursor
 * issued for a replaced file is told apart.
 */
export async function readLinesBetween(file: string, range: LineRange): Promise<{ source: string; lines: { offset: number; text: string }[] }> {
  const { lower, upper, maxBytes } = range;
  const handle = await openRegular(file);
  try {
    const info = await handle.stat();
    const source = String(info.ino);
    const size = Math.min(info.size, upper);
    if (size <= lower) return { source, lines: [] };
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
      if (first === -1 || first >= filled) return { source, lines: [] };
      cursor = first + 1;
    }
    while (cursor < filled) {
      const newline = buffer.indexOf(0x0a, cursor);
      // A last line without its newline may still be being written; JSON.parse later drops it if partial.
      const end = newline === -1 || newline >= filled ? filled : newline;
      if (end > cursor) lines.push({ offset: from + cursor, text: buffer.toString('utf8', cursor, end) });
      cursor = end + 1;
    }
    return { source, lines };
  } finally {
    await handle.close();
  }
}
