/**
 * The live fleet: the seats the owner addressed (personas holding a seat), one shared census of their
 * projections, the change cursor, discovery of candidate seats, and the replay broker. It coordinates: seats are
 * projected by seatProjector.ts, resolved by seatResolutions.ts, discovered by candidates.ts, and their usage kept
 * by the usage room's book.
 */
import { homedir } from 'node:os';
import type { Candidate, FleetSnapshot, Harness, Notice, Persona, Seat, Station, Team } from '../../../shared/schemas';
import { shownValue } from '../../../shared/bounds';
import { roleKey, rolesList } from '../../../shared/roles';
import { ServiceError } from '../../kit/errors';
import type { ReplayResult, SeatReader } from '../../sources/readers/port';
import type { TeamsPort } from '../../sources/teams';
import type { PersonaPort, WorkPort } from './ports';
import { seatIdOf } from './seatId';
import { resolveCandidate, type SeatResolution, type SessionResolver } from './seatResolver';
import { sameSnapshotBody, type SnapshotBody } from './sameSnapshot';
import type { SeatTally } from '../usage/fleetUsage';
import { UsageBook } from '../usage/usageBook';
import { Changes } from '../../kit/changes';
import { harnessName } from '../../sources/readers/registry';
import { SeatResolutions } from './seatResolutions';
import { CandidateList } from './candidates';
import { SeatProjector, type CensusScope } from './seatProjector';
import { SeatFaults } from './seatFaults';

/** How long a read-only caller may reuse the last census while the cursor is unchanged (the census rule). */
export const CENSUS_REUSE_MS = 1000;

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
  private emittedCursor = 0;
  private inFlight: Census | null = null;
  private last: { snapshot: FleetSnapshot; at: number; mutation: number } | null = null;
  private readonly now: () => number;
  private readonly changes: Changes<FleetSnapshot>;
  private readonly unfollow: (() => void)[];
  /** Each seat's usage tally and the fleet's usage line (the usage room's bookkeeping). */
  private readonly usage = new UsageBook();
  private readonly resolutions: SeatResolutions;
  private readonly candidateList: CandidateList;
  private readonly projector: SeatProjector;
  /** The contract check where projections join the fleet (issue 36): one seat's bad part never stalls the rest. */
  readonly faults: SeatFaults;

  constructor(private readonly options: FleetOptions) {
    this.now = options.now ?? Date.now;
    this.changes = new Changes('fleet', options.log);
    this.faults = new SeatFaults(options.log);
    this.resolutions = new SeatResolutions(options.readers, this.now, options.log);
    this.candidateList = new CandidateList(options.readers, options.personas, this.now, options.log);
    this.projector = new SeatProjector({ readers: options.readers, resolutions: this.resolutions, usage: this.usage, check: (seat) => this.faults.checkSeat(seat), now: this.now, log: options.log });
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
    return this.projector.lastTurnMs(seatId);
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

  /**
   * Runs a census now (watcher and poll triggers); listeners hear of it when the cursor moved. A scope (the paths file
   * events named) lets seats none of whose paths changed keep their reading of under a second ago.
   */
  refresh(scope?: CensusScope): Promise<FleetSnapshot> {
    return this.startCensus(this.mutation, scope);
  }

  /** Records that something changed: later reads never use a census started before it. */
  private markMutated(): void {
    this.mutation += 1;
  }

  private startCensus(mutation: number, scope?: CensusScope): Promise<FleetSnapshot> {
    const serial = ++this.serial;
    // The census settles asynchronously, so `inFlight` is always set before this clean-up can run.
    const promise = this.census(serial, mutation, scope).finally(() => {
      if (this.inFlight?.serial === serial) this.inFlight = null;
    });
    this.inFlight = { serial, mutation, promise };
    return promise;
  }

  private async census(serial: number, mutation: number, scope?: CensusScope): Promise<FleetSnapshot> {
    const { personas: personaPort, work } = this.options;
    await personaPort.refresh();
    const personas = await personaPort.list();
    const seats = await this.projector.projectSeats(personas, scope);
    // Stations come from the same persona list as the seats, so one census never mixes two versions of the store.
    const roles = rolesList(personas);
    const backlog = work?.backlogFor(roles.map((entry) => entry.role));
    const stations: Station[] = roles.map((entry) => ({
      ...entry,
      backlog: backlog?.get(roleKey(entry.role)) ?? { items: [] },
    }));
    const notices = [...personaPort.notices(), ...(this.options.notices?.() ?? [])];
    const teams = await this.readTeams(seats);
    const messages = this.projector.sessionMessages(seats, personas, teams);
    const usage = this.usage.fleetLine(seats, this.now());
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

  /** Each seat's usage tally with its subagents as of the latest census (for `usage.read`). */
  usageTally(seatId: string): SeatTally | null {
    return this.usage.tally(seatId);
  }

  private async readTeams(seats: Seat[]): Promise<Team[]> {
    try {
      // A seat that did not resolve carries its stored address, which no reader may follow (its home included).
      return (await this.options.teams?.read(seats.filter((seat) => this.resolutions.resolved(seat.id)))) ?? [];
    } catch (error) {
      this.options.log?.(`pixelfleet: reading agent teams failed: ${String(error)}`);
      return [];
    }
  }

  /**
   * The address discovery gives a session under the configured homes, looked up by its id alone (no listing limit),
   * or why there is none (seat confinement). Never cached: a request sees the disk as it is now.
   */
  resolveSession(harness: Harness, sessionId: string): Promise<SeatResolution> {
    return this.resolutions.resolveSession(harness, sessionId);
  }

  /** Sessions the owner could open, newest first, from metadata only. */
  candidates(options: { refresh?: boolean } = {}): Promise<Candidate[]> {
    return this.candidateList.list(options);
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
      this.resolutions.forget(seatId);
      this.projector.forget(seatId);
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
    const resolution = await this.resolutions.resolveStored(persona.seat);
    if (!resolution.ok) return { status: 'unavailable', reason: `This seat no longer resolves, so it is not read: ${resolution.reason}` };
    const result = await reader.replay(resolution.seat, nativeId, cursor);
    if (result.status === 'refused') throw new ServiceError('refused', result.reason);
    return result;
  }

  /** Every file or folder whose change should trigger a refresh. */
  async watchPaths(): Promise<string[]> {
    // Only resolved addresses: a stored seat that no longer resolves is not watched either.
    const seats = await this.resolutions.resolvedSeats(await this.options.personas.list());
    const seatPaths = seats.flatMap((seat) => this.options.readers[seat.harness]?.watchPaths(seat) ?? []);
    const teamPaths = this.options.teams?.watchPaths(seats) ?? [];
    return [...seatPaths, ...teamPaths];
  }
}
