/**
 * The record census every reader keeps per seat (issue 29): the record kinds and fields it met that its rules do not
 * know, by name only, with the newest harness version that carried each. It is fed from the records a reader parses
 * anyway (no extra read), kept in the seat's fold (reset with it on a cold read) and turned into the snapshot's
 * `drift` only when something unknown was seen. Pure.
 */
import { compareVersions, DRIFT_NAME_MAX, DRIFT_NAMES_MAX, DRIFT_VERSION_MAX, outsideTested, type Drift, type DriftName, type TestedRange } from '../../../../shared/drift';

/** What a reader's rules know: the kinds and fields of its format notes and fixtures, and the versions they cover. */
export interface KnownFormat {
  /** Record kinds (line types, part types, content block kinds) the reader's rules name. */
  kinds: ReadonlySet<string>;
  /** Field names the reader's rules and fixtures show on its records. */
  fields: ReadonlySet<string>;
  /** The version range the reader's fixtures cover (RULES.md says the same). */
  tested: TestedRange;
}

interface Tally {
  count: number;
  version: string | null;
}

/** One seat's census since its last cold read. Mutated in place by the `note*` functions. */
export interface RecordCensus {
  /** The newest version the records stated (null: none yet). */
  version: string | null;
  kinds: Map<string, Tally>;
  fields: Map<string, Tally>;
  /** Distinct names not kept because a list was full. */
  more: number;
  /** True when the newest record noted was of an unknown kind. */
  newestUnknown: boolean;
  /** Bumped on every unknown noted, so a reader can tell the census changed. */
  changes: number;
}

/** A fresh census (for a seat's first read and every cold read). */
export function createCensus(): RecordCensus {
  return { version: null, kinds: new Map(), fields: new Map(), more: 0, newestUnknown: false, changes: 0 };
}

/** Notes the version a record states (keeps the newest); other values are ignored. */
export function noteVersion(census: RecordCensus, version: unknown): void {
  // Most records state the version the newest did: the same string needs no comparison.
  if (version === census.version || typeof version !== 'string' || version === '' || version.length > DRIFT_VERSION_MAX) return;
  if (census.version === null || compareVersions(version, census.version) > 0) census.version = version;
}

function tally(census: RecordCensus, into: Map<string, Tally>, name: string, count = 1): void {
  const found = into.get(name);
  census.changes += 1;
  if (found) {
    found.count += count;
    found.version = census.version;
    return;
  }
  if (into.size >= DRIFT_NAMES_MAX) {
    census.more += 1;
    return;
  }
  into.set(name.length > DRIFT_NAME_MAX ? `${name.slice(0, DRIFT_NAME_MAX - 1)}…` : name, { count, version: census.version });
}

/**
 * Notes one record's kind; `newest` says the record is the newest so far (a line read in file order), so whether it
 * is unknown decides `newestUnknown`. Returns true when the kind is known.
 */
export function noteKind(census: RecordCensus, known: KnownFormat, kind: string, newest = true): boolean {
  const isKnown = known.kinds.has(kind);
  if (!isKnown) tally(census, census.kinds, kind);
  if (newest) census.newestUnknown = !isKnown;
  return isKnown;
}

/** Notes a kind that is not the record's own (a content block inside it): counted, never the newest record. */
export function noteInnerKind(census: RecordCensus, known: KnownFormat, kind: string): void {
  if (!known.kinds.has(kind)) tally(census, census.kinds, kind);
}

/** Notes `count` records of one kind or carrying one field at once (a store that counts in its own queries). */
export function noteCount(census: RecordCensus, known: KnownFormat, list: 'kinds' | 'fields', name: string, count: number): void {
  if (count <= 0 || (list === 'kinds' ? known.kinds : known.fields).has(name)) return;
  tally(census, list === 'kinds' ? census.kinds : census.fields, name, count);
}

/** Notes the keys of one record that `known.fields` does not name (names only). */
export function noteFields(census: RecordCensus, known: KnownFormat, record: object, prefix = ''): void {
  for (const key in record) {
    if (!known.fields.has(prefix + key)) tally(census, census.fields, prefix + key);
  }
}

function listOf(tallies: Map<string, Tally>): DriftName[] {
  return [...tallies].map(([name, { count, version }]) => ({ name, count, version })).sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : 1));
}

/** The snapshot's drift of a census, or undefined when nothing unknown was seen. */
export function driftOf(census: RecordCensus, known: KnownFormat): Drift | undefined {
  if (census.kinds.size === 0 && census.fields.size === 0) return undefined;
  const kinds = listOf(census.kinds);
  const fields = listOf(census.fields);
  const outside = [...kinds, ...fields].some((entry) => outsideTested(entry.version ?? census.version, known.tested));
  return { kinds, fields, more: census.more, version: census.version, tested: known.tested, outside, newestUnknown: census.newestUnknown };
}

/** What a reader hands the fleet and `doctor` about a seat's records: the version stated and the drift, if any. */
export interface CensusView {
  version: string | null;
  tested: TestedRange;
  drift?: Drift;
}

/** The census view of a seat (a new object per call; readers cache it with their projection). */
export function censusView(census: RecordCensus, known: KnownFormat): CensusView {
  const drift = driftOf(census, known);
  return drift ? { version: census.version, tested: known.tested, drift } : { version: census.version, tested: known.tested };
}
