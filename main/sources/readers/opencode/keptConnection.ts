/**
 * One read-only connection per store, kept between the reads of a burst: a census of many OpenCode seats over one
 * store opened, schema-checked and prepared every query once per seat; a kept connection prepares each query once
 * and opens the store once. It is dropped when the store file is replaced, after any error, and after a short idle
 * time, so it never outlives a burst (read-only: it writes nothing and holds no lock between reads).
 */
import { statSync } from 'node:fs';
import { BUSY_ATTEMPTS, isBusyError, openReadOnly, type SqliteDatabase } from './sqlite';

/** How long a kept connection may sit unused before it is closed. */
const KEPT_IDLE_MS = 2_000;

interface Kept {
  /** The connection, opened once (callers that arrive while it opens share the same opening). */
  database: Promise<SqliteDatabase>;
  /** The store file's device and inode: a replaced file is another store. */
  identity: string | null;
  /** Reads using it now: it is closed only once none is. */
  users: number;
  /** Set once it must not be handed out again; closed when its last user leaves. */
  retired: boolean;
  timer: NodeJS.Timeout | null;
}

const kept = new Map<string, Kept>();

function identityOf(path: string): string | null {
  try {
    const stat = statSync(path);
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return null;
  }
}

function close(entry: Kept): void {
  if (entry.timer) clearTimeout(entry.timer);
  entry.timer = null;
  entry.database.then((database) => database.close(), () => undefined);
}

/** Stops handing out the store's connection; it closes now, or when its last read ends. */
function retire(path: string, entry: Kept | undefined = kept.get(path)): void {
  if (!entry) return;
  if (kept.get(path) === entry) kept.delete(path);
  entry.retired = true;
  if (entry.users === 0) close(entry);
}

function take(path: string): Kept {
  const identity = identityOf(path);
  const entry = kept.get(path);
  if (entry && entry.identity === identity) {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = null;
    entry.users += 1;
    return entry;
  }
  retire(path, entry);
  // Statements are prepared once per query text: the reader's queries are a small fixed set.
  const fresh: Kept = { database: openReadOnly(path, { cacheStatements: true }), identity, users: 1, retired: false, timer: null };
  // A failed opening is retired at once (and seen by the caller through its own await).
  fresh.database.catch(() => retire(path, fresh));
  kept.set(path, fresh);
  return fresh;
}

function give(path: string, entry: Kept): void {
  entry.users -= 1;
  if (entry.users > 0) return;
  if (entry.retired) return close(entry);
  entry.timer = setTimeout(() => retire(path, entry), KEPT_IDLE_MS);
  entry.timer.unref?.();
}

const sleep = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/**
 * Runs `work` in one read transaction (every query sees one consistent state) on the store's kept connection,
 * retrying briefly while the store is busy; any error drops the connection. Errors other than busy are rethrown.
 */
export async function withKeptSnapshot<T>(path: string, work: (database: SqliteDatabase) => T): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt < BUSY_ATTEMPTS; attempt += 1) {
    const entry = take(path);
    try {
      const database = await entry.database;
      database.exec('BEGIN');
      try {
        return work(database);
      } finally {
        database.exec('COMMIT');
      }
    } catch (error) {
      retire(path, entry);
      if (!isBusyError(error)) throw error;
      lastError = error;
    } finally {
      give(path, entry);
    }
    await sleep(50 * (attempt + 1));
  }
  throw lastError;
}

/** Closes every kept connection (a reader's dispose). */
export function closeKeptConnections(): void {
  for (const path of [...kept.keys()]) retire(path);
}
