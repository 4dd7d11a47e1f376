/**
 * Seat confinement: a seat address is always resolved by the service from discovery under the configured harness
 * homes. A client names a session (harness + session id, the candidate id); the address stored and read is the one
 * discovery produced for that candidate. A path, home or cwd sent by a client is never used.
 */
import type { Candidate, SeatAddress } from '../../shared/schemas';
import { ServiceError } from '../errors';
import { seatIdOf } from './seatId';

/** Where candidates come from: the fleet's discovery (cached, or fresh on request). */
export interface CandidateSource {
  candidates(options?: { refresh?: boolean }): Promise<Candidate[]>;
}

/** A resolved seat, or why it does not resolve. */
export type SeatResolution = { ok: true; seat: SeatAddress } | { ok: false; reason: string };

/** The rule's sentence, named in every refusal. */
export const SEAT_RULE = 'a seat must be a session that discovery lists under the configured harness homes';

/** Resolves a candidate id (`<harness>:<session id>`) to the address discovery gives it; asks afresh once if absent. */
export async function resolveCandidate(source: CandidateSource, candidateId: string): Promise<SeatResolution> {
  let found = (await source.candidates()).find((candidate) => candidate.id === candidateId);
  found ??= (await source.candidates({ refresh: true })).find((candidate) => candidate.id === candidateId);
  if (!found) return { ok: false, reason: `No session ${shown(candidateId)} is found under the configured harness homes (${SEAT_RULE}).` };
  return { ok: true, seat: found.seat };
}

/** Resolves a client-supplied address by its session alone; its path, home and cwd are ignored. */
export function resolveSeat(source: CandidateSource, seat: SeatAddress): Promise<SeatResolution> {
  return resolveCandidate(source, seatIdOf(seat));
}

/** As resolveSeat for a request: null and absent pass through; a seat that does not resolve is refused. */
export async function confineSeat<T extends SeatAddress | null | undefined>(source: CandidateSource, seat: T): Promise<T> {
  if (seat === null || seat === undefined) return seat;
  const resolution = await resolveSeat(source, seat);
  if (!resolution.ok) throw new ServiceError('invalid_request', `The seat is refused: ${resolution.reason} Nothing was stored.`);
  return resolution.seat as T;
}

/** At most 80 characters of a client's value in a message. */
function shown(value: string): string {
  return value.length > 80 ? `${value.slice(0, 79)}…` : value;
}
