/**
 * Projects the addressed seats for a census: each seated persona's session read through its harness's reader (only
 * at the address it resolves to), a few at once, an unchanged seat keeping last census's object. It keeps what each
 * projection gave besides the seat: the last turn's length, the message facts, and (through the usage book) the tally.
 */
import type { Activity, AgentMessage, Harness, Persona, Seat, SeatAddress, Team } from '../../../shared/schemas';
import { samePlain } from '../../../shared/patch';
import { UNKNOWN_ACTIVITY } from '../../../shared/activity';
import type { Projection, SeatReader } from '../../sources/readers/port';
import { harnessName } from '../../sources/readers/registry';
import { evaluateActivity } from '../../sources/readers/kit/activityBasis';
import { crossSessionMessages, type MessageSeat, type SessionMessageFact } from '../../sources/teams/sessionMessages';
import type { UsageBook } from '../usage/usageBook';
import { driftFields } from './seatDrift';
import { seatIdOf } from './seatId';
import type { SeatResolutions } from './seatResolutions';

/** Seats projected at once. */
const PROJECT_CONCURRENCY = 8;
/**
 * How long a seat none of whose paths changed may keep its last reading in a census started by file events (the census
 * rule's one second): what no watched path reports (a Claude seat's subagent files) still shows within a second.
 */
export const KEEP_READING_MS = 1000;

/** A census started by file events: the paths they named. A census without a scope reads every seat. */
export interface CensusScope {
  changed: ReadonlySet<string>;
}

/** A seat's last successful reading, kept so a census of other seats' changes need not read it again. */
interface Reading {
  /** When the reading started (ms): a reading is kept only if no later one was stored. */
  at: number;
  personaId: string;
  stored: SeatAddress;
  address: SeatAddress;
  projection: Extract<Projection, { ok: true }>;
  /** The paths whose change means this reading is out of date (the reader's watch paths). */
  paths: readonly string[];
}

/** What the projector reads with and writes into. */
export interface SeatProjectorParts {
  readers: Partial<Record<Harness, SeatReader>>;
  resolutions: SeatResolutions;
  usage: UsageBook;
  /** The contract check where a projection joins the fleet (issue 36); absent, seats pass as projected. */
  check?: (seat: Seat) => Seat;
  now: () => number;
  log?: (message: string) => void;
}

/** The seats' projections and what the fleet keeps from them between censuses. */
export class SeatProjector {
  /** Each seat as the last census showed it: an unchanged seat keeps this object, so comparing is `===`. */
  private seatViews = new Map<string, Seat>();
  /** Each seat's last raw projection and the checked seat it gave, so an unchanged projection is not checked again. */
  private projections = new Map<string, { projected: Seat; seat: Seat }>();
  /** How long each seat's last ended turn ran (ms), from its latest projection (for the turn-done notification). */
  private readonly turnMs = new Map<string, number | null>();
  /** Each Claude seat's message facts from its last projection (labels only). */
  private readonly messageFacts = new Map<string, readonly SessionMessageFact[]>();
  /** Each seat's last successful reading (see KEEP_READING_MS). */
  private readonly readings = new Map<string, Reading>();
  /** The seat each reading last gave, with what it was built from. */
  private readonly built = new Map<string, { projection: Reading['projection']; personaId: string; address: SeatAddress; activity: Activity; seat: Seat }>();

  constructor(private readonly parts: SeatProjectorParts) {}

  /** How long the seat's last ended turn ran, in ms, as of the latest census (null when not known). */
  lastTurnMs(seatId: string): number | null {
    return this.turnMs.get(seatId) ?? null;
  }

  /** Forgets a closed seat's message facts. */
  forget(seatId: string): void {
    this.messageFacts.delete(seatId);
    this.readings.delete(seatId);
    this.built.delete(seatId);
  }

  /** Messages between the addressed seats (rules SM3–SM5), from the facts their last projections gave. */
  sessionMessages(seats: Seat[], personas: readonly Persona[], teams: readonly Team[]): AgentMessage[] {
    const names = new Map(personas.map((persona) => [persona.id, persona.name]));
    const messageSeats: MessageSeat[] = seats
      .filter((seat) => seat.subagents !== undefined && this.messageFacts.has(seat.id))
      .map((seat) => ({ seatId: seat.id, personaId: seat.personaId, name: names.get(seat.personaId) ?? seat.personaId, sessionId: seat.address.sessionId, facts: this.messageFacts.get(seat.id)! }));
    return messageSeats.some((seat) => seat.facts.length > 0) ? crossSessionMessages(messageSeats, teams) : [];
  }

  /**
   * Each seated persona's seat (the first persona holding a seat has it), projected a few at once. With a scope (a
   * census started by file events), a seat none of whose paths changed keeps its reading of under a second ago: its
   * time-bound rules are still evaluated now, but its files are not read again.
   */
  async projectSeats(personas: Persona[], scope?: CensusScope): Promise<Seat[]> {
    const seated = new Map<string, Persona>();
    for (const persona of personas) {
      if (!persona.seat) continue;
      const id = seatIdOf(persona.seat);
      if (!seated.has(id)) seated.set(id, persona);
    }
    const entries = [...seated.entries()];
    const seats: Seat[] = new Array(entries.length);
    let next = 0;
    const worker = async () => {
      while (next < entries.length) {
        const index = next++;
        const [id, persona] = entries[index];
        seats[index] = await this.projectSeat(id, persona, scope);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PROJECT_CONCURRENCY, entries.length) }, worker));
    const views = new Map<string, Seat>();
    const projections = new Map<string, { projected: Seat; seat: Seat }>();
    for (let index = 0; index < seats.length; index++) {
      const projected = seats[index];
      const id = projected.id;
      // A projection equal to the last census's keeps that census's checked object: the contract check (issue 36) runs
      // only on what changed, so an unchanged fleet costs no validation.
      const known = this.projections.get(id);
      if (known && samePlain(known.projected, projected)) seats[index] = known.seat;
      else {
        const checked = this.parts.check ? this.parts.check(projected) : projected;
        // A seat that shows nothing new keeps last census's object (readers return the same summary when unchanged).
        const previous = this.seatViews.get(id);
        seats[index] = previous && samePlain(previous, checked) ? previous : checked;
      }
      projections.set(id, { projected, seat: seats[index] });
      views.set(id, seats[index]);
    }
    this.seatViews = views;
    this.projections = projections;
    for (const id of this.readings.keys()) if (!seated.has(id)) this.readings.delete(id);
    for (const id of this.built.keys()) if (!seated.has(id)) this.built.delete(id);
    return seats;
  }

  /** The seat's last reading if this scoped census may keep it: none of its paths changed and it is recent. */
  private keptReading(id: string, persona: Persona, scope: CensusScope | undefined): Reading | null {
    if (!scope) return null;
    const reading = this.readings.get(id);
    if (!reading || reading.personaId !== persona.id || this.parts.now() - reading.at >= KEEP_READING_MS) return null;
    if (reading.stored !== persona.seat && !samePlain(reading.stored, persona.seat)) return null;
    for (const path of reading.paths) if (scope.changed.has(path)) return null;
    return reading;
  }

  private async projectSeat(id: string, persona: Persona, scope: CensusScope | undefined): Promise<Seat> {
    const { readers, resolutions, now, log } = this.parts;
    const stored = persona.seat!;
    const kept = this.keptReading(id, persona, scope);
    if (kept) {
      try {
        return this.seatOf(id, persona, kept.address, kept.projection);
      } catch {
        this.readings.delete(id); // read afresh below, where a failure is reported as before
      }
    }
    const reader = readers[stored.harness];
    if (!reader) {
      const base = { id, harness: stored.harness, personaId: persona.id, address: stored };
      return { ...base, activity: UNKNOWN_ACTIVITY, unknownReason: `${harnessName(stored.harness)} seats are not read by this build.` };
    }
    // The stored address is never read: only the one its session resolves to under the configured homes.
    const resolution = await resolutions.resolveStored(stored);
    if (!resolution.ok) {
      const unknownReason = `This seat no longer resolves, so it is not read: ${resolution.reason}`;
      return { id, harness: stored.harness, personaId: persona.id, address: stored, activity: UNKNOWN_ACTIVITY, unknownReason };
    }
    const address = resolution.seat;
    const base = { id, harness: address.harness, personaId: persona.id, address };
    try {
      const at = now();
      const projection = await reader.project(address);
      if (!projection.ok) {
        this.readings.delete(id);
        return { ...base, activity: UNKNOWN_ACTIVITY, unknownReason: projection.reason };
      }
      const before = this.readings.get(id);
      if (!before || before.at <= at) this.readings.set(id, { at, personaId: persona.id, stored, address, projection, paths: reader.watchPaths(address) });
      return this.seatOf(id, persona, address, projection);
    } catch (error) {
      this.readings.delete(id);
      log?.(`pixelfleet: reading ${id} failed: ${String(error)}`);
      return { ...base, activity: UNKNOWN_ACTIVITY, unknownReason: `Could not read this session: ${(error as Error)?.message ?? String(error)}` };
    }
  }

  /** The seat a successful reading gives now: time-bound rules are evaluated on every census, files read or not. */
  private seatOf(id: string, persona: Persona, address: SeatAddress, projection: Reading['projection']): Seat {
    const { usage, now } = this.parts;
    this.turnMs.set(id, projection.activity.turnMs ?? null);
    this.messageFacts.set(id, projection.messages ?? []);
    const activity = evaluateActivity(projection.activity, now(), projection.lastWriteMs);
    if (projection.usage && projection.usageTally) usage.note(id, projection.usage, projection.usageTally);
    else usage.forget(id);
    // A kept reading whose time rules give the same activity gives the same seat object: nothing is built or compared.
    const built = this.built.get(id);
    if (built && built.projection === projection && built.personaId === persona.id && built.address === address && samePlain(built.activity, activity)) return built.seat;
    const base = { id, harness: address.harness, personaId: persona.id, address };
    const observed = driftFields(activity, projection.census);
    const seat: Seat = projection.usage && projection.usageTally ? { ...base, ...observed, subagents: projection.subagents, usage: projection.usage } : { ...base, ...observed, subagents: projection.subagents };
    this.built.set(id, { projection, personaId: persona.id, address, activity, seat });
    return seat;
  }
}
