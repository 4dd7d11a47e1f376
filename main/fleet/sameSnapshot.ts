/**
 * Change detection for the census without serialising anything: plain structural equality that stops at the first
 * shared reference (an unchanged seat keeps its object from the previous census).
 */
import type { FleetSnapshot } from '../../shared/schemas';

/** The parts of a snapshot that a census compares (everything but the cursor). */
export type SnapshotBody = Omit<FleetSnapshot, 'cursor'>;

/** Structural equality of plain data (JSON-like values: primitives, arrays, plain objects); no allocation. */
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

/**
 * True when `next` shows the owner nothing new over `previous`, compared by value without serialising. It is cheap
 * when little changed: the census keeps an unchanged seat's object and the persona store its unchanged personas,
 * so most comparisons end at `===`.
 */
export function sameSnapshotBody(previous: SnapshotBody | null, next: SnapshotBody): boolean {
  return previous !== null && samePlain(previous, next);
}
