/**
 * The one replay pager of every harness: the window (the newest 500 entries, read from at most 4 MiB), pages of 50
 * newest first, the text cap every entry is held to, and the cursor (./cursor) that walks back through the window.
 *
 * A harness hands it only what is its own: who a cursor belongs to, the schema of its positions, and a read of its
 * child transcript for a window request. The first page reads the newest window; a cursor pins that window's start
 * (`floor`), so walking back shows the window as it was when the walk began even while the child keeps writing. A
 * later page is refused as stale when the source's stamp moved or the window's first entry or the page's end is no
 * longer where and what the cursor says: the transcript was rewritten, and a page of it could show the wrong entries.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { ReplayEntry } from '../../../../shared/schemas';
import type { ReplayResult } from '../port';
import { comparePositions, CURSOR_REFUSALS, decodeCursor, encodeCursor, type CursorOwner, type CursorState, type Position } from './cursor';
import { ENTRY_TEXT_BYTES, REPLAY_PAGE_ENTRIES, REPLAY_WINDOW_BYTES, REPLAY_WINDOW_ENTRIES } from './bounds';
import { capText } from './text';

export { CURSOR_REFUSALS, type CursorOwner, type Position } from './cursor';

/** A replay entry with its position in the child transcript. */
export interface Placed<P extends Position> {
  position: P;
  entry: ReplayEntry;
}

/** What the pager asks a harness to read. */
export interface WindowRequest<P extends Position> {
  /** The walk's window start on a later page (read from there on), or null on the first page (read the newest). */
  floor: P | null;
  /** The oldest entry already shown on a later page (entries after it are not needed, its own line is), else null. */
  before: P | null;
  /** Bytes of the source the read may cover at most. */
  maxBytes: number;
}

/** A replay answer that is not a page: unavailable or refused, with its sentence. */
export type NoPage = Exclude<ReplayResult, { status: 'ok' }>;

/** A harness's read: its entries oldest first with their positions, or the answer when it cannot read them. */
export type WindowRead<P extends Position> = { status: 'read'; entries: Placed<P>[]; running: boolean; source: string | null } | NoPage;

/** What a harness tells the pager about one replay: the cursor's owner and the schema of its positions. */
export interface PagerSpec<P extends Position> {
  owner: CursorOwner;
  position: z.ZodType<P>;
}

const MARK_BYTES = 9;
const COUNT = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** The position of an entry in a journal: the byte offset of its line and its index among the line's entries. */
export const LINE_POSITION = z.tuple([COUNT, COUNT]);

/** A journal position (see LINE_POSITION). */
export type LinePosition = z.infer<typeof LINE_POSITION>;

/** One page, or 'stale' when a later page's window is no longer the one its cursor was issued for. */
export type PageCut<P extends Position> = { page: Placed<P>[]; next: CursorState<P> | null } | 'stale';

/**
 * Pure: a short digest of the two entries that bound a walk (the window's first, the page's end): their time, role
 * and text, which each harness takes from the entry's own line or row alone (a tool name can come from another).
 */
export function markOf(floor: ReplayEntry, before: ReplayEntry): string {
  const hash = createHash('sha256');
  for (const entry of [floor, before]) hash.update(JSON.stringify([entry.at, entry.role, entry.text]));
  return hash.digest().subarray(0, MARK_BYTES).toString('base64url');
}

/**
 * Pure: the page of `entries` (oldest first) a request asks for. Without a cursor state: the newest page of the
 * newest `REPLAY_WINDOW_ENTRIES`. With one: the newest page of the entries from its floor up to just before its
 * `before`; both entries must still be there as they were (`mark`), else the transcript changed: 'stale'.
 */
export function cutPage<P extends Position>(entries: readonly Placed<P>[], at: Omit<CursorState<P>, 'source'> | null, source: string | null = null): PageCut<P> {
  let window: readonly Placed<P>[];
  if (at === null) {
    window = entries.slice(-REPLAY_WINDOW_ENTRIES);
  } else {
    window = entries.filter((item) => comparePositions(item.position, at.floor) >= 0 && comparePositions(item.position, at.before) < 0);
    const floor = window[0];
    const before = entries.find((item) => comparePositions(item.position, at.before) === 0);
    const held = floor && before && comparePositions(floor.position, at.floor) === 0 && markOf(floor.entry, before.entry) === at.mark;
    if (!held || window.length >= REPLAY_WINDOW_ENTRIES) return 'stale';
  }
  const page = window.slice(-REPLAY_PAGE_ENTRIES);
  if (page.length === window.length) return { page, next: null };
  const [floor, before] = [window[0], page[0]];
  return { page, next: { source, floor: floor.position, before: before.position, mark: markOf(floor.entry, before.entry) } };
}

/** An entry held to the text cap of every replay entry (each harness caps its own texts too; this is the bound). */
function capped(entry: ReplayEntry): ReplayEntry {
  const text = capText(entry.text, ENTRY_TEXT_BYTES);
  return text === entry.text ? entry : { ...entry, text };
}

/**
 * One replay page: the cursor checked against `spec` before anything is read, the harness's `read` for the window it
 * asks, the page cut and the next cursor. Never throws for a bad cursor: it answers with one of CURSOR_REFUSALS.
 */
export async function replayPage<P extends Position>(
  spec: PagerSpec<P>,
  cursor: string | undefined,
  read: (request: WindowRequest<P>) => Promise<WindowRead<P>> | WindowRead<P>,
): Promise<ReplayResult> {
  let at: CursorState<P> | null = null;
  if (cursor !== undefined && cursor !== '') {
    const decoded = decodeCursor(cursor, spec.owner, spec.position);
    if (!decoded.ok) return { status: 'refused', reason: CURSOR_REFUSALS[decoded.refusal] };
    at = decoded.state;
  }
  const result = await read({ floor: at?.floor ?? null, before: at?.before ?? null, maxBytes: REPLAY_WINDOW_BYTES });
  if (result.status !== 'read') return result;
  if (at && at.source !== result.source) return { status: 'refused', reason: CURSOR_REFUSALS.stale };
  const cut = cutPage(result.entries, at, result.source);
  if (cut === 'stale') return { status: 'refused', reason: CURSOR_REFUSALS.stale };
  return {
    status: 'ok',
    running: result.running,
    entries: cut.page.map((item) => capped(item.entry)),
    nextCursor: cut.next ? encodeCursor(spec.owner, cut.next) : null,
  };
}
