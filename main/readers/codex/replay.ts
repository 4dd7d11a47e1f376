/**
 * Replay of one child rollout: a window of its last 4 MiB and 500 entries, paged 50 at a time newest first, with a
 * forked child's copied prefix left out. Identity checks happen in the reader before this is called.
 */
import { open } from 'node:fs/promises';
import type { ReplayEntry } from '../../../shared/schemas';
import type { ReplayResult } from '../port';
import { forEachLine } from './lineRange';
import { encodeCursor, normaliseChildLine, type ReplayCursor } from './replayEntries';
import { CODEX_OWN_START_SCAN_BYTES, MAX_LINE_BYTES, REPLAY_PAGE_ENTRIES, REPLAY_WINDOW_BYTES, REPLAY_WINDOW_ENTRIES } from '../kit/bounds';


/** What the reader hands to a replay read. */
export interface ReplayRequest {
  parentId: string;
  childId: string;
  childPath: string;
  forked: boolean;
  running: boolean;
  cursor: ReplayCursor | null;
}

interface Located {
  entry: ReplayEntry;
  offset: number;
}

/** Reads one page; `refused` for a cursor that does not fit this file, `unavailable` when the file is gone. */
export async function readReplayPage(request: ReplayRequest): Promise<ReplayResult> {
  let handle;
  try {
    handle = await open(request.childPath, 'r');
  } catch {
    return { status: 'unavailable', reason: 'The subagent rollout file is gone (moved or deleted), so it cannot be replayed.' };
  }
  try {
    const info = await handle.stat();
    const { cursor } = request;
    if (cursor && (cursor.ino !== info.ino || cursor.before > info.size)) {
      return { status: 'refused', reason: 'The cursor belongs to an earlier version of this subagent file; start again without it.' };
    }
    const ownStart = request.forked ? await findOwnStart(handle, info.size) : 0;
    if (ownStart === null) return { status: 'ok', running: request.running, entries: [], nextCursor: null };

    const end = cursor ? cursor.before : info.size;
    const start = cursor ? Math.max(cursor.from, ownStart) : Math.max(ownStart, info.size - REPLAY_WINDOW_BYTES);
    const located: Located[] = [];
    const callNames = new Map<string, string>();
    await forEachLine(handle, start, end, MAX_LINE_BYTES, (line) => {
      const text = line.bytes.toString('utf8');
      // A last line still being written is held back unless it is already complete JSON.
      if (!line.complete && !isJson(text)) return;
      for (const entry of normaliseChildLine(text, callNames).entries) located.push({ entry, offset: line.offset });
    });
    const window = cursor ? located : located.slice(-REPLAY_WINDOW_ENTRIES);
    if (window.length === 0) return { status: 'ok', running: request.running, entries: [], nextCursor: null };
    const from = cursor ? cursor.from : window[0].offset;

    let pageStart = Math.max(0, window.length - REPLAY_PAGE_ENTRIES);
    // Keep every entry of the boundary line on this page: the next page ends before that line.
    while (pageStart > 0 && window[pageStart - 1].offset === window[pageStart].offset) pageStart--;
    const page = window.slice(pageStart);
    const nextCursor = pageStart > 0 ? encodeCursor({ parent: request.parentId, child: request.childId, ino: info.ino, from, before: page[0].offset }) : null;
    return { status: 'ok', running: request.running, entries: page.map((item) => item.entry), nextCursor };
  } finally {
    await handle.close();
  }
}

/**
 * Offset of a forked child's own first `turn_context` (turn contexts are never copied from the parent), or null
 * when it has none yet or it lies beyond the scan bound.
 */
async function findOwnStart(handle: Awaited<ReturnType<typeof open>>, size: number): Promise<number | null> {
  let found: number | null = null;
  await forEachLine(handle, 0, Math.min(size, CODEX_OWN_START_SCAN_BYTES), MAX_LINE_BYTES, (line) => {
    if (line.bytes.indexOf('"turn_context"') === -1) return;
    if (normaliseChildLine(line.bytes.toString('utf8'), new Map()).turnContext) {
      found = line.offset;
      return false;
    }
  });
  return found;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
