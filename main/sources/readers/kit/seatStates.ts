/**
 * The per-seat state of a reader: keyed by the seat, created on first use, bounded (the oldest seat is dropped and
 * simply reads cold again), dropped when the seat closes, and with the reads of one seat serialised so two refreshes
 * never interleave on the same tail or reducer state.
 */
import type { SeatAddress } from '../../../../shared/schemas';
import { SEAT_STATE_LIMIT } from './bounds';

interface Slot<T> {
  state: T;
  /** The last read of this seat; the next one starts after it settles. */
  queue: Promise<unknown>;
}

export class SeatStates<T> {
  private readonly slots = new Map<string, Slot<T>>();

  /**
   * @param create a fresh state for a seat's first read
   * @param keyOf what tells two seats apart (by default the home and the session id)
   */
  constructor(
    private readonly create: (seat: SeatAddress) => T,
    private readonly keyOf: (seat: SeatAddress) => string = (seat) => `${seat.home}\0${seat.sessionId}`,
    private readonly limit: number = SEAT_STATE_LIMIT,
  ) {}

  /** The seat's state when it has one, without creating it. */
  peek(seat: SeatAddress): T | undefined {
    return this.slots.get(this.keyOf(seat))?.state;
  }

  /** Runs `work` on the seat's state once every earlier read of the same seat has settled. */
  run<R>(seat: SeatAddress, work: (state: T) => Promise<R>): Promise<R> {
    const slot = this.slot(seat);
    const next = () => work(slot.state);
    const run = slot.queue.then(next, next);
    slot.queue = run.catch(() => undefined);
    return run;
  }

  /** Drops the seat's state (the seat closed). */
  forget(seat: SeatAddress): void {
    this.slots.delete(this.keyOf(seat));
  }

  /** Drops every state. */
  clear(): void {
    this.slots.clear();
  }

  /** How many seats have state (for tests of the bound). */
  get size(): number {
    return this.slots.size;
  }

  private slot(seat: SeatAddress): Slot<T> {
    const key = this.keyOf(seat);
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { state: this.create(seat), queue: Promise.resolve() };
      this.slots.set(key, slot);
      if (this.slots.size > this.limit) this.slots.delete(this.slots.keys().next().value as string);
    }
    return slot;
  }
}
