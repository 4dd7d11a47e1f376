/**
 * Issue 36 at this host's door: a remote's snapshot and its patches are guarded again where they arrive, seat by
 * seat, before the strict contract check. A remote of another build (or a broken one) may send a seat whose figures
 * break the contract or whose `since` lies in year 9999; that seat's offending part is dropped and named, and the
 * remote's other seats (and every local one) keep updating. Only a frame whose shape is garbage faults the link.
 *
 * R1. Each seat of a whole snapshot, and each seat a patch sets, goes through the fleet's seat guard (rules G1–G5).
 * R2. A seat's `activity.since` that does not parse, is implausible or lies over a day ahead of this clock is null.
 * R3. A seat that still breaks the contract after R1 (its identity is garbage) is left out, and counted.
 * R4. The fleet-wide parts (usage line, messages, teams, notices, backlogs) that break it are dropped (absent = unknown).
 * R5. What was dropped is kept per seat (a seat a patch removes, or that passes again, is cleared), logged once when it
 *     changes, and shown as one warning notice naming the host and the seats.
 */
import { SeatSchema, type Notice, type Seat } from '../../../shared/schemas';
import { guardFleetParts, guardSeat, type FleetParts } from '../../core/fleet/seatGuard';
import { plausibleIso, plausibleMs } from '../../sources/readers/kit/time';
import { remoteId } from './namespace';

/** The id prefix of the notice naming a remote's seats that broke the contract (`remote-contract:<host>`). */
export const REMOTE_CONTRACT_NOTICE_PREFIX = 'remote-contract:';

/** How far ahead of this host's clock a remote seat's `since` may be before it is not believed, in ms. */
const SINCE_AHEAD_MAX_MS = 24 * 60 * 60 * 1000;
/** The most seats named in the notice (the rest are counted). */
const NOTICE_SEATS_MAX = 3;

type Raw = Record<string, unknown>;

const isObject = (value: unknown): value is Raw => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Rule R2: the seat with an unbelievable `since` made null, and what was dropped. */
function plausibleSeatTime(seat: Raw, nowMs: number): { seat: Raw; dropped: string | null } {
  const activity = seat.activity;
  if (!isObject(activity) || activity.since === null || activity.since === undefined) return { seat, dropped: null };
  const since = activity.since;
  const kept = typeof since === 'string' ? plausibleIso(since) : null;
  if (kept !== null && (plausibleMs(nowMs) === null || Date.parse(kept) <= nowMs + SINCE_AHEAD_MAX_MS)) return { seat, dropped: null };
  const dropped = `activity.since (${JSON.stringify(String(since)).slice(0, 40)} is not a plausible time)`;
  const said = typeof seat.unknownReason === 'string' ? `${seat.unknownReason} ` : '';
  return { seat: { ...seat, activity: { ...activity, since: null }, unknownReason: `${said}Part of this seat broke the contract and is not shown: ${dropped}.` }, dropped };
}

/** The guard of one remote's stream (rules R1–R5). */
export class RemoteSeatGuard {
  private readonly faults = new Map<string, string>();
  /** Seats left out whole (rule R3), by the id they gave (or their place). */
  private readonly left = new Set<string>();

  constructor(
    private readonly host: string,
    private readonly log: (message: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** A whole snapshot as received (unchecked), with each seat and fleet part guarded; garbage shapes pass unchanged. */
  snapshot(value: unknown): unknown {
    if (!isObject(value) || !Array.isArray(value.seats)) return value;
    const before = this.summary();
    this.faults.clear();
    this.left.clear();
    const seats = this.seats(value.seats);
    const guarded = this.parts({ ...value, seats });
    this.logChange(before);
    return guarded;
  }

  /** An event's payload as received: `fleet.changed` and `fleet.patched` guarded, any other as it is. */
  event(name: string, payload: unknown): unknown {
    if (!isObject(payload)) return payload;
    if (name === 'fleet.changed') return { ...payload, snapshot: this.snapshot(payload.snapshot) };
    if (name !== 'fleet.patched' || !isObject(payload.patch)) return payload;
    const before = this.summary();
    const patch: Raw = { ...payload.patch };
    const list = patch.seats;
    if (isObject(list)) {
      if (Array.isArray(list.removed)) for (const id of list.removed) if (typeof id === 'string') {
        this.faults.delete(id);
        this.left.delete(id);
      }
      if (Array.isArray(list.set)) patch.seats = { ...list, set: this.seats(list.set) };
    }
    // A usage line that breaks the contract becomes absent (null in a patch); the lists keep their passing entries.
    const usage = patch.usage;
    const parts = this.parts({ ...patch, usage: usage === null ? undefined : usage });
    const guarded: Raw = { ...parts, usage: usage === null ? null : (parts.usage ?? (usage === undefined ? undefined : null)) };
    if (guarded.usage === undefined) delete guarded.usage;
    this.logChange(before);
    return { ...payload, patch: guarded };
  }

  /** The warning naming this remote's seats whose parts were dropped, or null when none were. */
  notice(): Notice | null {
    if (this.faults.size === 0 && this.left.size === 0) return null;
    const named = [...this.faults].slice(0, NOTICE_SEATS_MAX).map(([id, dropped]) => `${remoteId(this.host, id)} (${dropped.slice(0, 160)})`);
    const more = this.faults.size - named.length;
    const parts = [
      ...(named.length > 0 ? [`parts of ${named.length + more} seat${named.length + more === 1 ? '' : 's'} broke the contract and are not shown: ${named.join('; ')}${more > 0 ? ` and ${more} more` : ''}`] : []),
      ...(this.left.size > 0 ? [`${this.left.size} seat${this.left.size === 1 ? '' : 's'} could not be shown at all`] : []),
    ];
    return { id: `${REMOTE_CONTRACT_NOTICE_PREFIX}${this.host}`, level: 'warning', message: `${this.host}: ${parts.join('; ')}.` };
  }

  /** Seat id → what was dropped, as of the latest frame. */
  current(): ReadonlyMap<string, string> {
    return this.faults;
  }

  private seats(list: unknown[]): unknown[] {
    const out: unknown[] = [];
    for (const [index, entry] of list.entries()) {
      if (!isObject(entry)) {
        this.left.add(`#${index}`);
        continue;
      }
      const timed = plausibleSeatTime(entry, this.now());
      const guarded = guardSeat(timed.seat as unknown as Seat);
      const dropped = [...(timed.dropped ? [timed.dropped] : []), ...guarded.dropped];
      const seat = guarded.seat;
      if (!SeatSchema.safeParse(seat).success) {
        this.left.add(typeof entry.id === 'string' ? entry.id : `#${index}`);
        continue;
      }
      this.left.delete(seat.id);
      if (dropped.length > 0) this.faults.set(seat.id, dropped.join('; '));
      else this.faults.delete(seat.id);
      out.push(seat);
    }
    return out;
  }

  private parts<T extends Raw>(body: T): T {
    try {
      const guarded = guardFleetParts(body as T & FleetParts);
      if (guarded.dropped.length > 0) this.log(`pixelfleet: remote ${this.host}: fleet parts broke the contract and were dropped: ${guarded.dropped.join(', ')}`);
      return guarded.body;
    } catch {
      // A shape the guard cannot walk (a station without a backlog): the strict check refuses the frame as garbage.
      return body;
    }
  }

  private summary(): string {
    return `${[...this.left].join(',')}|${[...this.faults].map(([id, dropped]) => `${id}=${dropped}`).join('|')}`;
  }

  private logChange(before: string): void {
    if (this.summary() === before) return;
    for (const [id, dropped] of this.faults) this.log(`pixelfleet: remote ${this.host}: seat ${remoteId(this.host, id)} broke the contract; dropped: ${dropped}`);
    if (this.left.size > 0) this.log(`pixelfleet: remote ${this.host}: ${this.left.size} seat(s) left out (they break the contract beyond repair)`);
  }
}
