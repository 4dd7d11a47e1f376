/**
 * The activity basis a harness's reducer folds its records into, and the one pure evaluation that turns it into the
 * snapshot's activity at a given time. Time-bound rules (approval after 10 s, turn-done after 5 s, idle after 30 min)
 * live here as a `later` step and the idle rule, so the fleet's refresh tick re-evaluates them without reading files.
 */
import { plausibleIso, plausibleMs } from './time';
import { ACTIVITY_LABEL_MAX, type Activity } from '../../../../shared/schemas';

/** What a seat's records say now, and what they will say if nothing new is written by a deadline. */
export interface ActivityBasis {
  /** The activity the records give as of their last line. */
  current: Activity;
  /** A state the seat moves to when no new record arrives by `atMs` (ms since epoch). */
  later?: { atMs: number; activity: Activity };
  /** How long the turn that just ended ran, in ms (null when its start is not in the records read). */
  turnMs?: number | null;
}

/** Common rule 7: a turn-done older than this (ms) is idle — the owner evidently moved on. */
export const IDLE_AFTER_TURN_MS = 30 * 60 * 1000;

/** The basis of a seat with no records of a conversation yet: idle, by lack of evidence. */
export const EMPTY_BASIS: ActivityBasis = { current: { state: 'idle', certain: false, since: null } };

/**
 * The activity at `nowMs`: the `later` step once its deadline passed, then rule 7 (turn-done → idle). `since` never
 * moves. A turn-done whose own time is unknown (absent, garbage, 1970, 9999) is measured from the seat's last write
 * (`lastWriteMs`, the file's or row's own time); with neither known it is idle, since unknown: nothing says the
 * turn ended lately, and a turn-done that can never be timed must not wait for the owner forever.
 */
export function evaluateActivity(basis: ActivityBasis, nowMs: number, lastWriteMs: number | null = null): Activity {
  const chosen = basis.later && nowMs >= basis.later.atMs ? basis.later.activity : basis.current;
  const activity = plausibleSince(chosen, nowMs);
  if (activity.state === 'needs-you' && activity.why === 'turn-done') {
    const fromMs = activity.since !== null ? Date.parse(activity.since) : plausibleMs(lastWriteMs);
    if (fromMs === null) return { state: 'idle', certain: false, since: null };
    if (nowMs - fromMs >= IDLE_AFTER_TURN_MS) return { state: 'idle', certain: activity.certain, since: activity.since };
  }
  return activity;
}

/** How far ahead of the fleet's clock a record's time may be (clock skew) before it is not believed, in ms. */
export const SINCE_AHEAD_MAX_MS = 24 * 60 * 60 * 1000;

/** Issue 36: a `since` that does not parse, is implausible or lies ahead of the clock is unknown (never "nope"). */
function plausibleSince(activity: Activity, nowMs: number): Activity {
  if (activity.since === null) return activity;
  const kept = plausibleIso(activity.since);
  // A clock outside the plausible range (a test's fixed clock at 0) checks only the range.
  if (kept !== null && (plausibleMs(nowMs) === null || Date.parse(kept) <= nowMs + SINCE_AHEAD_MAX_MS)) return activity;
  return { ...activity, since: null };
}

/** Whitespace that folding would change: any but a single space, two in a row, or a space at either end. */
const NOT_FOLDED = /[^\S ]| {2}|^ | $/;

/** Caps a label to the snapshot's limit, on a character boundary. */
export function capLabel(label: string): string {
  // Most labels are short and already single-spaced: kept as they are, without building a new string.
  if (label.length <= ACTIVITY_LABEL_MAX && !NOT_FOLDED.test(label)) return label;
  const folded = label.replace(/\s+/g, ' ').trim();
  // The contract counts UTF-16 units (zod's max), so the cap does too; a cut never splits a surrogate pair.
  if (folded.length <= ACTIVITY_LABEL_MAX) return folded;
  let kept = '';
  for (const char of folded) {
    if (kept.length + char.length > ACTIVITY_LABEL_MAX - 1) break;
    kept += char;
  }
  return `${kept}…`;
}

/** The last path segment of a file path (either separator), for labels such as "Edit · World.ts". */
export function baseName(filePath: string): string {
  const parts = filePath.split(/[\\/]/).filter((part) => part !== '');
  return parts.length > 0 ? parts[parts.length - 1] : filePath;
}

/** A working activity with an optional label. */
export function working(since: string | null, label?: string | null, certain = true): Activity {
  return label ? { state: 'working', certain, since, label: capLabel(label) } : { state: 'working', certain, since };
}

/** A needs-you activity. */
export function needs(why: NonNullable<Activity['why']>, certain: boolean, since: string | null, label?: string | null): Activity {
  return label ? { state: 'needs-you', why, certain, since, label: capLabel(label) } : { state: 'needs-you', why, certain, since };
}
