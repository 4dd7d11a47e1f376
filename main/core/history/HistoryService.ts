/**
 * The history service: opens the store in the app home, records the fleet's and the jobs board's changes (host
 * only, while `history.days` > 0), prunes by age and size, and answers the timeline, a past moment and the away
 * digest. A store that cannot be written stops recording with one notice; the world keeps working.
 */
import { dirname, join } from 'node:path';
import type { EventName, EventOf } from '../../../shared/contract';
import { digestTotals, HISTORY_WINDOW_MS, HISTORY_WINDOW_ROWS, type HistoryDigest, type HistoryMoment, type HistorySpan, type HistoryWindow } from '../../../shared/history';
import { jobKey, type Job } from '../../../shared/jobs';
import type { FleetSnapshot, Harness, Notice } from '../../../shared/schemas';
import { HISTORY_BUCKETS_DEFAULT, HISTORY_CAP_BYTES, HISTORY_CAP_TRIM_SHARE, HISTORY_PRUNE_EVERY_MS } from './bounds';
import { moveAliasFile, StoreAliases } from './aliases';
import { ALIAS_MARK_FILE } from './aliasMark';
import { worldSnapshot, type UsageSample, type WorldState, type WorldTransition } from '../../../shared/pastWorld';
import { latestSamples, samplesBetween, withPastUsage } from './pastUsage';
import { readDigest, readSpan } from './queries';
import { HistoryRecorder } from './recorder';
import { defaultHistorySettings, type HistorySettings } from './settings';
import { openHistoryStore, WORLD_TYPES, type HistoryStore } from './store';
import { usageBy } from './usageBy';
import type { UsageByKey, UsageByRow } from '../../../shared/pace';

/** How the service is set up. */
export interface HistoryServiceOptions {
  /** `<app home>/history.sqlite`. */
  file: string;
  /** `<app home>/job-aliases.json`, moved into the store once. */
  aliasFile?: string;
  /** The job aliases' high-water mark file (default: `job-alias-mark.json` beside the store). */
  aliasMarkFile?: string;
  settings?: HistorySettings;
  /** Record changes (the host); one-shot commands only read. */
  record: boolean;
  capBytes?: number;
  now?: () => number;
  log?: (message: string) => void;
}

/** Writes a past into an empty store (the demo's hour, from dev/demo): the recorder, the fleet now, the time, aliases. */
export type PastWriter = (recorder: HistoryRecorder, snapshot: FleetSnapshot, now: number, options: { alias: (job: Job) => string | null }) => void;

const DAY_MS = 86_400_000;

/** See the module header. */
export class HistoryService {
  readonly aliases: StoreAliases;
  private store: HistoryStore | null = null;
  private recorder: HistoryRecorder | null = null;
  private readonly noticeList: Notice[] = [];
  private unavailable: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly now: () => number;
  private readonly settings: HistorySettings;
  private readonly log: (message: string) => void;

  private constructor(private readonly options: HistoryServiceOptions) {
    this.now = options.now ?? Date.now;
    this.settings = options.settings ?? defaultHistorySettings();
    this.log = options.log ?? (() => {});
    this.aliases = new StoreAliases(() => this.store?.database ?? null, this.now, undefined, options.aliasMarkFile ?? join(dirname(options.file), ALIAS_MARK_FILE));
  }

  /** Opens the store (moving a corrupt or foreign one aside) and starts recording when asked to. */
  static async open(options: HistoryServiceOptions): Promise<HistoryService> {
    const service = new HistoryService(options);
    await service.start();
    return service;
  }

  private async start(): Promise<void> {
    const opened = await openHistoryStore(this.options.file, this.now);
    if (!opened.ok) {
      this.stop(opened.reason);
      return;
    }
    this.store = opened.store;
    if (opened.movedAside) this.log(`pixelfleet: ${this.options.file} was not a readable history store; it was moved aside to ${opened.movedAside} and a fresh one started.`);
    // Issue 36: counters never fall below the high-water mark kept beside the store (a damaged store loses its own).
    try {
      this.aliases.raiseToMark();
    } catch (error) {
      this.log(`pixelfleet: the job alias mark could not be applied: ${String((error as Error)?.message ?? error)}`);
    }
    if (this.options.aliasFile) {
      const moved = await moveAliasFile(opened.store.database, this.options.aliasFile, this.now()).catch((error: unknown) => ({ kind: 'left' as const, reason: String((error as Error)?.message ?? error) }));
      if (moved.kind === 'left') this.addNotice('history-aliases', 'warning', moved.reason);
      if (moved.kind === 'salvaged') this.addNotice('history-aliases', 'warning', `The job alias file was unreadable; its counters were carried into the history store (the file is kept as ${moved.aside}), so no alias is issued twice.`);
    }
    if (!this.options.record || this.settings.days === 0) return;
    this.recorder = new HistoryRecorder(opened.store, this.now, (reason) => this.stop(`writing ${this.options.file} failed (${reason})`));
    this.prune();
    this.timer = setInterval(() => this.prune(), HISTORY_PRUNE_EVERY_MS);
    this.timer.unref?.();
  }

  /** Recording stops for good (this run) with one notice and one log line. */
  private stop(reason: string): void {
    if (this.unavailable) return;
    this.unavailable = reason;
    this.recorder = null;
    if (this.timer) clearInterval(this.timer);
    this.addNotice('history-stopped', 'warning', `History is not being recorded: ${reason}. The world keeps working; free space or fix the folder's permissions and restart Pixelfleet.`);
    this.log(`pixelfleet: history stopped: ${reason}`);
  }

  /** True while changes are being recorded. */
  get recording(): boolean {
    return this.recorder !== null && this.recorder.failed === null;
  }

  /** The recorder (demo backfill writes through it); null when not recording. */
  get writer(): HistoryRecorder | null {
    return this.recording ? this.recorder : null;
  }

  /** The event stream's listener: fleet and jobs changes become transitions. */
  onEvent<E extends EventName>(event: E, payload: EventOf<E>): void {
    const recorder = this.writer;
    if (!recorder) return;
    if (event === 'fleet.changed') recorder.fleetWhole((payload as EventOf<'fleet.changed'>).snapshot);
    else if (event === 'fleet.patched') recorder.fleetPatch((payload as EventOf<'fleet.patched'>).patch);
    else if (event === 'jobs.changed') recorder.jobsWhole((payload as EventOf<'jobs.changed'>).board);
    else if (event === 'jobs.patched') recorder.jobsPatch((payload as EventOf<'jobs.patched'>).patch);
  }

  /** Records an agent launched from Pixelfleet. */
  recordLaunch(launched: { personaId: string; harness: Harness; name: string; role: string | null }): void {
    this.writer?.launch(launched);
  }

  /** Records that a reply was sent to a persona's terminal (never its text). */
  recordReply(personaId: string, at?: number): void {
    this.writer?.reply(personaId, at);
  }

  /**
   * Fills an empty store's past through the recorder (the demo's first run: its past hour), consistent with the
   * fleet `read` gives; `write` is handed the job aliases the store issues. Returns whether it wrote.
   */
  async fillPast(read: () => Promise<FleetSnapshot>, write: PastWriter): Promise<boolean> {
    if (!this.writer || !this.store || this.store.oldest() !== null) return false;
    const snapshot = await read();
    const recorder = this.writer;
    if (!recorder) return false;
    // One alias at a time, the aliases' mark file written once at the end (a rename per alias took seconds at 300 agents).
    this.aliases.batched(() =>
      write(recorder, snapshot, this.now(), {
        alias: (job) => (job.nativeId === null ? null : (this.aliases.aliasesNow([{ key: jobKey(job.seatId, job.nativeId), type: job.type }]).values().next().value ?? null)),
      }),
    );
    return recorder.failed === null;
  }

  /** Retention (`history.days`) and the size cap: the oldest rows go first. */
  prune(): void {
    const store = this.store;
    if (!store || !this.recording) return;
    try {
      const now = this.now();
      store.dropBefore(now - this.settings.days * DAY_MS);
      const cap = this.options.capBytes ?? HISTORY_CAP_BYTES;
      for (let round = 0, size = store.sizeBytes(); round < 10 && size > cap; round += 1, size = store.sizeBytes()) {
        const oldest = store.oldest();
        if (oldest === null || oldest >= now) break;
        // Drop the share of the span the excess stands for (at least a tenth), so a few rounds reach the cap.
        const share = Math.min(0.9, Math.max(HISTORY_CAP_TRIM_SHARE, 1 - (cap * (1 - HISTORY_CAP_TRIM_SHARE)) / size));
        store.dropBefore(oldest + Math.max(1000, Math.ceil((now - oldest) * share)));
      }
      this.aliases.trim();
    } catch (error) {
      this.stop(`pruning ${this.options.file} failed (${(error as Error)?.message ?? String(error)})`);
    }
  }

  /** Messages for the owner (recording stopped, the alias file left). */
  notices(): Notice[] {
    return [...this.noticeList];
  }

  /** The timeline bar's span. */
  span(buckets = HISTORY_BUCKETS_DEFAULT): HistorySpan {
    const now = this.now();
    const base = { recording: this.recording, reason: this.reason(), awayMs: this.settings.awayMinutes * 60_000, days: this.settings.days };
    if (!this.store) return { ...base, from: null, to: new Date(now).toISOString(), bucketMs: 1000, buckets: [], needsYou: [] };
    return { ...base, ...readSpan(this.store, now, buckets) };
  }

  /** The world at `at` (ISO). */
  at(at: string): HistoryMoment {
    const ms = Math.min(Date.parse(at), this.now());
    if (!this.store) return { at: new Date(ms).toISOString(), exact: false, snapshot: { cursor: 0, seats: [], personas: [], stations: [] } };
    const { world, exact } = this.store.seek(ms);
    const snapshot = worldSnapshot(world);
    // Each seat's usage as recorded by then, so a past card shows the figures of that moment (issue 38).
    return { at: new Date(ms).toISOString(), exact, snapshot: { ...snapshot, seats: withPastUsage(this.store.database, ms, snapshot.seats) } };
  }

  /**
   * Recent history for the page to fold itself (shared/pastWorld.ts): the world at the window's start, the world's
   * transitions after it and the usage samples of every seat in it. The last HISTORY_WINDOW_MS, started later when
   * that held HISTORY_WINDOW_ROWS transitions or samples; null without a store or anything recorded.
   */
  window(): HistoryWindow {
    const store = this.store;
    const oldest = store?.oldest() ?? null;
    if (!store || oldest === null) return null;
    const until = this.now();
    if (until < oldest) return null;
    const from = store.windowStart(Math.max(oldest, until - HISTORY_WINDOW_MS), until, HISTORY_WINDOW_ROWS);
    const { world, exact } = store.seek(from);
    if (!exact) return null;
    const transitions = store.transitions(from, until, WORLD_TYPES) as WorldTransition[];
    const snapshots = store.snapshotsBetween(from, until);
    const seats = new Set(world.seats.keys());
    for (const transition of transitions) if (transition.t === 'seat') seats.add(transition.seat);
    for (const snapshot of snapshots) for (const seat of snapshot.seats.keys()) seats.add(seat);
    const usage = new Map<string, UsageSample[]>();
    for (const [seat, sample] of latestSamples(store.database, from, seats)) usage.set(seat, [sample]);
    for (const { seat, sample } of samplesBetween(store.database, from, until)) {
      if (!seats.has(seat)) continue;
      const list = usage.get(seat);
      if (list) list.push(sample);
      else usage.set(seat, [sample]);
    }
    return {
      from,
      until,
      base: worldRecord(world),
      snapshots: snapshots.map(worldRecord),
      transitions,
      usage: [...usage].map(([seat, samples]) => ({ seat, samples })),
    };
  }

  /** The away digest since `since` (ISO) until now. */
  digest(since: string): HistoryDigest {
    const until = this.now();
    const from = Math.min(Date.parse(since), until);
    const base = { since: new Date(from).toISOString(), until: new Date(until).toISOString() };
    if (!this.store) return { ...base, entries: [], more: 0, totals: digestTotals([]) };
    return { ...base, ...readDigest(this.store, from, until) };
  }

  /** Spend grouped by day, role, harness or host from the usage samples of `(from, to]` (issue 41); null without a store. */
  usageBy(by: UsageByKey, from: number, to: number): UsageByRow[] | null {
    return this.store ? usageBy(this.store, by, from, to) : null;
  }

  private reason(): string | null {
    if (this.unavailable) return this.unavailable;
    if (this.settings.days === 0) return 'history.days is 0 in settings.json: recording is off.';
    if (!this.options.record) return 'Only the running app records history.';
    return null;
  }

  private addNotice(id: string, level: Notice['level'], message: string): void {
    if (!this.noticeList.some((notice) => notice.id === id)) this.noticeList.push({ id, level, message });
  }

  /** Stops pruning and closes the store. */
  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.recorder = null;
    this.store?.close();
    this.store = null;
  }
}

/** A world as a history window carries it. */
function worldRecord(world: WorldState): NonNullable<HistoryWindow>['base'] {
  return { at: world.at, seats: [...world.seats.values()], personas: [...world.personas.values()], jobs: [...world.jobs.values()] };
}
