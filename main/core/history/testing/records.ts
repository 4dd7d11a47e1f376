/** Builders of seats, personas and jobs for the history tests and the bench (no I/O). */
import type { Job } from '../../../../shared/jobs';
import type { Activity, Persona, Seat } from '../../../../shared/schemas';

/** A persona with a fixed look. */
export function persona(id: string, name: string, role?: string): Persona {
  return { id, name, appearance: { body: 1, hair: 2, palette: 3, accessory: 0 }, ...(role ? { role } : {}), createdAt: '2026-12-01T00:00:00.000Z', updatedAt: '2026-12-01T00:00:00.000Z' };
}

/** A Claude seat held by `personaId` with the given activity. */
export function seat(id: string, personaId: string, activity: Activity): Seat {
  return {
    id,
    harness: 'claude',
    personaId,
    address: { harness: 'claude', home: '/home/owner/.claude', sessionId: id.replace(/^claude:/, ''), cwd: '/src/app', path: null },
    activity,
    subagents: { running: 0, recent: [] },
  };
}

/** An activity at ISO `since`. */
export function activity(state: Activity['state'], since: string | null, why?: Activity['why'], label?: string): Activity {
  return { state, ...(why ? { why } : {}), certain: true, since, ...(label ? { label } : {}) };
}

/** A job of a seat. */
export function job(seatId: string, personaId: string, nativeId: string, startedAt: string, ended?: { at: string; outcome: Job['outcome'] }): Job {
  return {
    alias: `explore-${nativeId}`,
    nativeId,
    seatId,
    personaId,
    persona: personaId,
    role: null,
    harness: 'claude',
    type: 'Explore',
    label: 'Map the modules',
    kind: 'foreground',
    state: ended ? 'ended' : 'running',
    startedAt,
    ...(ended ? { endedAt: ended.at, outcome: ended.outcome } : {}),
    replayable: true,
  };
}
