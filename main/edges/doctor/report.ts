/**
 * `pixelfleet doctor`'s report, pure: per harness, the seats read, the versions their records state, the tested
 * range, the unknown kinds and fields summed over seats with the newest version each appeared in, what could not
 * be read and why, and the verdict — `unreadable` when a store or file could not be read, else `drift` when an
 * unknown kind or field came from a version newer than the tested range (or stating none), else `ok`.
 */
import { compareVersions, outsideTested, type TestedRange } from '../../../shared/drift';
import type { Harness } from '../../../shared/schemas';
import type { CensusView } from '../../sources/readers/kit/census';

/** A harness's verdict. */
export type Verdict = 'ok' | 'drift' | 'unreadable';

/** Exit codes by verdict: 0 ok, 1 drift, 2 unreadable. */
export const VERDICT_EXIT: Record<Verdict, number> = { ok: 0, drift: 1, unreadable: 2 };

/** An unknown kind or field over a harness's seats. */
export interface UnknownName {
  name: string;
  count: number;
  /** The newest version it appeared in (null: no record carrying it stated one). */
  version: string | null;
  /** Seats whose records carried it. */
  seats: number;
  /** True when it appeared in a version newer than the tested range, or in records stating none. */
  outside: boolean;
}

/** What doctor gathered for one harness (the I/O side fills it). */
export interface HarnessFindings {
  harness: Harness;
  name: string;
  homes: Array<{ path: string; found: boolean }>;
  /** `seats`: the opened seats of personas.json; `sample`: the newest sessions under the homes (no seats opened). */
  source: 'seats' | 'sample';
  tested: TestedRange;
  /** Each seat read, with its census. */
  censuses: CensusView[];
  /** Stores or files that could not be read, and why. */
  unreadable: Array<{ what: string; reason: string }>;
  /** Opened seats that no longer resolve under the homes (listed, not read; not a verdict of their own). */
  missing: Array<{ what: string; reason: string }>;
}

/** One harness's section of the report. */
export interface HarnessReport {
  harness: Harness;
  name: string;
  verdict: Verdict;
  homes: Array<{ path: string; found: boolean }>;
  source: 'seats' | 'sample';
  seats: number;
  versions: Array<{ version: string | null; seats: number }>;
  tested: TestedRange;
  unknownKinds: UnknownName[];
  unknownFields: UnknownName[];
  unreadable: Array<{ what: string; reason: string }>;
  missing: Array<{ what: string; reason: string }>;
}

/** The whole report: the app home read, whether it was a demo's, each harness, and the worst verdict. */
export interface DoctorReport {
  home: string;
  demo: boolean;
  verdict: Verdict;
  harnesses: HarnessReport[];
}

function newer(left: string | null, right: string | null): string | null {
  if (left === null) return right;
  if (right === null) return left;
  return compareVersions(left, right) >= 0 ? left : right;
}

function sumNames(censuses: CensusView[], pick: 'kinds' | 'fields', tested: TestedRange): UnknownName[] {
  const byName = new Map<string, UnknownName>();
  for (const census of censuses) {
    for (const entry of census.drift?.[pick] ?? []) {
      const version = entry.version ?? census.version;
      const found = byName.get(entry.name) ?? { name: entry.name, count: 0, version: null, seats: 0, outside: false };
      found.count += entry.count;
      found.seats += 1;
      found.version = newer(found.version, version);
      found.outside ||= outsideTested(version, tested);
      byName.set(entry.name, found);
    }
  }
  return [...byName.values()].sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : 1));
}

/** One harness's report from what was gathered. */
export function harnessReport(findings: HarnessFindings): HarnessReport {
  const versions = new Map<string | null, number>();
  for (const census of findings.censuses) versions.set(census.version, (versions.get(census.version) ?? 0) + 1);
  const unknownKinds = sumNames(findings.censuses, 'kinds', findings.tested);
  const unknownFields = sumNames(findings.censuses, 'fields', findings.tested);
  const drift = [...unknownKinds, ...unknownFields].some((entry) => entry.outside);
  const verdict: Verdict = findings.unreadable.length > 0 ? 'unreadable' : drift ? 'drift' : 'ok';
  return {
    harness: findings.harness,
    name: findings.name,
    verdict,
    homes: findings.homes,
    source: findings.source,
    seats: findings.censuses.length,
    versions: [...versions]
      .map(([version, seats]) => ({ version, seats }))
      .sort((a, b) => (a.version === null ? 1 : b.version === null ? -1 : compareVersions(b.version, a.version))),
    tested: findings.tested,
    unknownKinds,
    unknownFields,
    unreadable: findings.unreadable,
    missing: findings.missing,
  };
}

/** The report over every harness; its verdict is the worst of theirs. */
export function doctorReport(home: string, demo: boolean, findings: HarnessFindings[]): DoctorReport {
  const harnesses = findings.map(harnessReport);
  const worst = harnesses.reduce<Verdict>((verdict, report) => (VERDICT_EXIT[report.verdict] > VERDICT_EXIT[verdict] ? report.verdict : verdict), 'ok');
  return { home, demo, verdict: worst, harnesses };
}

/** The report as text lines for a person. */
export function reportText(report: DoctorReport): string {
  const lines = [`Pixelfleet doctor: ${report.verdict}${report.demo ? ' (the demo fleet in this home)' : ''}`];
  for (const harness of report.harnesses) {
    lines.push('', `${harness.name}: ${harness.verdict}`);
    for (const home of harness.homes) lines.push(`  home ${home.path}${home.found ? '' : ' (not found)'}`);
    const read = harness.source === 'seats' ? 'opened seats' : 'newest sessions (no seat opened)';
    lines.push(`  read ${harness.seats} ${read}; tested ${harness.tested.from} to ${harness.tested.to}`);
    if (harness.versions.length > 0) lines.push(`  versions: ${harness.versions.map((entry) => `${entry.version ?? 'not stated'} (${entry.seats})`).join(', ')}`);
    for (const [label, list] of [['unknown kinds', harness.unknownKinds], ['unknown fields', harness.unknownFields]] as const) {
      if (list.length === 0) continue;
      lines.push(`  ${label}: ${list.map((entry) => `${entry.name} ×${entry.count} (newest ${entry.version ?? 'version not stated'}${entry.outside ? ', untested' : ''})`).join(', ')}`);
    }
    for (const entry of harness.unreadable) lines.push(`  unreadable: ${entry.what}: ${entry.reason}`);
    for (const entry of harness.missing) lines.push(`  not found: ${entry.what}: ${entry.reason}`);
  }
  return `${lines.join('\n')}\n`;
}
