/**
 * The jobs board service: derives jobs from the fleet's snapshots (no read of its own), gives every listed subagent
 * its alias, runs the reminder clock on a timer set to the next due reminder, and tells listeners when the board
 * changed. Its clock can be advanced only when the app was started with the test clock on.
 */
import { guardJobs } from './jobGuard';
import { ENDED_WINDOW_MS, type Job, type JobBoard } from '../../../shared/jobs';
import { sameBoardContent } from '../../../shared/updates';
import type { FleetSnapshot, Seat } from '../../../shared/schemas';
import { samePlain } from '../../../shared/patch';
import { ServiceError } from '../../kit/errors';
import type { JobAliases } from './aliasPort';
import { aliasRequestsOf, deriveJobs, JobMemo } from './deriveJobs';
import { EndedJobs } from './endedJobs';
import { DEFAULT_REMINDERS, ReminderClock, type JobNotice, type ReminderSettings } from './reminders';
import { Changes } from '../../kit/changes';
import { PaceGate } from '../../kit/paceGate';

/** Longest wait between two evaluations, so ended jobs leave the board on time (ms). */
const MAX_TICK_MS = 60_000;
/** Shortest wait, so a burst of due reminders never spins (ms). */
const MIN_TICK_MS = 500;
/** Seats from which boards worked out from fleet changes are spaced (below, each change is worked out at once). */
const SPACED_BOARD_SEATS = 50;
/** The longest spacing of boards worked out from fleet changes, reached at twice SPACED_BOARD_SEATS seats (ms). */
const MAX_BOARD_INTERVAL_MS = 1000;

/**
 * The least time between two boards worked out from fleet changes, for a fleet of `seats`: none below
 * SPACED_BOARD_SEATS, then in proportion up to MAX_BOARD_INTERVAL_MS. A busy big fleet changes some seat's subagents
 * at nearly every update (2 a second at 100 seats); each board costs the host work in proportion to the whole board
 * (hundreds of jobs once the trays fill) and every page a patch to apply, for a list that reads as well once a second.
 * A change after a quiet spell is worked out at once; a board asked for (`board`) is always worked out then.
 */
export function boardIntervalMs(seats: number): number {
  return seats < SPACED_BOARD_SEATS ? 0 : Math.min(MAX_BOARD_INTERVAL_MS, Math.round((MAX_BOARD_INTERVAL_MS / 2) * (seats / SPACED_BOARD_SEATS)));
}

/** What the service is built from. */
export interface JobsOptions {
  fleet: { read(options?: { fresh?: boolean }): Promise<FleetSnapshot>; onChange(listener: (snapshot: FleetSnapshot) => void): () => void };
  aliases: JobAliases;
  reminders?: ReminderSettings;
  /** Milliseconds since epoch. */
  now?: () => number;
  /** Allow `advanceClock` (the e2e tests' stand-in for time passing in main). */
  testClock?: boolean;
  log?: (message: string) => void;
}

/** The jobs board; see the module header. */
export class JobsService {
  private readonly clock: ReminderClock;
  private readonly baseNow: () => number;
  private offsetMs = 0;
  private snapshot: FleetSnapshot | null = null;
  /** The last board told to listeners, and the clock offset it was computed at. */
  private told: { board: JobBoard; offsetMs: number } | null = null;
  private revision = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Boards from fleet changes, spaced by the fleet's size (boardIntervalMs). */
  private readonly fromFleet = new PaceGate(
    () => {
      this.fromFleet.ran();
      void this.update().catch((error: unknown) => this.options.log?.(`pixelfleet: jobs board failed: ${String(error)}`));
    },
    () => boardIntervalMs(this.snapshot?.seats.length ?? 0),
  );
  private off: (() => void) | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private disposed = false;
  private readonly ended = new EndedJobs();
  /** Each seat's jobs from the last derivation, kept while the census keeps the seat's object. */
  private readonly memo = new JobMemo();
  /** Each seat's aliases, kept while its subagents summary is the same object. */
  private aliasSeats = new Map<string, SeatAliases>();
  /** The last aliases made into the board's record, and that record. */
  private aliasesMade: { map: ReadonlyMap<string, string>; record: JobBoard['aliases'] } | null = null;
  /** The last full derivation: what it was derived from, until when its time rules give the same board, and that board. */
  private derived: { inputs: SeatInputs[]; offsetMs: number; until: number; nextDueAt: number | null; board: JobBoard } | null = null;
  private readonly boardChanges: Changes<JobBoard>;
  private readonly noticeChanges: Changes<JobNotice>;

  constructor(private readonly options: JobsOptions) {
    this.clock = new ReminderClock(options.reminders ?? DEFAULT_REMINDERS);
    this.baseNow = options.now ?? Date.now;
    this.boardChanges = new Changes('jobs board', options.log);
    this.noticeChanges = new Changes('jobs notice', options.log);
  }

  /** The service's clock (ms since epoch), including any test advance. */
  now(): number {
    return this.baseNow() + this.offsetMs;
  }

  /** Follows the fleet: a new snapshot re-derives the board (spaced by boardIntervalMs for a big fleet). */
  start(): void {
    if (this.off) return;
    this.off = this.options.fleet.onChange((snapshot) => {
      this.snapshot = snapshot;
      this.fromFleet.ask();
    });
  }

  /** The board now; `fresh` asks the fleet for a census first (the CLI), else the last snapshot heard is used. */
  async board(options: { fresh?: boolean } = {}): Promise<JobBoard> {
    if (options.fresh || !this.snapshot) this.snapshot = await this.options.fleet.read({ fresh: options.fresh });
    return this.update();
  }

  /** Listens for boards that changed; returns the unsubscribe function. */
  onChange(listener: (board: JobBoard) => void): () => void {
    return this.boardChanges.on(listener);
  }

  /** Listens for reminder and finished notices (the notifier's input); returns the unsubscribe function. */
  onNotice(listener: (notice: JobNotice) => void): () => void {
    return this.noticeChanges.on(listener);
  }

  /** Moves the clock forward (test clock only) and re-evaluates; returns the total advance in ms. */
  async advanceClock(ms: number): Promise<number> {
    if (!this.options.testClock) throw new ServiceError('unavailable', 'The test clock is off (it is on only when PIXELFLEET_TEST_CLOCK=1).');
    this.offsetMs += ms;
    await this.board();
    return this.offsetMs;
  }

  /** Stops the timer and the fleet subscription. */
  dispose(): void {
    this.disposed = true;
    this.off?.();
    this.off = null;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.fromFleet.dispose();
    this.boardChanges.clear();
    this.noticeChanges.clear();
  }

  private update(): Promise<JobBoard> {
    const run = this.queue.then(() => this.compute());
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async compute(): Promise<JobBoard> {
    const snapshot = this.snapshot ?? (await this.options.fleet.read());
    this.snapshot = snapshot;
    const now = this.now();
    // Most censuses change what seats are doing, not their subagents: the last derivation then stands as it was.
    const unchanged = this.derived && this.derived.offsetMs === this.offsetMs && now < this.derived.until && sameInputs(this.derived.inputs, snapshot) ? this.derived : null;
    if (unchanged) return this.tell({ ...unchanged.board, at: new Date(now).toISOString(), cursor: snapshot.cursor }, [], unchanged.nextDueAt, now);
    const { aliases, missing: aliasesMissing } = await this.aliasesOf(snapshot.seats);
    const derived = deriveJobs(snapshot, aliases, now, this.memo);
    const evaluated = this.clock.evaluate(this.ended.merge(derived.jobs, snapshot.seats, now), now);
    const computed: JobBoard = { jobs: guardJobs(evaluated.jobs, this.options.log), aliases: this.aliasRecord(aliases), unlisted: derived.unlisted, at: new Date(now).toISOString(), cursor: snapshot.cursor };
    const board = this.tell(computed, evaluated.notices, evaluated.nextDueAt, now);
    // A board without its aliases is derived again next time, so they show as soon as the store answers.
    this.derived = aliasesMissing ? null : { inputs: inputsOf(snapshot), offsetMs: this.offsetMs, until: stableUntil(board.jobs, evaluated.nextDueAt), nextDueAt: evaluated.nextDueAt, board };
    return board;
  }

  /**
   * Every listed subagent's alias, in the seats' order. Only seats whose subagents changed are asked for: an alias, once
   * issued, never changes (the alias port's rule), so a seat with the same summary keeps the aliases it was given.
   */
  private async aliasesOf(seats: readonly Seat[]): Promise<{ aliases: Map<string, string>; missing: boolean }> {
    // The requests of each seat whose subagents changed, worked out once: asked of the store, then filed by seat.
    const fresh = new Map<string, ReturnType<typeof aliasRequestsOf>>();
    for (const seat of seats) if (this.aliasSeats.get(seat.id)?.subagents !== seat.subagents) fresh.set(seat.id, aliasRequestsOf([seat]));
    let found: ReadonlyMap<string, string> = new Map();
    if (fresh.size > 0) {
      try {
        found = await this.options.aliases.aliasesFor([...fresh.values()].flat());
      } catch (error) {
        // Aliases are a convenience: a locked or read-only store leaves them out rather than hiding the board.
        this.options.log?.(`pixelfleet: job aliases unavailable: ${(error as Error)?.message ?? String(error)}`);
        return { aliases: new Map(), missing: true };
      }
    }
    const kept = new Map<string, SeatAliases>();
    const aliases = new Map<string, string>();
    for (const seat of seats) {
      const requests = fresh.get(seat.id);
      // A seat not asked for kept its summary, so it has the aliases it was given.
      let known = requests ? undefined : this.aliasSeats.get(seat.id);
      if (!known) {
        const entries: [string, string][] = [];
        for (const request of requests ?? []) {
          const alias = found.get(request.key);
          if (alias !== undefined) entries.push([request.key, alias]);
        }
        known = { subagents: seat.subagents, entries };
      }
      kept.set(seat.id, known);
      for (const [key, alias] of known.entries) aliases.set(key, alias);
    }
    this.aliasSeats = kept;
    return { aliases, missing: false };
  }

  /** The aliases as the board's record: the one made last time when they are the same (so comparing it is `===`). */
  private aliasRecord(aliases: Map<string, string>): JobBoard['aliases'] {
    const last = this.aliasesMade;
    if (last && last.map.size === aliases.size) {
      let same = true;
      for (const [key, alias] of aliases) {
        if (last.map.get(key) !== alias) {
          same = false;
          break;
        }
      }
      if (same) return last.record;
    }
    this.aliasesMade = { map: aliases, record: Object.fromEntries(aliases) };
    return this.aliasesMade.record;
  }

  /** Tells the notices, and the board when it changed; returns it with its revision. */
  private tell(computed: JobBoard, notices: readonly JobNotice[], nextDueAt: number | null, now: number): JobBoard {
    for (const notice of notices) void this.noticeChanges.emit(notice);
    // Listeners hear of a board derived from a new fleet cursor (so a reader can pin the board to the snapshot), whose
    // jobs, aliases or counts changed, or whose clock a test moved; the revision counts those boards. Sent as changes,
    // a board that only follows a new cursor costs a few bytes.
    const told = this.told;
    const sameContent = told !== null && sameBoardContent(told.board, computed);
    const changed = !told || told.offsetMs !== this.offsetMs || told.board.cursor !== computed.cursor || !sameContent;
    if (changed) this.revision += 1;
    // A board whose jobs, aliases and counts are those told keeps their objects: its changes are found by `===` alone.
    const board: JobBoard = sameContent ? { ...computed, jobs: told.board.jobs, aliases: told.board.aliases, unlisted: told.board.unlisted, revision: this.revision } : { ...computed, revision: this.revision };
    if (changed) {
      this.told = { board, offsetMs: this.offsetMs };
      void this.boardChanges.emit(board);
    }
    this.schedule(nextDueAt, now);
    return board;
  }

  private schedule(nextDueAt: number | null, now: number): void {
    if (this.disposed || !this.off) return;
    if (this.timer !== null) clearTimeout(this.timer);
    const wait = nextDueAt === null ? MAX_TICK_MS : Math.min(MAX_TICK_MS, Math.max(MIN_TICK_MS, nextDueAt - now));
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.update().catch((error: unknown) => this.options.log?.(`pixelfleet: jobs board failed: ${String(error)}`));
    }, wait);
    this.timer.unref?.();
  }
}

/** What a seat gives the board: its ids and harness, its subagents, and its persona's name and role. */
interface SeatInputs {
  id: string;
  personaId: string;
  harness: Seat['harness'];
  subagents: Seat['subagents'];
  name: string | undefined;
  role: string | null | undefined;
}

function inputsOf(snapshot: Pick<FleetSnapshot, 'seats' | 'personas'>): SeatInputs[] {
  const personas = new Map(snapshot.personas.map((persona) => [persona.id, persona]));
  return snapshot.seats.map((seat) => {
    const persona = personas.get(seat.personaId);
    return { id: seat.id, personaId: seat.personaId, harness: seat.harness, subagents: seat.subagents, name: persona?.name, role: persona?.role };
  });
}

/** True when the snapshot gives the board exactly what `inputs` gave (a subagents summary equal in value counts as the same). */
function sameInputs(inputs: readonly SeatInputs[], snapshot: Pick<FleetSnapshot, 'seats' | 'personas'>): boolean {
  if (inputs.length !== snapshot.seats.length) return false;
  const next = inputsOf(snapshot);
  for (let index = 0; index < next.length; index++) {
    const before = inputs[index];
    const now = next[index];
    if (before.id !== now.id || before.personaId !== now.personaId || before.harness !== now.harness || before.name !== now.name || before.role !== now.role) return false;
    if (before.subagents !== now.subagents && !samePlain(before.subagents, now.subagents)) return false;
  }
  return true;
}

/**
 * Until when (ms) the same inputs give the same board: the next due reminder, and the first moment an ended job leaves
 * (rule J2). An ended job with no recorded end is measured against the clock, so such a board is derived every time.
 */
function stableUntil(jobs: readonly Job[], nextDueAt: number | null): number {
  let until = nextDueAt ?? Number.POSITIVE_INFINITY;
  for (const job of jobs) {
    if (job.state === 'running') continue;
    if (!job.endedAt) return Number.NEGATIVE_INFINITY;
    const end = Date.parse(job.endedAt);
    if (!Number.isNaN(end)) until = Math.min(until, end + ENDED_WINDOW_MS + 1);
  }
  return until;
}

/** A seat's aliases and the summary they were looked up for. */
interface SeatAliases {
  subagents: Seat['subagents'];
  entries: [string, string][];
}
