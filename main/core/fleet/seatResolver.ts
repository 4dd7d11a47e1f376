/**
 * Seat confinement: a seat address is always resolved by the service from discovery under the configured harness
 * homes. A client names a session (harness + session id, the candidate id); the address stored and read is the one
 * discovery gives that session. A path, home or cwd sent by a client, or found in the store, is never used.
 */
import { HarnessSchema, type Harness, type SeatAddress } from '../../../shared/schemas';
import { shownValue } from '../../../shared/bounds';
import { ServiceError } from '../../kit/errors';

/** Where sessions are resolved: the fleet's readers, each under its configured home, by session id. */
export interface SessionResolver {
  resolveSession(harness: Harness, sessionId: string): Promise<SeatResolution>;
}

/** A resolved seat, or why it does not resolve. */
export type SeatResolution = { ok: true; seat: SeatAddress } | { ok: false; reason: string };

/** The rule's sentence, named in every refusal. */
export const SEAT_RULE = 'a seat must be a session that discovery lists under the configured harness homes';

/** The refusal of a session the readers do not find (the client's value shown at most 80 characters long). */
export function unresolvedReason(candidateId: string): string {
  return `No session ${shownValue(candidateId)} is found under the configured harness homes (${SEAT_RULE}).`;
}

/** Resolves a candidate id (`<harness>:<session id>`) to the address discovery gives that session. */
export function resolveCandidate(source: SessionResolver, candidateId: string): Promise<SeatResolution> {
  const split = candidateId.indexOf(':');
  const harness = HarnessSchema.safeParse(split > 0 ? candidateId.slice(0, split) : '');
  if (!harness.success) return Promise.resolve({ ok: false, reason: unresolvedReason(candidateId) });
  return source.resolveSession(harness.data, candidateId.slice(split + 1));
}

/** Resolves an address by its session alone; its path, home and cwd are ignored. */
export function resolveSeat(source: SessionResolver, seat: SeatAddress): Promise<SeatResolution> {
  return source.resolveSession(seat.harness, seat.sessionId);
}

/** As resolveSeat for a request: null and absent pass through; a seat that does not resolve is refused. */
export async function confineSeat<T extends SeatAddress | null | undefined>(source: SessionResolver, seat: T): Promise<T> {
  if (seat === null || seat === undefined) return seat;
  const resolution = await resolveSeat(source, seat);
  if (!resolution.ok) throw new ServiceError('invalid_request', `The seat is refused: ${resolution.reason} Nothing was stored.`);
  return resolution.seat as T;
}
