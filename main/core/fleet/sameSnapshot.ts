/**
 * Change detection for the census without serialising anything: plain structural equality that stops at the first
 * shared reference (an unchanged seat keeps its object from the previous census).
 */
import { samePlain } from '../../../shared/patch';
import type { FleetSnapshot } from '../../../shared/schemas';

/** The parts of a snapshot that a census compares (everything but the cursor). */
export type SnapshotBody = Omit<FleetSnapshot, 'cursor'>;

/**
 * True when `next` shows the owner nothing new over `previous`, compared by value without serialising. It is cheap
 * when little changed: the census keeps an unchanged seat's object and the persona store its unchanged personas,
 * so most comparisons end at `===`.
 */
export function sameSnapshotBody(previous: SnapshotBody | null, next: SnapshotBody): boolean {
  return previous !== null && samePlain(previous, next);
}
