/**
 * Station backlogs: every configured source cached and refreshed in the background, filtered by label on
 * demand. A failing source keeps serving its last good items beside its error while the others keep working.
 */
import type { SourceError, WorkItem } from '../../../shared/schemas';
import type { WorkSourceConfig } from './workSettings';
import { createWorkSource } from './createSource';
import { itemsLabelled, labelKey } from './labelMatch';
import { SourceFailure, type WorkListing, type WorkSource } from './port';
import { Changes, type ChangeListener } from '../../kit/changes';

/** How the service is built; only `sources` and `env` are required. */
export interface WorkServiceOptions {
  sources: WorkSourceConfig[];
  /** Where tokens are read from (each source names its variable); never copied elsewhere. */
  env: NodeJS.ProcessEnv;
  /** Milliseconds between background refreshes, and the age after which a cached listing is stale. */
  refreshMs?: number;
  fetch?: typeof globalThis.fetch;
  /** Milliseconds one request may take. */
  timeoutMs?: number;
  /** Milliseconds within which an on-demand refresh reuses the cache, so clicking stations cannot flood a tracker. */
  onDemandFloorMs?: number;
  /** Milliseconds one source's refresh may take before it shows an error and the others answer without it. */
  sourceDeadlineMs?: number;
  /** Ready-made backends added after the configured ones (the demo fleet, tests). */
  extraSources?: WorkSource[];
}

/** One station's backlog: its items and, when a source failed, the sentences to show. */
export interface Backlog {
  items: WorkItem[];
  error?: string;
}

/** The items for one label, with every source's error beside them. */
export interface LabelledItems {
  items: WorkItem[];
  errors: SourceError[];
}

interface SourceState {
  source: WorkSource;
  items: WorkItem[];
  problems: string[];
  failure?: string;
  /** Epoch milliseconds of the last completed listing, or null before the first. */
  fetchedAt: number | null;
  /** Epoch milliseconds before which the source is not asked again (a rate limit). */
  retryAt: number;
  inFlight: Promise<void> | null;
  /** The source's own listing while it runs past the deadline: no second one starts until it settles. */
  overdue: Promise<unknown> | null;
}

/** The default deadline of one source's refresh, in milliseconds. */
export const SOURCE_DEADLINE_MS = 10_000;

/** Caches and refreshes the work sources; the fleet reads backlogs from it without touching the network. */
export class WorkService {
  private readonly states: SourceState[];
  private readonly changes = new Changes('work source');
  private readonly stopper = new AbortController();
  private readonly refreshMs: number;
  private readonly onDemandFloorMs: number;
  private readonly deadlineMs: number;
  private timer: ReturnType<typeof setInterval> | null = null;
  private emittedFingerprint: string;
  private disposed = false;

  constructor(options: WorkServiceOptions) {
    this.refreshMs = options.refreshMs ?? 60_000;
    this.onDemandFloorMs = options.onDemandFloorMs ?? 5_000;
    this.deadlineMs = options.sourceDeadlineMs ?? SOURCE_DEADLINE_MS;
    const dependencies = {
      env: options.env,
      fetch: options.fetch ?? globalThis.fetch,
      timeoutMs: options.timeoutMs ?? 10_000,
      signal: this.stopper.signal,
    };
    const sources = [...options.sources.map((config) => createWorkSource(config, dependencies)), ...(options.extraSources ?? [])];
    this.states = sources.map((source) => ({ source, items: [], problems: [], fetchedAt: null, retryAt: 0, inFlight: null, overdue: null }));
    this.emittedFingerprint = this.fingerprint();
  }

  /** The names of the configured sources, in order. */
  get sourceNames(): string[] {
    return this.states.map((state) => state.source.name);
  }

  /** Items labelled `label` (case-insensitive); fetches sources that are stale, or all of them when `refresh`. */
  async items(label: string, options: { refresh?: boolean } = {}): Promise<LabelledItems> {
    const now = Date.now();
    const due = this.states.filter(
      (state) =>
        state.fetchedAt === null ||
        now - state.fetchedAt >= this.refreshMs ||
        (options.refresh === true && now - state.fetchedAt >= this.onDemandFloorMs),
    );
    if (due.length > 0) await this.refresh(due);
    return { items: this.states.flatMap((state) => itemsLabelled(state.items, label)), errors: this.errors() };
  }

  /** Every cached item with this id (any label), fetching sources that are stale first; for dispatch (issue 40). */
  async itemsWithId(id: string): Promise<WorkItem[]> {
    const now = Date.now();
    const due = this.states.filter((state) => state.fetchedAt === null || now - state.fetchedAt >= this.refreshMs);
    if (due.length > 0) await this.refresh(due);
    return this.states.flatMap((state) => state.items.filter((item) => item.id === id));
  }

  /** Each role's backlog from the caches alone (no network), keyed by the role's key; for the fleet snapshot. */
  backlogFor(roles: string[]): Map<string, Backlog> {
    const error = this.errors().map((entry) => entry.message).join(' ');
    const backlogs = new Map<string, Backlog>();
    for (const role of roles) {
      const items = this.states.flatMap((state) => itemsLabelled(state.items, role));
      backlogs.set(labelKey(role), error ? { items, error } : { items });
    }
    return backlogs;
  }

  /** Every source's current error sentences (a failure, or files it skipped). */
  errors(): SourceError[] {
    return this.states.flatMap((state) => [
      ...state.problems.map((message) => ({ source: state.source.name, message })),
      ...(state.failure ? [{ source: state.source.name, message: state.failure }] : []),
    ]);
  }

  /** How many sources failed as a whole at their last listing (skipped Markdown files do not count). */
  failedSourceCount(): number {
    return this.states.filter((state) => state.failure !== undefined).length;
  }

  /** Refreshes now and then every `refreshMs` in the background; a timer that never keeps the process alive. */
  start(): void {
    if (this.timer || this.disposed) return;
    void this.refreshAll();
    this.timer = setInterval(() => void this.refreshAll(), this.refreshMs);
    this.timer.unref?.();
  }

  /** Fetches every source; true when any item or error changed since listeners were last told. */
  refreshAll(): Promise<boolean> {
    return this.refresh(this.states);
  }

  /** Calls `listener` after a refresh that changed the items or errors; returns the unsubscribe function. */
  onChange(listener: ChangeListener<void>): () => void {
    return this.changes.on(listener);
  }

  /** Stops the timer, aborts requests in flight and forgets the listeners. */
  dispose(): void {
    this.disposed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopper.abort();
    this.changes.clear();
  }

  private async refresh(states: SourceState[]): Promise<boolean> {
    await Promise.all(states.map((state) => this.refreshOne(state)));
    if (this.disposed) return false;
    // Compared with what listeners last saw, so overlapping refreshes announce one change once.
    const fingerprint = this.fingerprint();
    if (fingerprint === this.emittedFingerprint) return false;
    this.emittedFingerprint = fingerprint;
    await this.changes.emit();
    return true;
  }

  /** One listing per source at a time: concurrent callers share the request in flight. */
  private refreshOne(state: SourceState): Promise<void> {
    if (state.inFlight) return state.inFlight;
    if (this.disposed || Date.now() < state.retryAt) return Promise.resolve();
    state.inFlight = (async () => {
      try {
        const listing = await this.withinDeadline(state);
        state.items = listing.items;
        state.problems = listing.problems;
        state.failure = undefined;
        state.retryAt = 0;
      } catch (error) {
        // The last good items stay: the station keeps its backlog and shows the error beside it.
        state.failure =
          error instanceof SourceFailure
            ? error.message
            : `${state.source.name}: failed unexpectedly (${error instanceof Error ? error.message : String(error)}).`;
        state.retryAt = error instanceof SourceFailure && error.retryAt ? error.retryAt : 0;
      } finally {
        state.fetchedAt = Date.now();
        state.inFlight = null;
      }
    })();
    return state.inFlight;
  }

  /**
   * The source's listing, or a SourceFailure once the deadline passes. A listing still running from an earlier
   * refresh is not started again (it may hold a thread); the source keeps showing that it has not answered.
   */
  private async withinDeadline(state: SourceState): Promise<WorkListing> {
    const late = new SourceFailure(`${state.source.name}: did not answer within ${this.deadlineMs / 1000} s; it is asked again at the next refresh.`);
    if (state.overdue) throw late;
    const listing = state.source.list();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.deadlineMs);
      timer.unref?.();
    });
    try {
      const outcome = await Promise.race([listing, deadline]);
      if (outcome !== 'late') return outcome;
    } finally {
      clearTimeout(timer);
    }
    const settled = listing.then(
      () => undefined,
      () => undefined,
    );
    state.overdue = settled;
    void settled.then(() => {
      if (state.overdue === settled) state.overdue = null;
    });
    throw late;
  }

  private fingerprint(): string {
    return JSON.stringify(this.states.map((state) => [state.items, state.problems, state.failure ?? null]));
  }
}
