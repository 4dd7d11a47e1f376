/**
 * The history store: `history.sqlite` in the app home (WAL, one writer: the host). It writes each batch of
 * transitions in one transaction, keeps whole states every few minutes so a seek replays at most a few minutes
 * forward, and prunes by age and size. A corrupt or foreign file is moved aside and a fresh store started.
 */
import { promises as fs } from 'node:fs';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { HISTORY_SNAPSHOT_EVERY_MS } from './bounds';
import { decodeRow, insertParams, INSERTS, JOB_END, JOB_ENDS, jobEnd, mergeByTime, SELECTS } from './rows';
import { migrate, TIMED_TABLES, type SchemaCheck } from './schema';
import { inTransaction, openDatabase, type Database } from './sqlite';
import { applyTransition, cloneWorld, decodeWorld, emptyWorld, encodeWorld, type Transition, type WorldState } from '../../../shared/pastWorld';

/** A store that opened, or why not (`unavailable`: cannot be written now; `newer`: a newer Pixelfleet's store). */
export type OpenStore = { ok: true; store: HistoryStore; movedAside: string | null } | { ok: false; kind: 'unavailable' | 'newer'; reason: string };

/** True when an error from either driver says the file is not a database or is damaged. */
export function isCorruptError(error: unknown): boolean {
  const code = String((error as { code?: unknown })?.code ?? '');
  const message = String((error as Error)?.message ?? '');
  return /SQLITE_(NOTADB|CORRUPT)/.test(code) || /file is not a database|malformed|corrupt/i.test(message);
}

async function moveAside(file: string, now: Date): Promise<string> {
  const aside = `${file}.aside-${now.toISOString().replace(/[:.]/g, '-')}`;
  await fs.rename(file, aside);
  for (const suffix of ['-wal', '-shm']) await fs.rename(`${file}${suffix}`, `${aside}${suffix}`).catch(() => undefined);
  return aside;
}

async function tryOpen(file: string, readOnly: boolean): Promise<{ database: Database; check: SchemaCheck }> {
  const database = await openDatabase(file, { readOnly });
  try {
    if (!readOnly) {
      database.exec('PRAGMA journal_mode = WAL');
      database.exec('PRAGMA synchronous = NORMAL');
    }
    const check = readOnly ? readOnlyCheck(database) : migrate(database);
    return { database, check };
  } catch (error) {
    database.close();
    throw error;
  }
}

function readOnlyCheck(database: Database): SchemaCheck {
  const version = Number(database.pragma('user_version'));
  return version === 0 ? { kind: 'foreign' } : { kind: 'ready', from: version };
}

/**
 * Opens the store for writing, migrating an older one. A corrupt or foreign file is moved aside (the caller logs one
 * line) and a fresh one started; a newer one is left alone; an unwritable home is `unavailable`.
 */
export async function openHistoryStore(file: string, now: () => number = Date.now): Promise<OpenStore> {
  let movedAside: string | null = null;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const { database, check } = await tryOpen(file, false);
      if (check.kind === 'ready') return { ok: true, store: new HistoryStore(database, now), movedAside };
      database.close();
      if (check.kind === 'newer') return { ok: false, kind: 'newer', reason: `${file} was written by a newer Pixelfleet (schema ${check.version}); history is not recorded until Pixelfleet is updated.` };
      movedAside = await moveAside(file, new Date(now()));
    } catch (error) {
      if (!isCorruptError(error) || attempt > 0) return { ok: false, kind: 'unavailable', reason: `${file} cannot be written (${(error as Error)?.message ?? String(error)})` };
      movedAside = await moveAside(file, new Date(now()));
    }
  }
  return { ok: false, kind: 'unavailable', reason: `${file} could not be started afresh.` };
}

/** Opens an existing store read-only (the CLI), or null when there is none. Throws when it is not a store. */
export async function openHistoryReader(file: string, now: () => number = Date.now): Promise<HistoryStore | null> {
  const exists = await fs.stat(file).then(() => true, () => false);
  if (!exists) return null;
  const { database, check } = await tryOpen(file, true);
  if (check.kind !== 'ready') {
    database.close();
    throw new Error(`${file} is not a Pixelfleet history store`);
  }
  return new HistoryStore(database, now);
}

/** The tables a seek replays (needs-you, launches and usage change nothing drawn). */
export const WORLD_TYPES = ['persona', 'seat', 'activity', 'job'] as const;
/** The tables that hold those transitions (a job's start and its end are rows of two). */
const WINDOW_TABLES = ['persona_event', 'seat_event', 'activity', 'job', 'job_end'];

/** The open store; every method is synchronous (SQLite on this thread), every write one transaction. */
export class HistoryStore {
  private cachedSnapshot: { id: number; world: WorldState } | null = null;
  private lastSnapshotAt: number | null = null;
  private nextJobRow: number | null = null;
  private readonly ids = new Map<string, number>();
  private readonly texts = new Map<number, string>();
  private readonly intern = (text: string): number => {
    let id = this.ids.get(text);
    if (id === undefined) {
      this.database.prepare('INSERT OR IGNORE INTO name (text) VALUES (?)').run(text);
      id = Number(this.database.prepare('SELECT id FROM name WHERE text = ?').get(text)!.id);
      this.ids.set(text, id);
      this.texts.set(id, text);
    }
    return id;
  };
  private readonly lookup = (id: number): string => {
    let text = this.texts.get(id);
    if (text === undefined) {
      text = String(this.database.prepare('SELECT text FROM name WHERE id = ?').get(id)?.text ?? `#${id}`);
      this.texts.set(id, text);
    }
    return text;
  };

  constructor(
    readonly database: Database,
    private readonly now: () => number,
  ) {}

  /** Writes transitions (and, when given, the world after them as a snapshot) in one transaction. */
  write(transitions: readonly Transition[], snapshot?: WorldState): void {
    if (transitions.length === 0 && !snapshot) return;
    try {
      inTransaction(this.database, () => {
        for (const transition of transitions) {
          // A job's start inserts its row; its end (in this batch or a later one) adds a `job_end` row beside it.
          if (transition.t === 'job' && transition.ended) this.database.prepare(JOB_END).run(transition.row, transition.at, transition.outcome === null ? null : this.intern(transition.outcome), transition.row);
          else this.database.prepare(INSERTS[transition.t]).run(...insertParams(transition, this.intern));
        }
        if (snapshot) this.insertSnapshot(snapshot);
      });
    } catch (error) {
      // Names interned in a transaction that rolled back are not in the table.
      this.ids.clear();
      this.texts.clear();
      throw error;
    }
  }

  private insertSnapshot(world: WorldState): void {
    // Deflated: a whole world's JSON is mostly the same keys again and again (about a sixth of its size stored).
    this.database.prepare('INSERT INTO snapshot (at, state) VALUES (?, ?)').run(world.at, deflateRawSync(encodeWorld(world)));
    this.lastSnapshotAt = world.at;
  }

  /** A fresh job row id (the next after the largest written), so a job's start and end share one row. */
  newJobRow(): number {
    if (this.nextJobRow === null) this.nextJobRow = Number(this.database.prepare('SELECT coalesce(max(id), 0) AS id FROM job').get()?.id ?? 0);
    this.nextJobRow += 1;
    return this.nextJobRow;
  }

  /** Keys of jobs that ended since `since` (a board lists ended jobs for 30 minutes; they are not new after a restart). */
  endedSince(since: number): string[] {
    return this.database
      .prepare('SELECT job.seat, job.native_id, job.key FROM job_end e JOIN job ON job.id = e.job WHERE e.at >= ?')
      .all(since)
      .map((row) => (typeof row.key === 'string' ? row.key : `${this.lookup(Number(row.seat))}|${String(row.native_id)}`));
  }

  /** When the newest snapshot was taken (null: none yet). */
  newestSnapshotAt(): number | null {
    if (this.lastSnapshotAt === null) {
      const row = this.database.prepare('SELECT max(at) AS at FROM snapshot').get();
      this.lastSnapshotAt = row?.at === null || row?.at === undefined ? null : Number(row.at);
    }
    return this.lastSnapshotAt;
  }

  /** True when the world should be saved whole again at `at`. */
  snapshotDue(at: number): boolean {
    const last = this.newestSnapshotAt();
    return last === null || at - last >= HISTORY_SNAPSHOT_EVERY_MS;
  }

  /** The oldest recorded instant, or null when nothing is recorded. */
  oldest(): number | null {
    const row = this.database.prepare('SELECT min(at) AS at FROM snapshot').get();
    return row?.at === null || row?.at === undefined ? null : Number(row.at);
  }

  /**
   * The world at `at`: the newest snapshot at or before it, with the transitions after it applied forward. `exact`
   * is false when `at` is before everything recorded (the oldest state is given).
   */
  seek(at: number): { world: WorldState; exact: boolean } {
    let row = this.database.prepare('SELECT id, at, state FROM snapshot WHERE at <= ? ORDER BY at DESC, id DESC LIMIT 1').get(at);
    let exact = true;
    if (!row) {
      row = this.database.prepare('SELECT id, at, state FROM snapshot ORDER BY at, id LIMIT 1').get();
      exact = false;
    }
    if (!row) return { world: emptyWorld(at), exact: false };
    const id = Number(row.id);
    let base = this.cachedSnapshot?.id === id ? this.cachedSnapshot.world : null;
    if (!base) {
      base = decodeWorld(snapshotText(row.state)) ?? emptyWorld(Number(row.at));
      this.cachedSnapshot = { id, world: base };
    }
    const world = cloneWorld(base);
    if (exact) for (const transition of this.transitions(Number(row.at), at, WORLD_TYPES)) applyTransition(world, transition);
    world.at = exact ? at : world.at;
    return { world, exact };
  }

  /**
   * The latest start at or after `from` from which `(start, to]` holds fewer than `rows` of the world's transitions
   * and fewer than `rows` usage samples (a history window's bound): `from` itself when it already does.
   */
  windowStart(from: number, to: number, rows: number): number {
    let start = from;
    for (const tables of [WINDOW_TABLES, ['usage_sample']]) {
      const times: number[] = [];
      for (const table of tables) for (const row of this.database.prepare(`SELECT at FROM ${table} WHERE at > ? AND at <= ? ORDER BY at DESC LIMIT ?`).all(start, to, rows)) times.push(Number(row.at));
      if (times.length < rows) continue;
      times.sort((left, right) => right - left);
      start = Math.max(start, times[rows - 1]);
    }
    return start;
  }

  /**
   * The whole-world snapshots taken in `(from, to]`, oldest first, each as a seek reads it (a damaged one as an empty
   * world): a seek inside a history window starts from the newest of them at or before its moment, as `seek` does.
   */
  snapshotsBetween(from: number, to: number): WorldState[] {
    return this.database
      .prepare('SELECT at, state FROM snapshot WHERE at > ? AND at <= ? ORDER BY at, id')
      .all(from, to)
      .map((row) => ({ ...(decodeWorld(snapshotText(row.state)) ?? emptyWorld(Number(row.at))), at: Number(row.at) }));
  }

  /** Transitions in `(from, to]`, oldest first, of the given types (all when absent). */
  transitions(from: number, to: number, types: readonly Transition['t'][] = Object.keys(SELECTS) as Transition['t'][]): Transition[] {
    const lists = types.map((type) =>
      type === 'job'
        ? [
            ...this.database.prepare(SELECTS.job).all(from, to).map((row) => decodeRow('job', row, this.lookup)),
            ...this.database.prepare(JOB_ENDS).all(from, to).map((row) => jobEnd(row, this.lookup)),
          ]
        : this.database.prepare(SELECTS[type]).all(from, to).map((row) => decodeRow(type, row, this.lookup)),
    );
    return mergeByTime(lists);
  }

  /** Bytes the store's live pages take (free pages left by pruning not counted). */
  sizeBytes(): number {
    const pages = Number(this.database.pragma('page_count')) - Number(this.database.pragma('freelist_count'));
    return pages * Number(this.database.pragma('page_size'));
  }

  /**
   * Drops every row before `cutoff`, first saving the world at the cutoff as a snapshot so a seek there stays
   * exact; then hands the freed pages back to the file system.
   */
  dropBefore(cutoff: number): void {
    const oldest = this.oldest();
    if (oldest === null || oldest >= cutoff) return;
    const { world } = this.seek(cutoff);
    world.at = cutoff;
    inTransaction(this.database, () => {
      this.database.prepare('DELETE FROM snapshot WHERE at = ?').run(cutoff);
      this.insertSnapshot(world);
      // A job goes with its end; one still running at the cutoff keeps its row, for the end still to come.
      for (const table of TIMED_TABLES) {
        if (table === 'job') this.database.prepare('DELETE FROM job WHERE at < ? AND id IN (SELECT job FROM job_end WHERE at < ?)').run(cutoff, cutoff);
        else this.database.prepare(`DELETE FROM ${table} WHERE at < ?`).run(cutoff);
      }
    });
    this.cachedSnapshot = null;
    this.lastSnapshotAt = null;
    this.database.exec('PRAGMA incremental_vacuum');
  }

  /** The current instant of the store's clock. */
  clock(): number {
    return this.now();
  }

  /** Closes the connection (checkpointing the WAL). */
  close(): void {
    this.database.close();
  }
}

/** A stored snapshot's JSON: deflated bytes (this build) or text (stores written before snapshots were deflated). */
function snapshotText(state: unknown): string {
  if (typeof state === 'string') return state;
  if (!(state instanceof Uint8Array)) return '';
  try {
    return inflateRawSync(state).toString('utf8');
  } catch {
    // A damaged snapshot reads as none: the seek starts from an empty world.
    return '';
  }
}
