/**
 * Replay of one child rollout: the pager's window read from the file (the newest 4 MiB on a first page, from the
 * walk's floor on later), with a forked child's copied prefix left out. Identity checks happen in the reader before
 * this is called; pages and cursors are the kit's pager.
 */

import type { FileHandle } from 'node:fs/promises';
import { openRegular } from '../kit/openRegular';
import { forEachLine } from './lineRange';
import { normaliseChildLine } from './replayEntries';
import type { LinePosition, Placed, WindowRead, WindowRequest } from '../kit/pager';
import { CODEX_OWN_START_SCAN_BYTES, MAX_LINE_BYTES } from '../kit/bounds';

/** The child rollout a replay reads, as the reader resolved and checked it. */
export interface ChildRollout {
  path: string;
  forked: boolean;
  running: boolean;
}

/** The window's entries of a child rollout with their line positions; `unavailable` when the file is gone. */
export async function readChildWindow(child: ChildRollout, request: WindowRequest<LinePosition>): Promise<WindowRead<LinePosition>> {
  let handle;
  try {
    handle = await openRegular(child.path);
  } catch {
    return { status: 'unavailable', reason: 'The subagent rollout file is gone (moved or deleted), so it cannot be replayed.' };
  }
  try {
    const info = await handle.stat();
    const source = String(info.ino);
    const entries: Placed<LinePosition>[] = [];
    // A later page starts at the walk's floor, which lies after the own start the first page found.
    const ownStart = request.floor ? 0 : child.forked ? await findOwnStart(handle, info.size) : 0;
    if (ownStart === null) return { status: 'read', entries, running: child.running, source };
    const start = request.floor ? request.floor[0] : Math.max(ownStart, info.size - request.maxBytes);
    const end = request.floor ? Math.min(info.size, start + request.maxBytes) : info.size;
    const last = request.before ? request.before[0] : Number.MAX_SAFE_INTEGER;
    const callNames = new Map<string, string>();
    await forEachLine(handle, start, end, MAX_LINE_BYTES, (line) => {
      if (line.offset > last) return false; // past the oldest entry already shown
      const text = line.bytes.toString('utf8');
      // A last line still being written is held back unless it is already complete JSON.
      if (!line.complete && !isJson(text)) return;
      normaliseChildLine(text, callNames).entries.forEach((entry, index) => entries.push({ position: [line.offset, index], entry }));
    });
    return { status: 'read', entries, running: child.running, source };
  } finally {
    await handle.close();
  }
}

/**
 * Offset of a forked child's own first `turn_context` (turn contexts are never copied from the parent), or null
 * when it has none yet or it lies beyond the scan bound.
 */
async function findOwnStart(handle: FileHandle, size: number): Promise<number | null> {
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
