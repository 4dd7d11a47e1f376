/**
 * "Acknowledged, not assumed": that input was taken is learned only from the harness's own records. Before a send a
 * mark is taken (where the journal or rollout ends, or the store's clock); after it, a new user turn or tool result
 * past the mark is the acknowledgement.
 *
 * - Claude Code: a `user` line appended to the journal (a prompt or a tool result).
 * - Codex: a `response_item` of role `user`, a `function_call_output`/`custom_tool_call_output`, or an `event_msg`
 *   `user_message` appended to the rollout.
 * - OpenCode: a user message in the session created at or after the send.
 * Only the record types are looked at; no text is kept.
 */
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SeatAddress } from '../../../shared/schemas';
import { withReadOnly } from '../../sources/readers/opencode/sqlite';
import { claudeProjectFolder } from './adoption';

/** Where the records stood before a send. */
export type RecordMark = { kind: 'file'; file: string; offset: number } | { kind: 'store'; db: string; session: string; at: number } | { kind: 'none' };

/** Most bytes read past a mark per check (a turn's first lines are small; the rest is not needed). */
const ACK_READ_MAX = 4 * 1024 * 1024;

/** The record file of a seat: its transcript path, else Claude Code's journal path from its folder. */
function recordFile(seat: SeatAddress, claudeHome: string): string | null {
  if (seat.path) return seat.path;
  if (seat.harness === 'claude' && seat.cwd) return path.join(claudeProjectFolder(claudeHome, seat.cwd), `${seat.sessionId}.jsonl`);
  return null;
}

/** Takes the mark a send is judged against. */
export async function markRecords(seat: SeatAddress | undefined, claudeHome: string): Promise<RecordMark> {
  if (!seat) return { kind: 'none' };
  if (seat.harness === 'opencode') return { kind: 'store', db: seat.home, session: seat.sessionId, at: Date.now() };
  const file = recordFile(seat, claudeHome);
  if (!file) return { kind: 'none' };
  const info = await stat(file).catch(() => null);
  return { kind: 'file', file, offset: info?.size ?? 0 };
}

/** True when a record line (Claude or Codex) is a user turn or a tool result. */
export function isInputRecord(line: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return false;
  }
  if (!value || typeof value !== 'object') return false;
  const record = value as { type?: unknown; payload?: { type?: unknown; role?: unknown }; isMeta?: unknown };
  if (record.type === 'user') return record.isMeta !== true;
  if (record.type === 'response_item') return record.payload?.role === 'user' || record.payload?.type === 'function_call_output' || record.payload?.type === 'custom_tool_call_output';
  if (record.type === 'event_msg') return record.payload?.type === 'user_message';
  return false;
}

async function fileShowsInput(mark: Extract<RecordMark, { kind: 'file' }>): Promise<boolean> {
  const handle = await open(mark.file, 'r').catch(() => null);
  if (!handle) return false;
  try {
    const { size } = await handle.stat();
    // A file that shrank was replaced: read it from the start.
    const from = size < mark.offset ? 0 : mark.offset;
    const length = Math.min(size - from, ACK_READ_MAX);
    if (length <= 0) return false;
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, from);
    const lines = buffer.toString('utf8').split('\n');
    // The last piece may be a line still being written; only whole lines count.
    lines.pop();
    return lines.some(isInputRecord);
  } finally {
    await handle.close();
  }
}

/** True when the harness's records show input after the mark. */
export async function recordsShowInput(mark: RecordMark): Promise<boolean> {
  switch (mark.kind) {
    case 'none':
      return false;
    case 'file':
      return fileShowsInput(mark);
    case 'store':
      try {
        return await withReadOnly(mark.db, (database) => {
          const row = database.get("SELECT count(*) AS n FROM message WHERE session_id = ? AND time_created >= ? AND json_extract(data, '$.role') = 'user'", [mark.session, mark.at - 1000]);
          return Number(row?.n ?? 0) > 0;
        });
      } catch {
        return false;
      }
    default:
      return mark satisfies never;
  }
}

/** Polls the records until they show input or `waitMs` passes. */
export async function waitForInput(mark: RecordMark, waitMs: number, pollMs = 200): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (await recordsShowInput(mark)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, Math.max(0, deadline - Date.now()))));
  }
}

/** The most recently updated root OpenCode session of a folder (adoption rule 4), or null. */
export async function openCodeLatestSession(db: string, folder: string): Promise<string | null> {
  try {
    return await withReadOnly(db, (database) => {
      const row = database.get('SELECT id FROM session WHERE directory = ? AND parent_id IS NULL ORDER BY time_updated DESC LIMIT 1', [folder]);
      return typeof row?.id === 'string' ? row.id : null;
    });
  } catch {
    return null;
  }
}
