/**
 * "While you were away", pure: the digest's entries in the panel's order (still waiting first, longest wait first;
 * then waits that ended, longest first; then turns finished, jobs ended, launches and errors, newest first) and the
 * words each line and the heading say. Labels only, as main recorded them.
 */
import { durationText } from '../../shared/usagePhrases';
import { whyPhrase } from '../../shared/activity';
import { digestTotals, type DigestEntry, type DigestKind, type DigestTotals } from '../../shared/history';
import { harnessText, roleText } from '../../shared/usagePhrases';

/** The panel's order of kinds. */
export const DIGEST_ORDER: readonly DigestKind[] = ['waiting', 'waited', 'turn-done', 'job-ended', 'launch', 'error'];

/** One line of the panel: the agent it centres on, what happened, and the details after it. */
export interface DigestLine {
  kind: DigestKind;
  personaId: string;
  /** A stable key for the entry (kind, agent, time). */
  key: string;
  text: string;
  detail: string;
}

const rank = (kind: DigestKind) => DIGEST_ORDER.indexOf(kind);
const timeOf = (entry: DigestEntry) => {
  const ms = Date.parse(entry.at);
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
};

/** The entries in the panel's order (a copy); waits without a known length go after the known ones of their kind. */
export function orderDigest(entries: readonly DigestEntry[]): DigestEntry[] {
  return [...entries].sort((a, b) => {
    const byKind = rank(a.kind) - rank(b.kind);
    if (byKind !== 0) return byKind;
    if (a.kind === 'waiting' || a.kind === 'waited') {
      const byWait = (b.waitedMs ?? -1) - (a.waitedMs ?? -1);
      if (byWait !== 0) return byWait;
    }
    return timeOf(b) - timeOf(a) || a.personaId.localeCompare(b.personaId);
  });
}

/** "45 s", "23 min", "1 h 5 min", "2 d 3 h": a waited time in milliseconds. */
export function waitPhrase(ms: number): string {
  // Whole minutes from a minute on (a wait is read at a glance), in the one style of durations.
  return durationText(ms < 60_000 ? ms : Math.floor(ms / 60_000) * 60_000);
}

/** What one entry says, as the panel shows it. */
export function digestLine(entry: DigestEntry): DigestLine {
  const key = `${entry.kind}|${entry.personaId}|${entry.at}|${entry.alias ?? entry.label ?? ''}`;
  const base = { kind: entry.kind, personaId: entry.personaId, key };
  // A wait's certainty is read when main gives it (an entry without it is worded as recorded).
  const certain = (entry as { certain?: boolean }).certain ?? true;
  const why = entry.why ? whyPhrase(entry.why, certain) : null;
  const waited = entry.waitedMs === undefined ? null : waitPhrase(entry.waitedMs);
  switch (entry.kind) {
    case 'waiting':
      return { ...base, text: `${entry.name} is still waiting${waited ? ` (${waited})` : ''}`, detail: join(why, entry.label) };
    case 'waited':
      return { ...base, text: `${entry.name} waited${waited ? ` ${waited}` : ''} for you`, detail: join(why, entry.label) };
    case 'turn-done': {
      const count = entry.count ?? 1;
      return { ...base, text: `${entry.name} finished ${count === 1 ? 'a turn' : `${count} turns`}`, detail: join(entry.role ? `as ${roleText(entry.role)}` : null) };
    }
    case 'job-ended':
      return { ...base, text: `${entry.name}'s job ${entry.alias ?? entry.label ?? ''} ended`.replace('  ', ' '), detail: join(entry.type, entry.outcome, entry.alias ? entry.label : null) };
    case 'launch':
      return { ...base, text: `${entry.name} was launched`, detail: join(entry.harness ? harnessText(entry.harness) : null, entry.role ? `as ${roleText(entry.role)}` : null) };
    case 'error':
      return { ...base, text: `${entry.name} stopped on an error`, detail: join(entry.label) };
    default:
      return entry.kind satisfies never;
  }
}

/**
 * The heading under the title: "2 waits for you · 5 turns finished · 1 job ended", from the totals of the whole digest
 * (the entries listed and those past the bound), or of the entries given.
 */
export function digestSummary(source: readonly DigestEntry[] | DigestTotals): string {
  const { waits, turns, jobs, launches, errors } = Array.isArray(source) ? digestTotals(source as readonly DigestEntry[]) : (source as DigestTotals);
  const parts: string[] = [];
  const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
  if (waits > 0) parts.push(plural(waits, 'wait for you', 'waits for you'));
  if (turns > 0) parts.push(plural(turns, 'turn finished', 'turns finished'));
  if (jobs > 0) parts.push(plural(jobs, 'job ended', 'jobs ended'));
  if (launches > 0) parts.push(plural(launches, 'launch', 'launches'));
  if (errors > 0) parts.push(plural(errors, 'error', 'errors'));
  return parts.join(' · ');
}

function join(...parts: (string | null | undefined)[]): string {
  return parts.filter((part): part is string => typeof part === 'string' && part.length > 0).join(' · ');
}
