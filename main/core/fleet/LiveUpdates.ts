/**
 * Drives refreshes of the fleet: chokidar on the addressed transcripts (and the persona store), a slow safety
 * poll, and coalescing so renderers get at most ~10 `fleet.changed` events a second.
 */
import { watch, type FSWatcher } from 'chokidar';
import type { FleetService } from './FleetService';

/** The least time between two refreshes started by file events (10 a second at most). */
export const MIN_REFRESH_INTERVAL_MS = 100;
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
  private watcher: FSWatcher | null = null;
  private watched = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private poll: NodeJS.Timeout | null = null;
  private running = false;
  private pending = false;
  private lastStart = 0;
  private disposed = false;
  private syncing: Promise<void> = Promise.resolve();

  constructor(private readonly options: LiveUpdatesOptions) {}

  /** Starts watching and polling. */
  async start(): Promise<void> {
    this.watcher = watch([], { ignoreInitial: true, depth: 0, persistent: true, awaitWriteFinish: false });
    this.watcher.on('all', () => this.schedule());
    // chokidar drops a 'change' when the file's access time is newer than its modification time — which is exactly
    // what our own read of the previous append leaves behind. The raw fs.watch event is never dropped.
    this.watcher.on('raw', () => this.schedule());
    this.watcher.on('error', (error) => this.options.log?.(`pixelfleet: file watcher: ${String(error)}`));
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

  /** Asks for a refresh soon; bursts coalesce into one, at most one every MIN_REFRESH_INTERVAL_MS. */
  schedule(): void {
    if (this.disposed) return;
    if (this.running) {
      this.pending = true;
      return;
    }
    if (this.timer) return;
    const wait = Math.max(0, this.lastStart + MIN_REFRESH_INTERVAL_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run();
    }, wait);
  }

  private async run(): Promise<void> {
    if (this.disposed) return;
    this.running = true;
    this.lastStart = Date.now();
    try {
      await this.options.fleet.refresh();
      await this.syncWatched();
    } catch (error) {
      this.options.log?.(`pixelfleet: refresh failed: ${String(error)}`);
    } finally {
      this.running = false;
      if (this.pending) {
        this.pending = false;
        this.schedule();
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
    const add = [...wanted].filter((path) => !this.watched.has(path));
    const remove = [...this.watched].filter((path) => !wanted.has(path));
    if (add.length) this.watcher.add(add);
    if (remove.length) this.watcher.unwatch(remove);
    this.watched = wanted;
  }

  /** Stops the watcher, the poll and any scheduled refresh. */
  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.poll) clearInterval(this.poll);
    await this.watcher?.close();
  }
}
