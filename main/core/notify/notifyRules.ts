/**
 * Which fleet changes deserve a desktop notification (pure). Rules:
 * N1: nothing for the states present at start-up (the first census is the baseline).
 * N2: nothing for a seat that comes into the fleet already waiting (its state was present when it arrived).
 * N3: a seat that enters needs-you for a reason the settings list notifies once; `turn-done` only after a turn of at
 *     least `minTurnSeconds` (a turn of unknown length does not notify).
 * N4: at most one per seat per state change: a state is its (state, why, since); a re-evaluation that keeps it
 *     never notifies again.
 * N5: a job's reminder or finish (decided by the jobs board's reminder clock, rules R1–R4) notifies once per notice
 *     id, through the same delivery, naming the parent agent so a click focuses it.
 * Whether the window has focus is the delivery's concern (none while it has focus: the queue is enough then).
 */
import { whyPhrase } from '../../../shared/activity';
import type { Notification } from '../../../shared/contract';
import type { Activity, FleetSnapshot } from '../../../shared/schemas';
import { baseName } from '../../sources/readers/kit/activityBasis';
import type { JobNotice } from '../jobs/reminders';
import type { NotifySettings } from './notifySettings';

/** The identity of a seat's state for rule N4. */
export function stateKey(activity: Activity): string {
  return `${activity.state}|${activity.why ?? ''}|${activity.since ?? ''}`;
}

/** Each seat's state key as of the last census seen; null before the first. */
export type StateMarks = Map<string, string> | null;

/** The notifications one new snapshot deserves, and the marks to compare the next one with. */
export function decideNotifications(
  previous: StateMarks,
  snapshot: Pick<FleetSnapshot, 'seats' | 'personas'>,
  turnMsOf: (seatId: string) => number | null,
  settings: NotifySettings,
): { notes: Notification[]; marks: Map<string, string> } {
  const marks = new Map<string, string>();
  const notes: Notification[] = [];
  const names = new Map(snapshot.personas.map((persona) => [persona.id, persona.name]));
  for (const seat of snapshot.seats) {
    const key = stateKey(seat.activity);
    marks.set(seat.id, key);
    const before = previous?.get(seat.id);
    if (before === undefined || before === key) continue; // N1, N2, N4
    const { activity } = seat;
    if (activity.state !== 'needs-you' || !activity.why || !settings.on.includes(activity.why)) continue;
    if (activity.why === 'turn-done') {
      const turnMs = turnMsOf(seat.id);
      if (turnMs === null || turnMs < settings.minTurnSeconds * 1000) continue; // N3
    }
    const project = seat.address.cwd ? baseName(seat.address.cwd) : null;
    const body = [whyPhrase(activity.why, activity.certain), activity.label, project ? `in ${project}` : null].filter(Boolean).join(' · ');
    notes.push({ seatId: seat.id, personaId: seat.personaId, title: names.get(seat.personaId) ?? seat.personaId, body, why: activity.why, certain: activity.certain, sound: settings.sound });
  }
  return { notes, marks };
}

/** Rule N5: the notification of a job's reminder or finish (labels only: alias, label, parent's name, outcome). */
export function jobNotification(notice: JobNotice, settings: Pick<NotifySettings, 'sound'>): Notification {
  return {
    seatId: notice.seatId,
    personaId: notice.personaId,
    title: notice.title,
    body: notice.body,
    job: { id: notice.id, kind: notice.kind, alias: notice.alias, nativeId: notice.nativeId },
    // The reminder clock, not a heuristic, decided it.
    certain: true,
    sound: settings.sound,
  };
}
