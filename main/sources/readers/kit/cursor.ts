/**
 * The one replay cursor of every harness: versioned, opaque to the client, checked before anything is read.
 *
 * A token is `rp1.<payload>.<check>`: the payload is base64url JSON naming the harness, the ids the cursor is bound
 * to (the owner), the stamp of the source it was read from, two positions the harness defines (where the walk's
 * window starts and the oldest entry already shown), each checked with the harness's own schema, and a digest of the
 * two entries at those positions. The check is a
 * digest of the payload, so a damaged or hand-edited token is refused as a whole. It is not a secret: a cursor is not
 * a permission. What a replay may read is decided by the reader from the seat and the recorded ids, and a position
 * only chooses entries inside the window the reader reads anyway.
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { Harness } from '../../../../shared/schemas';
import { isObject } from './json';
import { REPLAY_CURSOR_CHARS } from './bounds';

/** A place in one harness's child transcript: a tuple compared element by element, numbers and strings. */
export type Position = readonly (number | string)[];

/** Who a cursor belongs to: a harness and the ids of one replay (e.g. the seat's session and the call). */
export interface CursorOwner {
  harness: Harness;
  ids: readonly string[];
}

/** What a cursor carries besides its owner: the walk's window and where the next page ends. */
export interface CursorState<P extends Position> {
  /** Stamp of the source the walk read (a file's inode, a child session id), or null when the harness has none. */
  source: string | null;
  /** Position of the oldest entry of the window the walk started with. */
  floor: P;
  /** Position of the oldest entry already shown; the next page ends just before it. */
  before: P;
  /** Digest of the entries at `floor` and `before` as they were read (see ./pager `markOf`). */
  mark: string;
}

/** The sentences a refused cursor is answered with, one for each way a cursor can be wrong; each says what to do. */
export const CURSOR_REFUSALS = {
  damaged: 'Refused: this replay cursor is damaged or was not issued by Pixelfleet. Open the replay again without a cursor to start from its newest page.',
  oversized: `Refused: this replay cursor is longer than any Pixelfleet issues (at most ${REPLAY_CURSOR_CHARS.toLocaleString('en-US')} characters). Open the replay again without a cursor to start from its newest page.`,
  version: 'Refused: this replay cursor was issued by another version of Pixelfleet. Open the replay again without a cursor to start from its newest page.',
  foreign: "Refused: this replay cursor was issued for another subagent's transcript. Open this subagent's replay again without a cursor to start from its newest page.",
  stale: "Refused: the subagent's transcript changed since this cursor was issued (rewritten, replaced or compacted). Open the replay again without a cursor to see it as it is now.",
} as const;

/** Why a cursor is refused. */
export type CursorRefusal = keyof typeof CURSOR_REFUSALS;

const VERSION = 1;
const TOKEN = /^rp(\d{1,6})\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;
const CHECK_BYTES = 9;
const MARK = /^[A-Za-z0-9_-]{1,32}$/;

/** Orders two positions element by element (a number before a string where they differ in kind). */
export function comparePositions(a: Position, b: Position): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) {
    const left = a[index];
    const right = b[index];
    if (left === right) continue;
    if (typeof left !== typeof right) return typeof left === 'number' ? -1 : 1;
    return left < right ? -1 : 1;
  }
  return a.length - b.length;
}

function checkOf(payload: string): string {
  return createHash('sha256').update(`pixelfleet replay cursor ${VERSION}\n`).update(payload).digest().subarray(0, CHECK_BYTES).toString('base64url');
}

/** Encodes a cursor for `owner`; never longer than the contract's bound (the harness's positions are bounded). */
export function encodeCursor<P extends Position>(owner: CursorOwner, state: CursorState<P>): string {
  const payload = Buffer.from(JSON.stringify({ h: owner.harness, o: owner.ids, s: state.source, f: state.floor, b: state.before, m: state.mark }), 'utf8').toString('base64url');
  const token = `rp${VERSION}.${payload}.${checkOf(payload)}`;
  // Owner ids are request ids (≤ 200 characters) and positions are checked by their schemas, so this holds.
  if (token.length > REPLAY_CURSOR_CHARS) throw new Error(`a replay cursor of ${token.length} characters exceeds ${REPLAY_CURSOR_CHARS}`);
  return token;
}

/** The state a cursor carries when it was issued for exactly this owner, or why it is refused. */
export function decodeCursor<P extends Position>(
  token: string,
  owner: CursorOwner,
  position: z.ZodType<P>,
): { ok: true; state: CursorState<P> } | { ok: false; refusal: CursorRefusal } {
  const refuse = (refusal: CursorRefusal) => ({ ok: false as const, refusal });
  if (token.length > REPLAY_CURSOR_CHARS) return refuse('oversized');
  const match = TOKEN.exec(token);
  if (!match) return refuse('damaged');
  if (Number(match[1]) !== VERSION) return refuse('version');
  const [, , payload, check] = match;
  if (check !== checkOf(payload)) return refuse('damaged');
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return refuse('damaged');
  }
  if (!isObject(body) || typeof body.h !== 'string' || !Array.isArray(body.o) || !(body.s === null || typeof body.s === 'string')) return refuse('damaged');
  if (typeof body.m !== 'string' || !MARK.test(body.m)) return refuse('damaged');
  if (body.h !== owner.harness || body.o.length !== owner.ids.length || body.o.some((id, index) => id !== owner.ids[index])) return refuse('foreign');
  const floor = position.safeParse(body.f);
  const before = position.safeParse(body.b);
  if (!floor.success || !before.success || comparePositions(floor.data, before.data) >= 0) return refuse('damaged');
  return { ok: true, state: { source: body.s, floor: floor.data, before: before.data, mark: body.m } };
}
