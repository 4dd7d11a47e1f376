/**
 * Where OpenCode stores its sessions, and discovery of candidate seats from the `session` table's metadata only
 * (ids, directories, times — never titles or messages).
 */
import { safeIso } from '../kit/time';
import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { shownValue } from '../../../../shared/bounds';
import type { Candidate, SeatAddress } from '../../../../shared/schemas';
import { ServiceError } from '../../../kit/errors';
import { inspectStore, existsInSessionV2 } from './schema';
import { withReadOnly } from './sqlite';

/** The variables the resolution reads. */
export type OpenCodeEnv = Readonly<Record<string, string | undefined>>;

/** OpenCode's data folder: `$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode`. */
export function openCodeDataDir(env: OpenCodeEnv): string {
  const dataHome = env.XDG_DATA_HOME && env.XDG_DATA_HOME.trim() !== '' ? env.XDG_DATA_HOME : join(env.HOME ?? homedir(), '.local', 'share');
  return join(dataHome, 'opencode');
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Every `opencode*.db` of a data folder, `opencode.db` first, then the most recently written. */
export function listOpenCodeDbs(dataDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dataDir);
  } catch {
    return [];
  }
  const paths = names
    .filter((name) => name.startsWith('opencode') && name.endsWith('.db'))
    .map((name) => join(dataDir, name))
    .filter(isFile);
  const modified = (path: string) => {
    const wal = `${path}-wal`;
    return Math.max(statSync(path).mtimeMs, isFile(wal) ? statSync(wal).mtimeMs : 0);
  };
  return paths
    .map((path) => ({ path, main: path.endsWith('/opencode.db') || path.endsWith('\\opencode.db'), time: modified(path) }))
    .sort((a, b) => Number(b.main) - Number(a.main) || b.time - a.time)
    .map(({ path }) => path);
}

/**
 * Rule 1 (databases): the databases to read, `$OPENCODE_DB` when set (absolute, or a name in the data folder; `:memory:` names no
 * file), else every `opencode*.db` of the data folder.
 */
export function resolveOpenCodeDbs(env: OpenCodeEnv, dataDir = openCodeDataDir(env)): string[] {
  const override = env.OPENCODE_DB?.trim();
  if (override) {
    if (override === ':memory:') return [];
    return [isAbsolute(override) ? override : join(dataDir, override)];
  }
  return listOpenCodeDbs(dataDir);
}

/** The one database a CLI target is looked up in (see `resolveOpenCodeDbs`), or null when there is none. */
export function resolveOpenCodeDb(env: OpenCodeEnv, dataDir?: string): string | null {
  return resolveOpenCodeDbs(env, dataDir)[0] ?? null;
}

/** The session id shape OpenCode writes (`ses_` + hex time + base62). */
export const SESSION_ID_PATTERN = /^ses_[A-Za-z0-9]{1,64}$/;

/** Top-level sessions of one database as candidates, newest first (metadata only). Unreadable stores give []. */
export async function discoverSessions(dbPath: string, limit: number): Promise<Candidate[]> {
  try {
    return await withReadOnly(dbPath, (database) => {
      const store = inspectStore(database);
      if (!store.ok) return [];
      const rows = database.all(
        `SELECT id, directory, ${updatedColumn(store.shape)} AS updated FROM session WHERE parent_id IS NULL
         ORDER BY updated DESC, id LIMIT ?`,
        [limit],
      );
      return rows.map((row) => candidateOf(dbPath, row));
    });
  } catch {
    return [];
  }
}

/**
 * The candidate discovery would list for one top-level session id of one database, looked up by the id (no listing
 * limit), or null. Unreadable stores give null.
 */
export async function findSession(dbPath: string, sessionId: string): Promise<Candidate | null> {
  try {
    return await withReadOnly(dbPath, (database) => {
      const store = inspectStore(database);
      if (!store.ok) return null;
      const row = database.get(
        `SELECT id, directory, ${updatedColumn(store.shape)} AS updated FROM session WHERE parent_id IS NULL AND id = ?`,
        [sessionId],
      );
      return row ? candidateOf(dbPath, row) : null;
    });
  } catch {
    return null;
  }
}

function updatedColumn(shape: { timeUpdated: { session: boolean } }): string {
  return shape.timeUpdated.session ? 'coalesce(time_updated, time_created)' : 'time_created';
}

function candidateOf(dbPath: string, row: Record<string, unknown>): Candidate {
  const sessionId = String(row.id);
  const directory = typeof row.directory === 'string' ? row.directory : null;
  return {
    id: `opencode:${sessionId}`,
    harness: 'opencode',
    seat: { harness: 'opencode', home: dbPath, sessionId, cwd: directory, path: null },
    cwdHint: directory,
    lastActivity: safeIso(Number(row.updated)) ?? new Date(0).toISOString(),
    size: 0,
  };
}

/**
 * The seat a CLI target names: a session id, looked up in `flags.db` or the resolved database for its directory.
 * A session the store cannot show (2.x only, locked store) still gets a seat, so `inspect` reports why.
 */
export async function seatFromCliTarget(
  target: string,
  flags: { db?: string },
  env: OpenCodeEnv,
): Promise<SeatAddress> {
  if (!SESSION_ID_PATTERN.test(target)) {
    throw new ServiceError('invalid_request', `"${shownValue(target)}" is not an OpenCode session id (ses_…).`);
  }
  const dbPath = flags.db ?? resolveOpenCodeDb(env);
  if (!dbPath) {
    throw new ServiceError('not_found', `No OpenCode database found in ${openCodeDataDir(env)}; pass --db PATH.`);
  }
  if (!isFile(dbPath)) throw new ServiceError('not_found', `The OpenCode database ${dbPath} does not exist.`);
  let cwd: string | null = null;
  try {
    cwd = await withReadOnly(dbPath, (database) => {
      const fromTable = (table: string) =>
        database.get(`SELECT directory FROM ${table} WHERE id = ?`, [target])?.directory;
      const store = inspectStore(database);
      const found = store.ok ? fromTable('session') : undefined;
      if (found !== undefined) return typeof found === 'string' ? found : null;
      if (existsInSessionV2(database, target)) {
        const v2 = fromTable('session_v2');
        return typeof v2 === 'string' ? v2 : null;
      }
      return null;
    });
  } catch {
    // A locked or damaged store: the seat still exists; `project` will say why it is unknown.
  }
  return { harness: 'opencode', home: dbPath, sessionId: target, cwd, path: null };
}
