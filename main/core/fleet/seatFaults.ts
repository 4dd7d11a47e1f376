/**
 * The fleet's record of seats whose projections broke the contract (issue 36): each census checks every seat and
 * the fleet-wide parts through the guard, logs a fault once when it appears or changes, and keeps the current ones
 * so a caller (a test, a status line) can name them.
 */
import type { Seat } from '../../../shared/schemas';
import { guardFleetParts, guardSeat, type FleetParts } from './seatGuard';

/** The seats whose projection broke the contract at the latest census, with what was dropped. */
export class SeatFaults {
  private readonly current = new Map<string, string>();
  private lastParts = '';

  constructor(private readonly log?: (message: string) => void) {}

  /** The seat as it may be sent: itself when it passes, else with the failing parts dropped and named. */
  checkSeat(seat: Seat): Seat {
    const guarded = guardSeat(seat);
    const reason = guarded.dropped.join('; ');
    if (!reason) {
      this.current.delete(seat.id);
      return seat;
    }
    if (this.current.get(seat.id) !== reason) this.log?.(`pixelfleet: seat ${seat.id} broke the contract; dropped: ${reason}`);
    this.current.set(seat.id, reason);
    return guarded.seat;
  }

  /** The fleet-wide parts (usage line, messages, teams, notices, backlogs) with those that break the contract dropped. */
  checkParts<T extends FleetParts>(body: T): T {
    const guarded = guardFleetParts(body);
    const parts = guarded.dropped.join(', ');
    if (parts && parts !== this.lastParts) this.log?.(`pixelfleet: fleet parts broke the contract and were dropped: ${parts}`);
    this.lastParts = parts;
    return guarded.body;
  }

  /** Seat id → what was dropped, as of the latest census. */
  faults(): ReadonlyMap<string, string> {
    return this.current;
  }
}
