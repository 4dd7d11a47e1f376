/**
 * The lobby's rows, pure: each discovered session with its real folder (home shown as `~`), harness, last activity
 * with its date, size and who holds it, filtered by what the owner types and sorted by last activity, newest first.
 */
import type { Candidate, Harness } from '../../shared/schemas';
import { tildePath } from './agentCard';
import { HARNESS_NAMES } from './harnessMark';

/** One host's part of the lobby: its rows, or why it could not list them (null: it did). */
export interface LobbyGroup {
  /** null: this machine. */
  host: string | null;
  rows: LobbyRow[];
  unreachable: string | null;
}

/**
 * The lobby's rows by host: this machine's first, then each remote's in name order, a remote that could not list its
 * sessions included with why (issue 38: never silently left out). A host with no row (filtered out) is not shown,
 * unless it is unreachable.
 */
export function lobbyGroups(rows: readonly LobbyRow[], unreachable: readonly { host: string; reason: string }[]): LobbyGroup[] {
  const groups = new Map<string | null, LobbyGroup>([[null, { host: null, rows: [], unreachable: null }]]);
  for (const row of rows) {
    let group = groups.get(row.host);
    if (!group) groups.set(row.host, (group = { host: row.host, rows: [], unreachable: null }));
    group.rows.push(row);
  }
  for (const entry of unreachable) {
    const group = groups.get(entry.host);
    if (group) group.unreachable = entry.reason;
    else groups.set(entry.host, { host: entry.host, rows: [], unreachable: entry.reason });
  }
  return [...groups.values()].sort((first, second) => (first.host === null ? -1 : second.host === null ? 1 : first.host.localeCompare(second.host)));
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
/** Days back a weekday still names a time unambiguously (a week ago would repeat today's weekday). */
const WEEKDAY_SPAN = 6;

const twoDigits = (value: number) => String(value).padStart(2, '0');

/** Midnight (local) of the day a time falls on, in ms. */
function dayStart(time: Date): number {
  return new Date(time.getFullYear(), time.getMonth(), time.getDate()).getTime();
}

/**
 * When something last happened, in the owner's local time: "today 14:02" on the same day, "Mon 09:10" within the
 * previous six days, "12 Nov" earlier this year, "12 Nov 2025" before that; "—" when the time does not parse.
 */
export function activityWhen(iso: string, now: Date): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '—';
  const time = new Date(ms);
  const clock = `${twoDigits(time.getHours())}:${twoDigits(time.getMinutes())}`;
  // Whole calendar days between the two dates; rounding absorbs a daylight-saving hour.
  const days = Math.round((dayStart(now) - dayStart(time)) / 86_400_000);
  if (days <= 0) return `today ${clock}`;
  if (days <= WEEKDAY_SPAN) return `${WEEKDAYS[time.getDay()]} ${clock}`;
  const date = `${time.getDate()} ${MONTHS[time.getMonth()]}`;
  return time.getFullYear() === now.getFullYear() ? date : `${date} ${time.getFullYear()}`;
}

/** A transcript's size for the owner ("812 B", "14 KB", "2.3 MB"); OpenCode keeps no per-session file, so "—". */
export function sizeText(bytes: number, harness: Harness): string {
  if (harness === 'opencode') return '—';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  const megabytes = bytes / (1024 * 1024);
  return `${megabytes < 10 ? megabytes.toFixed(1) : Math.round(megabytes)} MB`;
}

/** One row of the lobby. */
export interface LobbyRow {
  id: string;
  harness: Harness;
  /** The project folder with the home as `~`, or null when the session does not say. */
  folder: string | null;
  when: string;
  size: string;
  opened: boolean;
  /** The name of the agent holding the session, when it is opened. */
  openedBy: string | null;
  /** The remote host the session is on (issue 28), or null for this machine. */
  host: string | null;
}

/**
 * The rows for a filter (case-insensitive words, each found in the folder, harness, holder or session id), newest
 * activity first.
 */
export function lobbyRows(candidates: readonly Candidate[], filter: string, ownerHome: string | undefined, now: Date): LobbyRow[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  return candidates
    .map((candidate) => ({ candidate, time: Date.parse(candidate.lastActivity) }))
    .sort((first, second) => (Number.isNaN(second.time) ? -Infinity : second.time) - (Number.isNaN(first.time) ? -Infinity : first.time) || first.candidate.id.localeCompare(second.candidate.id))
    .map(({ candidate }): LobbyRow => ({
      id: candidate.id,
      harness: candidate.harness,
      folder: candidate.cwdHint ? tildePath(candidate.cwdHint, ownerHome) : null,
      when: activityWhen(candidate.lastActivity, now),
      size: sizeText(candidate.size, candidate.harness),
      opened: candidate.opened === true,
      openedBy: candidate.openedBy ?? null,
      host: candidate.host ?? null,
    }))
    .filter((row) => {
      if (words.length === 0) return true;
      const haystack = [row.folder ?? '', HARNESS_NAMES[row.harness], row.harness, row.openedBy ?? '', row.id, row.host ?? ''].join(' ').toLowerCase();
      return words.every((word) => haystack.includes(word));
    });
}
