/**
 * The one small SQLite port the OpenCode reader uses: read-only, sees rows still in the WAL, never writes, never
 * copies. Inside Electron it uses `node:sqlite`; on plain Node (tests, CLI, browser mode) it uses better-sqlite3.
 */

/** One result row: column name → value. */
export type SqliteRow = Record<string, unknown>;

/** Bound parameters: positional values only (both drivers accept them the same way). */
export type SqliteParams = readonly (string | number | null)[];

/** A read-only database connection. */
export interface SqliteDatabase {
  /** Every row of a query. */
  all(sql: string, params?: SqliteParams): SqliteRow[];
  /** The first row of a query, or undefined. */
  get(sql: string, params?: SqliteParams): SqliteRow | undefined;
  /** Run statements that return nothing (only BEGIN / COMMIT of a read transaction here). */
  exec(sql: string): void;
  /** Close the connection; safe to call twice. */
  close(): void;
}

/** Milliseconds SQLite itself waits on a busy lock before a statement gives up (a connection setting, not a write). */
export const BUSY_TIMEOUT_MS = 200;

interface Statement {
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
}

interface Driver {
  prepare(sql: string): Statement;
  exec(sql: string): unknown;
  close(): void;
}

type BetterSqliteConstructor = new (
  path: string,
  options: { readonly: boolean; fileMustExist: boolean; timeout: number },
) => Driver;

type NodeSqliteModule = {
  DatabaseSync: new (path: string, options: { readOnly: boolean; timeout?: number }) => Driver;
};

/** How a connection is opened: `cacheStatements` prepares each query text once (for a connection kept a while). */
interface OpenOptions {
  cacheStatements?: boolean;
}

function wrap(driver: Driver, options: OpenOptions = {}): SqliteDatabase {
  let open = true;
  const statements = new Map<string, Statement>();
  const prepare = (sql: string): Statement => {
    if (!options.cacheStatements) return driver.prepare(sql);
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = driver.prepare(sql)));
    return statement;
  };
  return {
    all: (sql, params = []) => prepare(sql).all(...params) as SqliteRow[],
    get: (sql, params = []) => prepare(sql).get(...params) as SqliteRow | undefined,
    exec: (sql) => {
      driver.exec(sql);
    },
    close: () => {
      if (!open) return;
      open = false;
      statements.clear();
      driver.close();
    },
  };
}

/** Each driver's module, loaded once: every open after the first skips resolving it again (a loader hop under test runners). */
const drivers: { node?: Promise<NodeSqliteModule>; better?: Promise<{ default: BetterSqliteConstructor }> } = {};

/** The module promise kept, or forgotten when loading failed (so a later open tries again). */
function loadOnce<T>(key: keyof typeof drivers, load: () => Promise<T>): Promise<T> {
  const known = drivers[key] as Promise<T> | undefined;
  if (known) return known;
  const loading = load().catch((error: unknown) => {
    delete drivers[key];
    throw error;
  });
  (drivers as Record<string, Promise<unknown>>)[key] = loading;
  return loading;
}

async function openWithNodeSqlite(path: string, options: OpenOptions): Promise<SqliteDatabase> {
  // A variable specifier keeps bundlers and the Node 20 type checker from resolving a module Node 20 lacks.
  const specifier = 'node:sqlite';
  const module = await loadOnce('node', () => import(specifier) as Promise<NodeSqliteModule>);
  const driver = new module.DatabaseSync(path, { readOnly: true, timeout: BUSY_TIMEOUT_MS });
  return wrap(driver, options);
}

async function openWithBetterSqlite(path: string, options: OpenOptions): Promise<SqliteDatabase> {
  const module = await loadOnce('better', () => import('better-sqlite3') as unknown as Promise<{ default: BetterSqliteConstructor }>);
  const driver = new module.default(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  return wrap(driver, options);
}

/** True when an error from either driver means the database was busy or locked by another connection. */
export function isBusyError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return true;
  return /database is locked|database table is locked|SQLITE_BUSY|SQLITE_LOCKED/i.test(error.message);
}

/** Opens an existing database read-only with the driver that fits the runtime. Throws when it cannot be opened. */
export async function openReadOnly(path: string, options: OpenOptions = {}): Promise<SqliteDatabase> {
  const inElectron = typeof process.versions.electron === 'string';
  return inElectron ? openWithNodeSqlite(path, options) : openWithBetterSqlite(path, options);
}

/** How many times a busy database is tried before the seat is shown unknown. */
export const BUSY_ATTEMPTS = 3;

const sleep = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/**
 * Runs `work` on a fresh read-only connection, retrying briefly while the database is busy, and always closes it.
 * With `snapshot`, every query of `work` sees one consistent state (a read transaction; it writes nothing).
 * Errors other than busy are rethrown at once; a database still busy after the retries rethrows the last error.
 */
export async function withReadOnly<T>(
  path: string,
  work: (database: SqliteDatabase) => T,
  options: { snapshot?: boolean } = {},
): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt < BUSY_ATTEMPTS; attempt += 1) {
    let database: SqliteDatabase | undefined;
    try {
      database = await openReadOnly(path);
      if (!options.snapshot) return work(database);
      database.exec('BEGIN');
      try {
        return work(database);
      } finally {
        try {
          database.exec('COMMIT');
        } catch {
          // Closing the connection below ends the read transaction anyway.
        }
      }
    } catch (error) {
      if (!isBusyError(error)) throw error;
      lastError = error;
    } finally {
      database?.close();
    }
    await sleep(50 * (attempt + 1));
  }
  throw lastError;
}
