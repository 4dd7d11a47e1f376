/**
 * Format drift on a seat: the record kinds and fields its harness wrote that the reader's rules do not know (names
 * only, never values), the newest harness version they appeared in, and whether that is outside the version range
 * the reader's fixtures cover. zod only (shared layer). Absent on a seat means nothing unknown was seen.
 */
import { z } from 'zod';

/** Most unknown names a seat reports per list (kinds, fields); later ones are counted in `more`. */
export const DRIFT_NAMES_MAX = 32;
/** Longest name kept, in characters (a record's own type or key name). */
export const DRIFT_NAME_MAX = 80;
/** Longest version string kept, in characters. */
export const DRIFT_VERSION_MAX = 40;

const version = z.string().max(DRIFT_VERSION_MAX);

/** One unknown kind or field: how many records carried it and the newest version among them (null: none stated). */
export const DriftNameSchema = z.object({
  name: z.string().max(DRIFT_NAME_MAX),
  count: z.number().int().positive(),
  version: version.nullable(),
});
export type DriftName = z.infer<typeof DriftNameSchema>;

/** The version range a reader's fixtures cover (inclusive). */
export const TestedRangeSchema = z.object({ from: version, to: version });
export type TestedRange = z.infer<typeof TestedRangeSchema>;

/**
 * A seat's drift. `outside` is true when an unknown kind or field came from a record of a version newer than the
 * tested range, or stating no version; `newestUnknown` when the newest record read is of an unknown kind (its
 * activity is then uncertain).
 */
export const DriftSchema = z.object({
  kinds: z.array(DriftNameSchema).max(DRIFT_NAMES_MAX),
  fields: z.array(DriftNameSchema).max(DRIFT_NAMES_MAX),
  /** Distinct unknown names past the lists' bound, not listed. */
  more: z.number().int().nonnegative(),
  /** The newest harness version the seat's records state (null: none stated). */
  version: version.nullable(),
  tested: TestedRangeSchema,
  outside: z.boolean(),
  newestUnknown: z.boolean(),
});
export type Drift = z.infer<typeof DriftSchema>;

/**
 * Compares two dotted versions by their numeric parts (`2.1.9` < `2.1.114`); a pre-release suffix sorts before its
 * release. Negative, zero or positive like a sort comparator.
 */
export function compareVersions(left: string, right: string): number {
  const split = (text: string) => {
    const [core, pre] = text.trim().replace(/^v/i, '').split('-', 2);
    return { parts: core.split('.').map((part) => Number.parseInt(part, 10) || 0), pre: pre ?? null };
  };
  const a = split(left);
  const b = split(right);
  for (let index = 0; index < Math.max(a.parts.length, b.parts.length); index++) {
    const difference = (a.parts[index] ?? 0) - (b.parts[index] ?? 0);
    if (difference !== 0) return difference;
  }
  if (a.pre === b.pre) return 0;
  if (a.pre === null) return 1;
  if (b.pre === null) return -1;
  return a.pre < b.pre ? -1 : 1;
}

/** True when records of `version` are outside what the fixtures cover: newer than the range, or no version stated. */
export function outsideTested(version: string | null, tested: TestedRange): boolean {
  return version === null || compareVersions(version, tested.to) > 0;
}

/** The kinds a seat's drift mark names: its unknown kinds, only when they come from outside the tested range. */
export function markedKinds(drift: Drift | undefined): string[] | null {
  if (!drift || !drift.outside || drift.kinds.length === 0) return null;
  return drift.kinds.map((kind) => kind.name);
}

/** The sentence the hover card and the mirror say for a drift mark (names only), or null without one. */
export function driftPhrase(drift: Drift | undefined): string | null {
  const kinds = markedKinds(drift);
  if (!kinds || !drift) return null;
  const shown = kinds.slice(0, 4).join(', ') + (kinds.length > 4 || drift.more > 0 ? ` and ${kinds.length - Math.min(4, kinds.length) + drift.more} more` : '');
  const from = drift.version ? `version ${drift.version}, newer than the tested ${drift.tested.to}` : 'a version the records do not state';
  return `Unknown record kinds ${shown} (${from}): counts may be incomplete.`;
}
