/**
 * The fleet's usage bookkeeping: each seat's tally with its subagents from its latest projection, and the fleet's
 * usage line over the seats a census shows. Kept here, not in the fleet, so the usage room owns every sum it reports.
 */
import type { FleetUsage, Usage } from '../../../shared/usage';
import { fleetUsage, localMidnight, type SeatTally } from './fleetUsage';
import type { Tally } from '../../kit/usage/tally';

/** Seat tallies by seat id, and the last fleet line, reused while no tally and not the day changed. */
export class UsageBook {
  private readonly tallies = new Map<string, SeatTally>();
  private last: { day: number; tallies: SeatTally[]; usage: FleetUsage | undefined } | null = null;

  /** Notes a seat's usage from its projection; the same tally keeps its entry, so an unchanged fleet reuses its line. */
  note(seatId: string, usage: Usage, tally: Tally): void {
    const known = this.tallies.get(seatId);
    const partial = usage.withSubagents?.partial ?? usage.partial;
    if (!known || known.tally !== tally || known.partial !== partial) this.tallies.set(seatId, { tally, partial });
  }

  /** Forgets a seat's tally (its projection carried no usage). */
  forget(seatId: string): void {
    this.tallies.delete(seatId);
  }

  /** A seat's tally with its subagents as of the latest census (for `usage.read`), null when it has none. */
  tally(seatId: string): SeatTally | null {
    return this.tallies.get(seatId) ?? null;
  }

  /** The fleet's usage line for the seats shown, the same object while no seat's tally and not the day changed. */
  fleetLine(seats: readonly { id: string; usage?: unknown }[], nowMs: number): FleetUsage | undefined {
    const tallies = this.seatTallies(seats);
    const day = localMidnight(nowMs);
    const last = this.last;
    if (last && last.day === day && last.tallies.length === tallies.length && last.tallies.every((tally, index) => tally === tallies[index])) return last.usage;
    const usage = fleetUsage(tallies, nowMs);
    this.last = { day, tallies, usage };
    return usage;
  }

  /** The usage tallies of the seats shown (a seat without usage this census has none). */
  private seatTallies(seats: readonly { id: string; usage?: unknown }[]): SeatTally[] {
    const tallies: SeatTally[] = [];
    for (const seat of seats) {
      const tally = seat.usage ? this.tallies.get(seat.id) : undefined;
      if (tally) tallies.push(tally);
    }
    return tallies;
  }
}
