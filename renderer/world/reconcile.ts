/** Keyed reconciliation of records: unchanged records keep their identity so views can test `record !== previous`. */

/** The outcome of one reconciliation pass. */
export interface Reconciled<T> {
  /** The next records, in order; an unchanged one is the previous object. */
  records: T[];
  added: T[];
  changed: T[];
  removed: string[];
}

function sameValue(first: unknown, second: unknown): boolean {
  if (Object.is(first, second)) return true;
  if (!first || !second || typeof first !== 'object' || typeof second !== 'object') return false;
  const firstKeys = Object.keys(first);
  if (firstKeys.length !== Object.keys(second).length) return false;
  return firstKeys.every((key) => Object.is((first as Record<string, unknown>)[key], (second as Record<string, unknown>)[key]));
}

/** True when two flat records hold the same values (one level of nested objects compared by value). */
export function sameRecord<T extends object>(first: T, second: T): boolean {
  const keys = Object.keys(first) as (keyof T)[];
  if (keys.length !== Object.keys(second).length) return false;
  return keys.every((key) => sameValue(first[key], second[key]));
}

/** Matches next records to previous ones by id. */
export function reconcile<T extends object>(previous: ReadonlyMap<string, T>, next: readonly T[], idOf: (record: T) => string): Reconciled<T> {
  const records: T[] = [];
  const added: T[] = [];
  const changed: T[] = [];
  const seen = new Set<string>();
  for (const record of next) {
    const id = idOf(record);
    seen.add(id);
    const before = previous.get(id);
    if (!before) {
      added.push(record);
      records.push(record);
    } else if (before === record || sameRecord(before, record)) {
      records.push(before);
    } else {
      changed.push(record);
      records.push(record);
    }
  }
  const removed = [...previous.keys()].filter((id) => !seen.has(id));
  return { records, added, changed, removed };
}
