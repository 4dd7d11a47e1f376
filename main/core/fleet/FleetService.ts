/**
 * The live fleet: the seats the owner addressed (personas holding a seat), one shared census of their
 * projections, the change cursor, discovery of candidate seats, and the replay broker.
 */
import { driftFields } from './seatDrift';
import { homedir } from 'node:os';
import type { AgentMessage, Candidate, FleetSnapshot, Harness, Notice, Persona, Seat, SeatAddress, Station, Team } from '../../../shared/schemas';
import { shownValue } from '../../../shared/bounds';
import { roleKey, rolesList } from '../../../shared/roles';
import { ServiceError } from '../errors';
import type { ReplayResult, SeatReader } from '../../sources/readers/port';
import type { TeamsPort } from '../../sources/teams';
import { crossSessionMessages, type MessageSeat, type SessionMessageFact } from '../../sources/teams/sessionMessages';
import type { PersonaPort, WorkPort } from './ports';
import { seatIdOf } from './seatId';
import { resolveCandidate, SEAT_RULE, unresolvedReason, type SeatResolution, type SessionResolver } from './seatResolver';
import { samePlain } from '../../../shared/patch';
import { sameSnapshotBody, type SnapshotBody } from './sameSnapshot';
import { evaluateActivity } from '../../sources/readers/kit/activityBasis';
import { fleetUsage, localMidnight, type SeatTally } from '../usage/fleetUsage';
import type { FleetUsage } from '../../../shared/usage';
import { UNKNOWN_ACTIVITY } from '../../../shared/activity';
import { Changes } from '../changes';
import { harnessName } from '../../sources/readers/registry';
import { SeatFaults } from './seatFaults';

/** How long a read-only caller may reuse the last census while the cursor is unchanged (the census rule). */
export const CENSUS_REUSE_MS = 1000;
/** How long discovered candidates are cached. */
const CANDIDATE_CACHE_MS = 3000;
/** Seats projected at once. */
const PROJECT_CONCURRENCY = 8;
/**
 * How long a stored seat's resolution is reused, in ms. The store holds addresses; the census reads only the address
 * the readers resolve for the seat's session under the configured homes (seat confinement), looked up again this often.
 */
const STORED_SEAT_RECHECK_MS = 30_000;


/** What the fleet is built from. */
export interface FleetOptions {
  personas: PersonaPort;
  readers: Partial<Record<Harness, SeatReader>>;
  work?: WorkPort;
  /** Agent teams touching the seats (Claude Code teams); absent: no teams are read. */
  teams?: TeamsPort;
  /** Extra notices for the owner (bad settings). */
  notices?: () => Notice[];
  now?: () => number;
  log?: (message: string) => void;
  /** The owner's home folder shown as `~` in panels (default: the process's home). */
  ownerHome?: string;
}

interface Census {
  serial: number;
  mutation: number;
  promise: Promise<FleetSnapshot>;
}

/** The fleet service: the only writer of the change cursor. */
export class FleetService implements SessionResolver {
  private cursor = 0;
  private mutation = 0;
  private serial = 0;
  private appliedSerial = 0;
  /** The last census's body, compared part by part with the next (no serialising). */
  private lastBody: SnapshotBody | null = null;
  /** Each seat as the last census showed it: an unchanged seat keeps this object, so comparing is `===`. */
  private seatViews = new Map<string, Seat>();
  private emittedCursor = 0;
  private inFlight: Census | null = null;
  private last: { snapshot: FleetSnapshot; at: number; mutation: number } | null = null;
  private candidateCache: { at: number; list: Candidate[] } | null = null;
  /** Stored seats resolved under the configured homes, by seat id, with when they were resolved. */
  private storedSeats = new Map<string, { at: number; resolution: SeatResolution }>();
  private readonly now: () => number;
  private readonly changes: Changes<FleetSnapshot>;
  private readonly unfollow: (() => void)[];
  /** How long each seat's last ended turn ran (ms), from its latest projection (for the turn-done notification). */
  private readonly turnMs = new Map<string, number | null>();
  /** Each Claude seat's message facts from its last projection (labels only). */
  private readonly messageFacts = new Map<string, readonly SessionMessageFact[]>();
  /** Each seat's usage tally with its subagents from its last projection, for the fleet line and `usage.read`. */
  private readonly usageTallies = new Map<string, SeatTally>();
  private lastFleetUsage: { day: number; tallies: SeatTally[]; usage: FleetUsage | undefined } | null = null;
  /** The contract check where projections join the fleet (issue 36): one seat's bad part never stalls the rest. */
  readonly faults: SeatFaults;

  constructor(private readonly options: FleetOptions) {
    this.now = options.now ?? Date.now;
    this.changes = new Changes('fleet', options.log);
    this.faults = new SeatFaults(options.log);
    // The fleet follows the services that change what it shows: each of their changes is followed by a census
    // that starts after it, and a write resolves only once that census is done.
    const follow = () => {
      this.markMutated();
      return this.read().then(() => undefined);
    };
    this.unfollow = [options.personas.onChange(follow), ...(options.work ? [options.work.onChange(follow)] : [])];
  }

  /** Stops following the persona and work services and forgets the listeners. */
  dispose(): void {
    for (const off of this.unfollow) off();
    this.changes.clear();
  }

  /** How long the seat's last ended turn ran, in ms, as of the latest census (null when not known). */
  lastTurnMs(seatId: string): number | null {
    return this.turnMs.get(seatId) ?? null;
  }

  /** Listens for snapshots whose cursor moved; returns the unsubscribe function. */
  onChange(listener: (snapshot: FleetSnapshot) => void): () => void {
    return this.changes.on(listener);
  }

  /**
   * A snapshot. Read-only callers may reuse the last census for up to one second while nothing was mutated;
   * concurrent callers share the census in flight; after a mutation, only a census started after it is used.
   */
  async read(options: { fresh?: boolean } = {}): Promise<FleetSnapshot> {
    const mutation = this.mutation;
    const last = this.last;
    if (!options.fresh && last && last.mutation === mutation && this.now() - last.at < CENSUS_REUSE_MS && last.snapshot.cursor === this.cursor) {
      return last.snapshot;
    }
    if (this.inFlight && this.inFlight.mutation === mutation && !options.fresh) return this.inFlight.promise;
    return this.startCensus(mutation);
  }

  /** Runs a census now (watcher and poll triggers); listeners hear of it when the cursor moved. */
  refresh(): Promise<FleetSnapshot> {
    return this.startCensus(this.mutation);
  }

  /** Records that something changed: later reads never use a census started before it. */
  private markMutated(): void {
    this.mutation += 1;
  }

  private startCensus(mutation: number): Promise<FleetSnapshot> {
    const serial = ++this.serial;
    // The census settles asynchronously, so `inFlight` is always set before this clean-up can run.
    const promise = this.census(serial, mutation).finally(() => {
      if (this.inFlight?.serial === serial) this.inFlight = null;
    });
    this.inFlight = { serial, mutation, promise };
    return promise;
  }

  private async census(serial: number, mutation: number): Promise<FleetSnapshot> {
    const { personas: personaPort, work } = this.options;
    await personaPort.refresh();
    const personas = await personaPort.list();
    const seats = await this.projectSeats(personas);
    // Stations come from the same persona list as the seats, so one census never mixes two versions of the store.
    const roles = rolesList(personas);
    const backlog = work?.backlogFor(roles.map((entry) => entry.role));
    const stations: Station[] = roles.map((entry) => ({
      ...entry,
      backlog: backlog?.get(roleKey(entry.role)) ?? { items: [] },
    }));
    const notices = [...personaPort.notices(), ...(this.options.notices?.() ?? [])];
    const teams = await this.readTeams(seats);
    const messages = this.sessionMessages(seats, personas, teams);
    const usage = this.fleetUsageOf(seats);
    const body = this.faults.checkParts({ seats, personas, stations, notices, ...(teams.length > 0 ? { teams } : {}), ...(messages.length > 0 ? { messages } : {}), ...(usage ? { usage } : {}) });
    if (serial < this.appliedSerial && this.last) return this.last.snapshot;
    this.appliedSerial = serial;
    if (!sameSnapshotBody(this.lastBody, body)) {
      this.lastBody = body;
      this.cursor += 1;
    }
    const snapshot: FleetSnapshot = { cursor: this.cursor, ...body, ownerHome: this.options.ownerHome ?? homedir() };
    this.last = { snapshot, at: this.now(), mutation };
    // Whichever census sees a change first tells the listeners, so a change found by a plain read is never lost.
    if (snapshot.cursor > this.emittedCursor) {
      this.emittedCursor = snapshot.cursor;
      // Listeners are called at once; their own work (the jobs board, notifications) does not hold up the census.
      void this.changes.emit(snapshot);
    }
    return snapshot;
  }

  /** The fleet's usage line, the same object while no seat's tally and not the day changed. */
  private fleetUsageOf(seats: readonly Seat[]): FleetUsage | undefined {
    const tallies = this.seatTallies(seats);
    const now = this.now();
    const day = localMidnight(now);
    const last = this.lastFleetUsage;
    if (last && last.day === day && last.tallies.length === tallies.length && last.tallies.every((tally, index) => tally === tallies[index])) return last.usage;
    const usage = fleetUsage(tallies, now);
    this.lastFleetUsage = { day, tallies, usage };
    return usage;
  }

  /** The usage tallies of the seats shown (a seat without usage this census has none). */
  private seatTallies(seats: readonly Seat[]): SeatTally[] {
    const tallies: SeatTally[] = [];
    for (const seat of seats) {
      const tally = seat.usage ? this.usageTallies.get(seat.id) : undefined;
      if (tally) tallies.push(tally);
    }
    return tallies;
  }

  /** Each seat's usage tally with its subagents as of the latest census (for `usage.read`). */
  usageTally(seatId: string): SeatTally | null {
    return this.usageTallies.get(seatId) ?? null;
  }

  /** Messages between the addressed seats (rules SM3–SM5), from the facts their last projections gave. */
  private sessionMessages(seats: Seat[], personas: readonly Persona[], teams: readonly Team[]): AgentMessage[] {
    const names = new Map(personas.map((persona) => [persona.id, persona.name]));
    const messageSeats: MessageSeat[] = seats
      .filter((seat) => seat.subagents !== undefined && this.messageFacts.has(seat.id))
      .map((seat) => ({ seatId: seat.id, personaId: seat.personaId, name: names.get(seat.personaId) ?? seat.personaId, sessionId: seat.address.sessionId, facts: this.messageFacts.get(seat.id)! }));
    return messageSeats.some((seat) => seat.facts.length > 0) ? crossSessionMessages(messageSeats, teams) : [];
  }

  private async readTeams(seats: Seat[]): Promise<Team[]> {
    try {
      // A seat that did not resolve carries its stored address, which no reader may follow (its home included).
      return (await this.options.teams?.read(seats.filter((seat) => this.storedSeats.get(seat.id)?.resolution.ok === true))) ?? [];
    } catch (error) {
      this.options.log?.(`pixelfleet: reading agent teams failed: ${String(error)}`);
      return [];
    }
  }

  private async projectSeats(personas: Persona[]): Promise<Seat[]> {
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
        seats[index] = this.faults.checkSeat(await this.projectSeat(id, persona));
      }
    };
    await Promise.all(Array.from({ length: Math.min(PROJECT_CONCURRENCY, entries.length) }, worker));
    const views = new Map<string, Seat>();
    for (let index = 0; index < seats.length; index++) {
      // A seat that shows nothing new keeps last census's object (readers return the same summary when unchanged).
      const previous = this.seatViews.get(seats[index].id);
      if (previous && samePlain(previous, seats[index])) seats[index] = previous;
      views.set(seats[index].id, seats[index]);
    }
    this.seatViews = views;
    return seats;
  }

  private async projectSeat(id: string, persona: Persona): Promise<Seat> {
    const stored = persona.seat!;
    const reader = this.options.readers[stored.harness];
    if (!reader) {
      const base = { id, harness: stored.harness, personaId: persona.id, address: stored };
      return { ...base, activity: UNKNOWN_ACTIVITY, unknownReason: `${harnessName(stored.harness)} seats are not read by this build.` };
    }
    // The stored address is never read: only the one its session resolves to under the configured homes.
    const resolution = await this.resolveStored(stored);
    if (!resolution.ok) {
      const unknownReason = `This seat no longer resolves, so it is not read: ${resolution.reason}`;
      return { id, harness: stored.harness, personaId: persona.id, address: stored, activity: UNKNOWN_ACTIVITY, unknownReason };
    }
    const address = resolution.seat;
    const base = { id, harness: address.harness, personaId: persona.id, address };
    try {
      const projection = await reader.project(address);
      if (!projection.ok) return { ...base, activity: UNKNOWN_ACTIVITY, unknownReason: projection.reason };
      // Time-bound rules are evaluated on every census (the refresh tick), without reading the files again.
      this.turnMs.set(id, projection.activity.turnMs ?? null);
      this.messageFacts.set(id, projection.messages ?? []);
      const observed = driftFields(evaluateActivity(projection.activity, this.now()), projection.census);
      if (projection.usage && projection.usageTally) {
        const known = this.usageTallies.get(id);
        const partial = projection.usage.withSubagents?.partial ?? projection.usage.partial;
        // The same tally keeps its entry, so an unchanged fleet reuses its usage line.
        if (!known || known.tally !== projection.usageTally || known.partial !== partial) this.usageTallies.set(id, { tally: projection.usageTally, partial });
        return { ...base, ...observed, subagents: projection.subagents, usage: projection.usage };
      }
      this.usageTallies.delete(id);
      return { ...base, ...observed, subagents: projection.subagents };
    } catch (error) {
      this.options.log?.(`pixelfleet: reading ${id} failed: ${String(error)}`);
      return { ...base, activity: UNKNOWN_ACTIVITY, unknownReason: `Could not read this session: ${(error as Error)?.message ?? String(error)}` };
    }
  }

  /**
   * The address discovery gives a session under the configured homes, looked up by its id alone (no listing limit),
   * or why there is none (seat confinement). Never cached: a request sees the disk as it is now.
   */
  async resolveSession(harness: Harness, sessionId: string): Promise<SeatResolution> {
    const reader = this.options.readers[harness];
    const candidateId = seatIdOf({ harness, sessionId });
    if (!reader) return { ok: false, reason: `${harnessName(harness)} seats are not read by this build (${SEAT_RULE}).` };
    try {
      const found = await reader.resolve(sessionId);
      return found ? { ok: true, seat: found.seat } : { ok: false, reason: unresolvedReason(candidateId) };
    } catch (error) {
      this.options.log?.(`pixelfleet: resolving ${shownValue(candidateId)} failed: ${String(error)}`);
      return { ok: false, reason: unresolvedReason(candidateId) };
    }
  }

  /** A stored seat's resolution, reused for a while so a census of unchanged seats does not search the homes again. */
  private async resolveStored(stored: SeatAddress): Promise<SeatResolution> {
    const id = seatIdOf(stored);
    const cached = this.storedSeats.get(id);
    if (cached && this.now() - cached.at < STORED_SEAT_RECHECK_MS) return cached.resolution;
    const resolution = await this.resolveSession(stored.harness, stored.sessionId);
    // Keep the same object while nothing changed, so seats compare equal without work.
    const same = cached && samePlain(cached.resolution, resolution);
    this.storedSeats.set(id, { at: this.now(), resolution: same ? cached.resolution : resolution });
    return same ? cached.resolution : resolution;
  }

  /** The resolved address of each seated persona's seat (unresolved seats are left out: they are never read). */
  private async resolvedSeats(personas: Persona[]): Promise<SeatAddress[]> {
    const resolved: SeatAddress[] = [];
    for (const persona of personas) {
      if (!persona.seat || !this.options.readers[persona.seat.harness]) continue;
      const resolution = await this.resolveStored(persona.seat);
      if (resolution.ok) resolved.push(resolution.seat);
    }
    return resolved;
  }

  /** Sessions the owner could open, newest first, from metadata only. */
  async candidates(options: { refresh?: boolean } = {}): Promise<Candidate[]> {
    const cached = this.candidateCache;
    if (!options.refresh && cached && this.now() - cached.at < CANDIDATE_CACHE_MS) return this.markOpened(cached.list);
    const lists = await Promise.all(
      Object.values(this.options.readers).map(async (reader) => {
        try {
          return await reader!.discover({ limit: 200 });
        } catch (error) {
          this.options.log?.(`pixelfleet: discovery of ${reader!.harness} sessions failed: ${String(error)}`);
          return [];
        }
      }),
    );
    const list = lists.flat().sort((a, b) => b.lastActivity.localeCompare(a.lastActivity));
    this.candidateCache = { at: this.now(), list };
    return this.markOpened(list);
  }

  private async markOpened(list: Candidate[]): Promise<Candidate[]> {
    const personas = await this.options.personas.list();
    const holders = new Map(personas.flatMap((persona) => (persona.seat ? [[seatIdOf(persona.seat), persona.name] as const] : [])));
    return list.map((candidate) => {
      const holder = holders.get(candidate.id);
      return holder === undefined ? { ...candidate, opened: false } : { ...candidate, opened: true, openedBy: holder };
    });
  }

  /** Opens a discovered session as a seat with a new persona (or returns the seat already open). */
  async openSeat(request: { candidateId: string; name?: string; role?: string }): Promise<{ seat: Seat; persona: Persona }> {
    // Looked up by id, not in the newest-first listing: an older session still on disk opens too.
    const resolution = await resolveCandidate(this, request.candidateId);
    if (!resolution.ok) throw new ServiceError('not_found', `${resolution.reason} List them with \`pixelfleet candidates\`.`);
    const candidateId = seatIdOf(resolution.seat);
    const existing = (await this.options.personas.list()).find((persona) => persona.seat && seatIdOf(persona.seat) === candidateId);
    const persona =
      existing ??
      (await this.options.personas.hire({ name: request.name, role: request.role ?? null, seat: resolution.seat }));
    const snapshot = await this.read();
    const seat = snapshot.seats.find((entry) => entry.id === candidateId);
    if (!seat) throw new ServiceError('internal', 'The seat was opened but is missing from the fleet.');
    return { seat, persona: snapshot.personas.find((entry) => entry.id === persona.id) ?? persona };
  }

  /** Forgets a seat: its persona stays, unassigned from the seat. */
  async closeSeat(seatId: string): Promise<{ closed: boolean }> {
    const holders = (await this.options.personas.list()).filter((persona) => persona.seat && seatIdOf(persona.seat) === seatId);
    if (holders.length === 0) return { closed: false };
    for (const persona of holders) {
      const resolved = this.storedSeats.get(seatId)?.resolution;
      if (resolved?.ok) this.options.readers[resolved.seat.harness]?.forget(resolved.seat);
      this.storedSeats.delete(seatId);
      this.messageFacts.delete(seatId);
      await this.options.personas.moveSeat(persona.id, null);
    }
    return { closed: true };
  }

  /** One page of a subagent's transcript; a refused replay is an error the owner can read. */
  async replay(seatId: string, nativeId: string, cursor?: string): Promise<Exclude<ReplayResult, { status: 'refused' }>> {
    const persona = (await this.options.personas.list()).find((entry) => entry.seat && seatIdOf(entry.seat) === seatId);
    if (!persona?.seat) throw new ServiceError('not_found', `No open seat has the id ${shownValue(seatId)}.`);
    const reader = this.options.readers[persona.seat.harness];
    if (!reader) return { status: 'unavailable', reason: `${harnessName(persona.seat.harness)} seats are not read by this build.` };
    const resolution = await this.resolveStored(persona.seat);
    if (!resolution.ok) return { status: 'unavailable', reason: `This seat no longer resolves, so it is not read: ${resolution.reason}` };
    const result = await reader.replay(resolution.seat, nativeId, cursor);
    if (result.status === 'refused') throw new ServiceError('refused', result.reason);
    return result;
  }

  /** Every file or folder whose change should trigger a refresh. */
  async watchPaths(): Promise<string[]> {
    // Only resolved addresses: a stored seat that no longer resolves is not watched either.
    const seats = await this.resolvedSeats(await this.options.personas.list());
    const seatPaths = seats.flatMap((seat) => this.options.readers[seat.harness]?.watchPaths(seat) ?? []);
    const teamPaths = this.options.teams?.watchPaths(seats) ?? [];
    return [...seatPaths, ...teamPaths];
  }
}
