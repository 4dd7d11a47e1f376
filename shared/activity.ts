/**
 * Pure rules over seat activity shared by main, the CLI and the page: the needs-you queue (oldest first) and the
 * words the world uses for each state. No I/O.
 */
import { shortDurationText } from './usagePhrases';
import type { Activity, FleetSnapshot, Harness, NeedsWhy } from './schemas';

/** One entry of the needs-you queue: a seat that waits for the owner, and why. */
export interface NeedsYouEntry {
  seatId: string;
  personaId: string;
  persona: string;
  harness: Harness;
  why: NeedsWhy;
  certain: boolean;
  since: string | null;
  label: string | null;
  /** The remote host the seat is on; absent means this machine. */
  host?: string;
}

/** The activity of a seat that cannot be read: unknown, never a guess. */
export const UNKNOWN_ACTIVITY: Activity = { state: 'unknown', certain: false, since: null };

/** Milliseconds of an ISO time, or +Infinity when absent or malformed (so unknown times sort last). */
function sinceMs(since: string | null): number {
  if (since === null) return Number.POSITIVE_INFINITY;
  const ms = Date.parse(since);
  return Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms;
}

/** The needs-you queue of a snapshot: one entry per seat that needs the owner, oldest `since` first (ties by seat id). */
export function needsYouQueue(snapshot: Pick<FleetSnapshot, 'seats' | 'personas'>): NeedsYouEntry[] {
  // Each time is read once, not at every comparison of the sort (the page sorts dozens on every fleet update).
  const waiting: { entry: NeedsYouEntry; at: number }[] = [];
  let names: Map<string, string> | null = null;
  for (const seat of snapshot.seats) {
    const { activity } = seat;
    if (activity.state !== 'needs-you' || !activity.why) continue;
    names ??= new Map(snapshot.personas.map((persona) => [persona.id, persona.name]));
    const entry: NeedsYouEntry = {
      seatId: seat.id,
      personaId: seat.personaId,
      persona: names.get(seat.personaId) ?? seat.personaId,
      harness: seat.harness,
      why: activity.why,
      certain: activity.certain,
      since: activity.since,
      label: activity.label ?? null,
      ...(seat.host !== undefined ? { host: seat.host } : {}),
    };
    waiting.push({ entry, at: sinceMs(activity.since) });
  }
  // Unknown times are +Infinity: two of them compare as NaN, and the seat ids decide.
  waiting.sort((a, b) => a.at - b.at || a.entry.seatId.localeCompare(b.entry.seatId));
  return waiting.map(({ entry }) => entry);
}

/** A short phrase for why a seat waits, as the queue, the card and notifications say it. */
export function whyPhrase(why: NeedsWhy, certain: boolean): string {
  switch (why) {
    case 'question':
      return 'has a question';
    case 'plan':
      return 'waits for plan approval';
    case 'approval':
      return certain ? 'waits for approval' : 'may wait for approval (or runs a long tool)';
    case 'turn-done':
      return certain ? 'finished its turn' : 'seems to have finished its turn';
    case 'interrupted':
      return 'was interrupted';
    case 'error':
      return 'stopped on an error';
    default:
      return why satisfies never;
  }
}

/** A phrase for a whole activity (card and accessible mirror). */
export function activityPhrase(activity: Activity): string {
  switch (activity.state) {
    case 'working':
      return activity.label ? `working: ${activity.label}` : 'working';
    case 'needs-you':
      return activity.why ? `needs you: ${whyPhrase(activity.why, activity.certain)}${activity.label ? ` (${activity.label})` : ''}` : 'needs you';
    case 'idle':
      return 'idle';
    case 'unknown':
      return 'unknown';
    default:
      return activity.state satisfies never;
  }
}

/** Earliest time shown as a "since" (2000-01-01): before it a record's time is not believed (issue 36). */
const SHOWN_SINCE_FROM_MS = Date.UTC(2000, 0, 1);
/** How far ahead of the page's clock a "since" may be (clock skew) before it is not believed, in ms. */
const SHOWN_SINCE_AHEAD_MS = 24 * 60 * 60 * 1000;

/** "12 s", "4 min", "2 h", "3 d" since an ISO time; "" when the time is not known or not believable (never "0 s" for 9999). */
export function elapsedPhrase(since: string | null, nowMs: number): string {
  const ms = since === null ? Number.NaN : Date.parse(since);
  if (Number.isNaN(ms) || ms < SHOWN_SINCE_FROM_MS || ms > nowMs + SHOWN_SINCE_AHEAD_MS) return '';
  return shortDurationText(nowMs - ms);
}

