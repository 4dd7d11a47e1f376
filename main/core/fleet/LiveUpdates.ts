/**
 * Drives refreshes of the fleet: watches on the addressed transcripts (and the persona store), a slow safety
 * poll, and coalescing so renderers get at most 4 fleet updates a second (2 at 100 seats and more).
 */
import type { FleetService } from './FleetService';
import { PathWatchers } from './pathWatchers';

/**
 * The least time between two refreshes started by file events (4 a second at most). A change after a quiet spell is
 * read at once; a busy fleet's changes wait at most this long and arrive together. At 10 a second a 200-agent demo sent
 * the page about 19 updates a second (fleet and jobs), and the page paid for each (about 150 ms/s of its main thread
 * with nothing animating); at 4 a second it gets 8 and pays about 90 (issue 43). The remote hub merges at the same rate.
 */
export const MIN_REFRESH_INTERVAL_MS = 250;
/** Seats up to which refreshes may come every MIN_REFRESH_INTERVAL_MS. */
export const BUSY_FLEET_SEATS = 50;
/** The longest spacing of refreshes started by file events, reached at twice BUSY_FLEET_SEATS seats. */
export const MAX_REFRESH_INTERVAL_MS = 500;

/**
 * The least time between two refreshes of a fleet of `seats`: MIN_REFRESH_INTERVAL_MS up to BUSY_FLEET_SEATS seats,
 * then in proportion to the seats, up to MAX_REFRESH_INTERVAL_MS. A refresh costs the host and every page in
 * proportion to the seats that changed, and a big busy fleet changes some seat all the time: at 100 demo agents, 4
 * updates a second held a sixth of a core in the host, and the page paid for each (issue 43). Spaced to 2 a second
 * there, a busy fleet's changes wait at most half a second; a change after a quiet spell is still read at once.
 */
export function refreshIntervalMs(seats: number): number {
  return Math.round(Math.min(MAX_REFRESH_INTERVAL_MS, MIN_REFRESH_INTERVAL_MS * Math.max(1, seats / BUSY_FLEET_SEATS)));
}
/** The safety poll: catches what file events miss, and `working` → `idle` transitions. */
export const SAFETY_POLL_MS = 5000;

/** Options for the live updates driver. */
export interface LiveUpdatesOptions {
  fleet: FleetService;
  /** Files always watched besides the seats' own (the persona store, the settings). */
  extraPaths?: string[];
  pollMs?: number;
  /** Called on every poll tick (auto-open rules, candidate refresh). */
  onPoll?: () => Promise<void>;
  log?: (message: string) => void;
}

/** Watches, polls and coalesces; `dispose()` stops all of it. */
export class LiveUpdates {
  private watcher: PathWatchers | null = null;
  private timer: NodeJS.Timeout | null = null;
  private poll: NodeJS.Timeout | null = null;
  private running = false;
  private pending = false;
  private lastStart = 0;
  private disposed = false;
  private syncing: Promise<void> = Promise.resolve();
  /** The paths file events named since the last refresh started; `whole` asks the next refresh to read every seat. */
  private changed = new Set<string>();
  private whole = true;
  /** The spacing of refreshes for the fleet as last read (refreshIntervalMs). */
  private interval = MIN_REFRESH_INTERVAL_MS;
  /** The cursor the last refresh gave (a refresh that leaves it sent nothing). */
  private lastCursor = -1;

  constructor(private readonly options: LiveUpdatesOptions) {}

  /** Starts watching and polling. */
  async start(): Promise<void> {
    // Each event names its paths, so a refresh reads only the seats whose files changed (raw fs.watch events, never
    // dropped: a change right after our own read of the previous append is still seen).
    this.watcher = new PathWatchers((paths) => this.noteChange(paths), this.options.log);
    await this.syncWatched();
    const tick = async () => {
      try {
        await this.options.onPoll?.();
      } catch (error) {
        this.options.log?.(`pixelfleet: poll failed: ${String(error)}`);
      }
      this.schedule();
    };
    this.poll = setInterval(() => void tick(), this.options.pollMs ?? SAFETY_POLL_MS);
    this.poll.unref?.();
  }

  /** Asks for a refresh of every seat soon; bursts coalesce into one, at most one every refreshIntervalMs. */
  schedule(): void {
    this.whole = true;
    this.startSoon();
  }

  /** A file event: the paths it names (null: it named none, so every seat is read). */
  private noteChange(paths: readonly string[] | null): void {
    if (paths === null) this.whole = true;
    else for (const path of paths) this.changed.add(path);
    this.startSoon();
  }

  private startSoon(): void {
    if (this.disposed) return;
    if (this.running) {
      this.pending = true;
      return;
    }
    if (this.timer) return;
    const wait = Math.max(0, this.lastStart + this.interval - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run();
    }, wait);
  }

  private async run(): Promise<void> {
    if (this.disposed) return;
    this.running = true;
    this.lastStart = Date.now();
    // Events arriving from here on belong to the next refresh, which reads their seats again.
    const scope = this.whole ? undefined : { changed: this.changed };
    this.changed = new Set();
    this.whole = false;
    try {
      const snapshot = await this.options.fleet.refresh(scope);
      this.interval = refreshIntervalMs(snapshot.seats.length);
      // A refresh that changed nothing (the safety poll over a quiet fleet) sent no update to space the next one from:
      // a change right after it is read at once, as after any quiet spell.
      if (snapshot.cursor === this.lastCursor) this.lastStart = 0;
      this.lastCursor = snapshot.cursor;
      await this.syncWatched();
    } catch (error) {
      this.options.log?.(`pixelfleet: refresh failed: ${String(error)}`);
    } finally {
      this.running = false;
      if (this.pending) {
        this.pending = false;
        this.startSoon();
      }
    }
  }

  /** Keeps the watched set equal to the seats' paths plus the extra paths; calls apply one after another, in order. */
  syncWatched(): Promise<void> {
    this.syncing = this.syncing.then(
      () => this.applyWatched(),
      () => this.applyWatched(),
    );
    return this.syncing;
  }

  private async applyWatched(): Promise<void> {
    if (!this.watcher || this.disposed) return;
    const wanted = new Set([...(await this.options.fleet.watchPaths()), ...(this.options.extraPaths ?? [])]);
    if (!this.disposed) this.watcher.set(wanted);
  }

  /** Stops the watcher, the poll and any scheduled refresh. */
  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.poll) clearInterval(this.poll);
    await this.watcher?.close();
  }
}
