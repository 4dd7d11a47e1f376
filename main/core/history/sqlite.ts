/**
 * The writable SQLite port of the history store: better-sqlite3 on plain Node (tests, CLI, browser mode) and
 * `node:sqlite` inside Electron, chosen as the OpenCode reader chooses (main/sources/readers/opencode/sqlite.ts).
 */
import { HISTORY_BUSY_TIMEOUT_MS } from './bounds';

/** One result row: column name → value. */
export type Row = Record<string, unknown>;
/** Positional parameters. */
export type Params = readonly (string | number | bigint | Uint8Array | null)[];

/** A prepared statement, reused across calls. */
export interface Statement {
  run(...params: Params): { changes: number | bigint };
  get(...params: Params): Row | undefined;
  all(...params: Params): Row[];
}

/** A writable (or read-only) connection. */
export interface Database {
  prepare(sql: string): Statement;
  exec(sql: string): void;
  /** The value of a pragma that returns one value. */
  pragma(name: string): unknown;
  close(): void;
}

interface Driver {
  prepare(sql: string): Statement;
  exec(sql: string): unknown;
  close(): void;
}

function wrap(driver: Driver): Database {
  let open = true;
  const cache = new Map<string, Statement>();
  return {
    prepare(sql) {
      let statement = cache.get(sql);
      if (!statement) {
        statement = driver.prepare(sql);
        cache.set(sql, statement);
      }
      return statement;
    },
    exec: (sql) => {
      driver.exec(sql);
    },
    pragma(name) {
      const row = driver.prepare(`PRAGMA ${name}`).get() as Row | undefined;
      return row === undefined ? undefined : Object.values(row)[0];
    },
    close() {
      if (!open) return;
      open = false;
      cache.clear();
      driver.close();
    },
  };
}

/** Opens (creating unless read-only) the database at `path` with the driver that fits the runtime. Throws on failure. */
export async function openDatabase(path: string, options: { readOnly?: boolean } = {}): Promise<Database> {
  const readOnly = options.readOnly === true;
  if (typeof process.versions.electron === 'string') {
    // A variable specifier keeps bundlers and the Node 20 type checker from resolving a module Node 20 lacks.
    const specifier = 'node:sqlite';
    const module = (await import(specifier)) as { DatabaseSync: new (path: string, options: { readOnly: boolean; timeout: number }) => Driver };
    return wrap(new module.DatabaseSync(path, { readOnly, timeout: HISTORY_BUSY_TIMEOUT_MS }));
  }
  const module = (await import('better-sqlite3')) as unknown as {
    default: new (path: string, options: { readonly: boolean; fileMustExist: boolean; timeout: number }) => Driver;
  };
  return wrap(new module.default(path, { readonly: readOnly, fileMustExist: readOnly, timeout: HISTORY_BUSY_TIMEOUT_MS }));
}

/** Runs `work` in one write transaction (BEGIN IMMEDIATE … COMMIT), rolled back when it throws. */
export function inTransaction<T>(database: Database, work: () => T): T {
  database.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    database.exec('COMMIT');
    return result;
  } catch (error) {
    try {
      database.exec('ROLLBACK');
    } catch {
      // The transaction may already be gone (an I/O error rolls it back); the first error is the one to report.
    }
    throw error;
  }
}
