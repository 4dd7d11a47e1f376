/** Seat and candidate ids: one stable string per harness session. */
import type { SeatAddress } from '../../../shared/schemas';

/** The id of the seat (and of the candidate) for a session address. */
export function seatIdOf(address: Pick<SeatAddress, 'harness' | 'sessionId'>): string {
  return `${address.harness}:${address.sessionId}`;
}
