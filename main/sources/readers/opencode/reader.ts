/**
 * The OpenCode seat reader: the I/O edge over the store (projections share one read-only connection per store for a
 * burst, `keptConnection.ts`), joining the bounded queries of `store.ts` with the pure rules of `taskCalls.ts` and
 * `transcript.ts`.
 */
import { statSync } from 'node:fs';
import type { Candidate, SeatAddress } from '../../../../shared/schemas';
import type { DiscoverOptions, Projection, ReplayResult, SeatReader } from '../port';
import { discoverSessions, findSession, resolveOpenCodeDbs, openCodeDataDir } from './locate';
import { replayCall } from './replay';
import { existsInSessionV2, inspectStore, schemaReason, V2_ONLY_REASON } from './schema';
import { isBusyError, type SqliteDatabase } from './sqlite';
import { closeKeptConnections, withKeptSnapshot } from './keptConnection';
import { directChildren, readSession, selectActivityFacts, selectTaskRows, sessionFingerprint } from './store';
import { openCodeActivityBasis } from './activity';
import { openCodeSeatUsage } from './usage';
import { readCensus } from './census';
import { collectRows, summarize } from './taskCalls';
import { DISCOVER_LIMIT, OPENCODE_UNCHANGED_REUSE_MS } from '../kit/bounds';
import { SeatStates } from '../kit/seatStates';


/** Options of `createOpenCodeReader`. */
export interface OpenCodeReaderOptions {
  /** An explicit database path (the CLI's `--db`); otherwise `$OPENCODE_DB` or the data folder's `opencode*.db`. */
  db?: string;
  /** The OpenCode data folder (default `$XDG_DATA_HOME/opencode` or `~/.local/share/opencode`). */
  dataDir?: string;
  /** Clock in ms since epoch (for the unchanged-store cache's expiry). */
  now?: () => number;
  /** The environment the homes are resolved from, handed over by the caller (a reader never reads `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}


/** A seat's last projection: reused while the store is unchanged, or while the seat's own rows are (rule 3b). */
interface Kept {
  /** The store's stamp when it was last known to give this projection. */
  stamp: string;
  /** When the projection was read in full (ms): it is reused for at most OPENCODE_UNCHANGED_REUSE_MS after. */
  at: number;
  /** The seat's fingerprint in the snapshot it was read from (null: the store gives none, so it is never compared). */
  fingerprint: string | null;
  /** The projection as reused: the same object each time (no bytes read), so the fleet sees an unchanged seat. */
  reused: Projection & { ok: true };
}

/** What a seat keeps between reads. */
interface SeatState {
  unchanged: Kept | null;
}

/** A seat read from its store: the projection and its fingerprint, or `same` when the fingerprint matched `known`. */
type SeatRead = { same: true } | { same: false; projection: Projection; fingerprint: string | null };

/** The sentence for a busy database, also used by replay. */
export const LOCKED_REASON = 'The OpenCode database is locked by another process; try again in a moment.';

function fileStamp(path: string): string | null {
  try {
    const stat = statSync(path);
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return null;
  }
}

function storeStamp(home: string): string {
  return `${fileStamp(home)}|${fileStamp(`${home}-wal`)}`;
}

function fileMtime(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/** The schema check of a kept connection, redone only when the store's schema version moved. */
const shapes = new WeakMap<SqliteDatabase, { version: unknown; store: ReturnType<typeof inspectStore> }>();

function storeShape(database: SqliteDatabase): ReturnType<typeof inspectStore> {
  const version = database.get('PRAGMA schema_version')?.schema_version;
  const known = shapes.get(database);
  if (known && known.version === version) return known.store;
  const store = inspectStore(database);
  shapes.set(database, { version, store });
  return store;
}

/** Reads one seat's projection from its store (no caching of results here; the connection is kept for a burst). */
export async function projectSeat(seat: SeatAddress): Promise<Projection> {
  const read = await readSeat(seat, null);
  if (read.same) throw new Error('a seat read without a known fingerprint is never the same');
  return read.projection;
}

/**
 * Reads one seat: first its fingerprint, and when that equals `known` (rule 3b), nothing more; else its projection,
 * with the fingerprint of the same read transaction (so a write between the two is seen by the next read).
 */
async function readSeat(seat: SeatAddress, known: string | null): Promise<SeatRead> {
  const failed = (reason: string): SeatRead => ({ same: false, projection: { ok: false, reason }, fingerprint: null });
  if (fileStamp(seat.home) === null) return failed(`The OpenCode database ${seat.home} does not exist.`);
  try {
    return await withKeptSnapshot(
      seat.home,
      (database): SeatRead => {
        const version = database.get('PRAGMA schema_version')?.schema_version;
        const store = storeShape(database);
        if (!store.ok) {
          if (existsInSessionV2(database, seat.sessionId)) return failed(V2_ONLY_REASON);
          return failed(schemaReason(store.missing));
        }
        const own = sessionFingerprint(database, store.shape, seat.sessionId);
        // The schema's version is part of it: a migrated store is read again whatever its rows say.
        const fingerprint = own === null ? null : `${String(version)}#${own}`;
        if (fingerprint !== null && fingerprint === known) return { same: true };
        // A seat present in both generations is read from the 1.x rows.
        const session = readSession(database, store.shape, seat.sessionId);
        if (!session) {
          if (store.shape.hasSessionV2 && existsInSessionV2(database, seat.sessionId)) {
            return failed(V2_ONLY_REASON);
          }
          return failed(`OpenCode session ${seat.sessionId} is not in ${seat.home}.`);
        }
        const window = selectTaskRows(database, store.shape, session.id);
        const { calls, completions, malformed } = collectRows(window.rows);
        const named = calls.map((call) => call.childId).filter((id): id is string => id !== null);
        const children = directChildren(database, session, named);
        const fromRows = Math.max(window.lastWriteMs ?? 0, session.updatedMs ?? 0);
        const fromFiles = Math.max(fileMtime(seat.home) ?? 0, fileMtime(`${seat.home}-wal`) ?? 0);
        const lastWriteMs = fromRows || fromFiles || null;
        const summary = summarize(calls, completions, children);
        const childOf = new Map(calls.filter((call) => call.childId !== null && children.has(call.childId)).map((call) => [call.callId, call.childId!]));
        const { usage, entries } = openCodeSeatUsage(database, session.id, summary.recent, childOf);
        const projection: Projection = {
          ok: true,
          subagents: { ...summary, recent: entries },
          usage: usage.usage,
          usageTally: usage.tally,
          read: { bytes: window.bytes, skippedLines: window.malformed + malformed },
          lastWriteMs,
          activity: openCodeActivityBasis(selectActivityFacts(database, session.id)),
          census: readCensus(database, session.id),
        };
        // A last write taken from the file times (no row gave one) moves with every write of any seat: never compared.
        return { same: false, projection, fingerprint: fromRows ? fingerprint : null };
      },
    );
  } catch (error) {
    if (isBusyError(error)) return failed(LOCKED_REASON);
    return failed(`The OpenCode database could not be read: ${(error as Error).message}`);
  }
}

/** Creates the OpenCode `SeatReader`. A seat's `home` is its database file; `sessionId` its `ses_…` id. */
export function createOpenCodeReader(options: OpenCodeReaderOptions = {}): SeatReader {
  const now = options.now ?? Date.now;
  const env = options.env ?? {};
  // Keyed by the store and the session (the kit's default key); a seat's reads never overlap.
  const seats = new SeatStates<SeatState>(() => ({ unchanged: null }));

  /** The databases discovery reads: the configured one, else those of the data folder. */
  function configuredDatabases(): string[] {
    if (options.db === ':memory:') return [];
    return options.db ? [options.db] : resolveOpenCodeDbs(env, options.dataDir ?? openCodeDataDir(env));
  }

  return {
    harness: 'opencode',

    async discover(discoverOptions: DiscoverOptions = {}): Promise<Candidate[]> {
      const limit = discoverOptions.limit ?? DISCOVER_LIMIT;
      const databases = configuredDatabases();
      const seen = new Set<string>();
      const candidates: Candidate[] = [];
      for (const database of databases) {
        for (const candidate of await discoverSessions(database, limit)) {
          if (seen.has(candidate.id)) continue;
          seen.add(candidate.id);
          candidates.push(candidate);
        }
      }
      return candidates
        .sort((a, b) => Date.parse(b.lastActivity) - Date.parse(a.lastActivity))
        .slice(0, limit);
    },

    async resolve(sessionId: string): Promise<Candidate | null> {
      // The first database that holds it, in discovery's order (`opencode.db` first): the one the lobby lists.
      for (const database of configuredDatabases()) {
        const found = await findSession(database, sessionId);
        if (found) return found;
      }
      return null;
    },

    project(seat: SeatAddress): Promise<Projection> {
      return seats.run(seat, async (state) => {
        const stampBefore = storeStamp(seat.home);
        const previous = state.unchanged && now() - state.unchanged.at < OPENCODE_UNCHANGED_REUSE_MS ? state.unchanged : null;
        if (previous && previous.stamp === stampBefore) return previous.reused;
        // The store changed (every seat of a store shares its files): the seat's fingerprint tells whether its rows did.
        const at = now();
        const read = await readSeat(seat, previous?.fingerprint ?? null);
        // Stamped only when nothing changed while it was read (opening a WAL store may itself create the -wal file).
        const settled = storeStamp(seat.home) === stampBefore;
        if (read.same) {
          if (settled) previous!.stamp = stampBefore;
          return previous!.reused;
        }
        const { projection, fingerprint } = read;
        state.unchanged = projection.ok
          ? { stamp: settled ? stampBefore : '', at, fingerprint, reused: { ...projection, read: { bytes: 0, skippedLines: projection.read.skippedLines } } }
          : null;
        return projection;
      });
    },

    replay(seat: SeatAddress, nativeId: string, cursor?: string): Promise<ReplayResult> {
      return replayCall(seat, nativeId, cursor);
    },

    watchPaths(seat: SeatAddress): string[] {
      return [seat.home, `${seat.home}-wal`];
    },

    forget(seat: SeatAddress): void {
      seats.forget(seat);
    },

    dispose(): void {
      seats.clear();
      closeKeptConnections();
    },
  };
}
