/**
 * Changes between two versions of plain data, so main can send what changed instead of the whole thing: a keyed
 * list as the records set (added or changed) and the keys removed, with the keys that moved (or, when most did, the
 * full key order) only when applying the rest would not give the order. Applying keeps every unchanged record's object, so a view can test `record !== previous`.
 */
import { z } from 'zod';

/** The changes to a keyed list: records added or changed, keys removed, and the whole order when it moved. */
export interface ListPatch<T> {
  /** Records added (appended in this order unless `order` says otherwise) or changed (replaced in place). */
  set?: T[];
  /** Keys of records that are gone. */
  removed?: string[];
  /** Every key of the result in order, present only when set-then-remove would give another order. */
  order?: string[];
  /**
   * Instead of `order` when few keys moved: each moved key with the key it follows in the result (null: first),
   * applied one after another onto the order set-then-remove gives.
   */
  moves?: [string, string | null][];
}

/** The schema of a keyed list's changes, for records of `item`. */
export function listPatchSchema<T extends z.ZodType>(item: T) {
  return z.object({
    set: z.array(item).optional(),
    removed: z.array(z.string()).optional(),
    order: z.array(z.string()).optional(),
    moves: z.array(z.tuple([z.string(), z.string().nullable()])).optional(),
  });
}

/** Structural equality of plain data (JSON-like values: primitives, arrays, plain objects) that stops at `===`. */
export function samePlain(first: unknown, second: unknown): boolean {
  if (first === second) return true;
  if (typeof first !== 'object' || typeof second !== 'object' || first === null || second === null) return false;
  if (Array.isArray(first)) {
    if (!Array.isArray(second) || first.length !== second.length) return false;
    for (let index = 0; index < first.length; index++) if (!samePlain(first[index], second[index])) return false;
    return true;
  }
  if (Array.isArray(second)) return false;
  const left = first as Record<string, unknown>;
  const right = second as Record<string, unknown>;
  let leftKeys = 0;
  for (const key in left) {
    if (left[key] === undefined) continue;
    leftKeys++;
    if (!samePlain(left[key], right[key])) return false;
  }
  let rightKeys = 0;
  for (const key in right) if (right[key] !== undefined) rightKeys++;
  return leftKeys === rightKeys;
}

/** The changes that turn `previous` into `next` (records matched by `keyOf`, unique in each), or undefined when there are none. */
export function diffList<T>(previous: readonly T[], next: readonly T[], keyOf: (record: T) => string): ListPatch<T> | undefined {
  // The same list (a version that kept its records): nothing changed, and nothing need be compared.
  if (previous === next) return undefined;
  // The usual change: the same keys in the same places, a few records new. Those records are the whole change (the
  // callers' keys are unique), found without building the maps below.
  if (previous.length === next.length) {
    const set: T[] = [];
    let aligned = true;
    for (let index = 0; index < next.length; index++) {
      const old = previous[index];
      const record = next[index];
      if (old === record) continue;
      if (keyOf(old) !== keyOf(record)) {
        aligned = false;
        break;
      }
      if (!samePlain(old, record)) set.push(record);
    }
    if (aligned) return set.length > 0 ? { set } : undefined;
  }
  const before = new Map<string, T>();
  for (const record of previous) before.set(keyOf(record), record);
  const set: T[] = [];
  const nextKeys = new Set<string>();
  for (const record of next) {
    const key = keyOf(record);
    nextKeys.add(key);
    const old = before.get(key);
    if (old === undefined || !samePlain(old, record)) set.push(record);
  }
  const removed: string[] = [];
  for (const key of before.keys()) if (!nextKeys.has(key)) removed.push(key);
  const patch: ListPatch<T> = {};
  if (set.length > 0) patch.set = set;
  if (removed.length > 0) patch.removed = removed;
  // The order applying the rest gives: the previous keys that stay, then the new ones in `next`'s order.
  const gone = new Set(removed);
  const implied = previous.map(keyOf).filter((key) => !gone.has(key));
  for (const record of next) {
    const key = keyOf(record);
    if (!before.has(key)) implied.push(key);
  }
  if (implied.length !== next.length || implied.some((key, index) => key !== keyOf(next[index]))) {
    const order = next.map(keyOf);
    const moves = movesBetween(implied, order);
    // A job starting in the middle of a board, or one ending, moves one key: that key, not the whole order.
    if (moves.length * 4 < order.length) patch.moves = moves;
    else patch.order = order;
  }
  return patch.set || patch.removed || patch.order || patch.moves ? patch : undefined;
}

/**
 * The fewest keys to move so `from` becomes `to` (the same keys): those outside a longest run of keys already in
 * `to`'s relative order, each with the key it follows in `to`, in `to`'s order.
 */
function movesBetween(from: readonly string[], to: readonly string[]): [string, string | null][] {
  const position = new Map(to.map((key, index) => [key, index]));
  const sequence = from.map((key) => position.get(key)!);
  // Longest increasing subsequence (patience sorting), kept as the indexes into `sequence` it passes through.
  const tails: number[] = [];
  const before: number[] = new Array(sequence.length);
  for (let index = 0; index < sequence.length; index++) {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (sequence[tails[middle]] < sequence[index]) low = middle + 1;
      else high = middle;
    }
    before[index] = low > 0 ? tails[low - 1] : -1;
    tails[low] = index;
  }
  const staying = new Set<string>();
  for (let index = tails.length > 0 ? tails[tails.length - 1] : -1; index >= 0; index = before[index]) staying.add(from[index]);
  const moves: [string, string | null][] = [];
  to.forEach((key, index) => {
    if (!staying.has(key)) moves.push([key, index > 0 ? to[index - 1] : null]);
  });
  return moves;
}

/**
 * Applies `patch` to `previous`; unchanged records keep their objects. Returns null when the patch does not fit
 * (its order names a key the result lacks, or misses one), so the caller reads the whole list again.
 */
export function applyList<T>(previous: readonly T[], patch: ListPatch<T> | undefined, keyOf: (record: T) => string): T[] | null {
  if (!patch) return previous as T[];
  const gone = new Set(patch.removed ?? []);
  const replaced = new Map<string, T>();
  for (const record of patch.set ?? []) replaced.set(keyOf(record), record);
  const result: T[] = [];
  const present = new Set<string>();
  for (const record of previous) {
    const key = keyOf(record);
    if (gone.has(key)) continue;
    result.push(replaced.get(key) ?? record);
    present.add(key);
  }
  for (const [key, record] of replaced) {
    if (present.has(key)) continue;
    result.push(record);
    present.add(key);
  }
  if (patch.moves) return applyMoves(result, patch.moves, keyOf);
  if (!patch.order) return result;
  if (patch.order.length !== result.length) return null;
  const byKey = new Map(result.map((record) => [keyOf(record), record]));
  const ordered: T[] = [];
  for (const key of patch.order) {
    const record = byKey.get(key);
    if (record === undefined) return null;
    ordered.push(record);
    byKey.delete(key);
  }
  return ordered;
}

/** Applies `moves` one after another; null when one names a key the list lacks. */
function applyMoves<T>(list: T[], moves: readonly [string, string | null][], keyOf: (record: T) => string): T[] | null {
  const keys = list.map(keyOf);
  for (const [key, after] of moves) {
    const from = keys.indexOf(key);
    if (from < 0 || key === after) return null;
    const [record] = list.splice(from, 1);
    keys.splice(from, 1);
    const to = after === null ? 0 : keys.indexOf(after) + 1;
    if (to === 0 && after !== null) return null;
    list.splice(to, 0, record);
    keys.splice(to, 0, key);
  }
  return list;
}

/** The changes to a string record: entries added or changed, and keys removed. */
export const RecordPatchSchema = z.object({ set: z.record(z.string(), z.string()).optional(), removed: z.array(z.string()).optional() });
export type RecordPatch = z.infer<typeof RecordPatchSchema>;

/** The changes that turn one string record into another, or undefined when there are none. */
export function diffRecord(previous: Readonly<Record<string, string>>, next: Readonly<Record<string, string>>): RecordPatch | undefined {
  if (previous === next) return undefined;
  const set: Record<string, string> = {};
  let changed = false;
  for (const key in next) {
    if (previous[key] === next[key] && Object.prototype.hasOwnProperty.call(previous, key)) continue;
    set[key] = next[key];
    changed = true;
  }
  const removed = Object.keys(previous).filter((key) => !Object.prototype.hasOwnProperty.call(next, key));
  if (!changed && removed.length === 0) return undefined;
  return { ...(changed ? { set } : {}), ...(removed.length > 0 ? { removed } : {}) };
}

/** Applies a record's changes, returning a new record (the previous one when nothing changed). */
export function applyRecord(previous: Readonly<Record<string, string>>, patch: RecordPatch | undefined): Record<string, string> {
  if (!patch) return previous as Record<string, string>;
  const next: Record<string, string> = { ...previous, ...patch.set };
  for (const key of patch.removed ?? []) delete next[key];
  return next;
}

/**
 * A whole value that changed, for an optional field: undefined when unchanged, null when it is gone, else the new
 * value (sent whole: such fields are small or change together).
 */
export function diffWhole<T>(previous: T | undefined, next: T | undefined): T | null | undefined {
  if (samePlain(previous, next)) return undefined;
  return next === undefined ? null : next;
}

/** Applies a whole-value change from {@link diffWhole}. */
export function applyWhole<T>(previous: T | undefined, change: T | null | undefined): T | undefined {
  if (change === undefined) return previous;
  return change === null ? undefined : change;
}
