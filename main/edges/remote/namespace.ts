/**
 * Remote ids: every id a remote sends (seat, persona, candidate) is shown here as `@<host>:<id>`. Local ids never start
 * with `@` (seat ids start with their harness, persona ids with `p_`), so a local and a remote id cannot collide.
 */
import { clockMinutesText } from '../../../shared/usagePhrases';
import type { Candidate, Persona, Seat } from '../../../shared/schemas';
import type { Job } from '../../../shared/jobs';

/** The id of a remote record as this host shows it. */
export function remoteId(host: string, id: string): string {
  return `@${host}:${id}`;
}

/** The host and the remote's own id of a namespaced id, or null for a local id. */
export function splitRemoteId(id: string): { host: string; id: string } | null {
  if (!id.startsWith('@')) return null;
  const colon = id.indexOf(':');
  if (colon < 2) return null;
  return { host: id.slice(1, colon), id: id.slice(colon + 1) };
}

/** The hour and minute of an instant in this machine's time zone, as "HH:MM". */
export function clockTime(iso: string): string {
  return clockMinutesText(iso);
}

/** A remote seat as shown here: ids namespaced, its host named; while unreachable, its last known self greyed to unknown. */
export function localSeat(host: string, seat: Seat, unreachableSince: string | null): Seat {
  const shown: Seat = { ...seat, id: remoteId(host, seat.id), personaId: remoteId(host, seat.personaId), host };
  if (unreachableSince === null) return shown;
  // Subagents and usage become unknown (never 0); the seat stays, greyed, with why.
  const { subagents: _subagents, usage: _usage, ...rest } = shown;
  return {
    ...rest,
    activity: { state: 'unknown', certain: false, since: null },
    unknownReason: `${host} unreachable since ${clockTime(unreachableSince)}`,
    unreachableSince,
  };
}

/** A remote persona as shown here. */
export function localPersona(host: string, persona: Persona): Persona {
  return { ...persona, id: remoteId(host, persona.id), host };
}

/** A remote candidate as shown here (listed under its host in the lobby). */
export function localCandidate(host: string, candidate: Candidate): Candidate {
  return { ...candidate, id: remoteId(host, candidate.id), host };
}

/** A remote job as shown here. */
export function localJob(host: string, job: Job): Job {
  return { ...job, seatId: remoteId(host, job.seatId), personaId: remoteId(host, job.personaId), host };
}
