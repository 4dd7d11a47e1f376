/**
 * Job aliases in the history store (rules A1–A4 of ./aliasRules.ts): one row per issued alias and one counter
 * per type, so a new subagent adds a row instead of rewriting the whole list. Counters only grow and an alias is
 * unique in its table: no alias is ever issued twice. An existing `job-aliases.json` is moved in once.
 */
import { promises as fs } from 'node:fs';
import { ServiceError } from '../../kit/errors';
import { ALIAS_MAP_LIMIT, decodeAliasFile, salvageCounters, slugType, type AliasRequest } from './aliasRules';
import { inTransaction, type Database } from './sqlite';
import { readAliasMark, writeAliasMark, type AliasMark } from './aliasMark';

/** The meta key set once the alias file has been moved into the store. */
const MOVED_KEY = 'aliases-moved-from-file';

/** What moving the alias file in did: nothing to move, moved (how many), or why it was left. */
export type AliasMove = { kind: 'none' } | { kind: 'moved'; aliases: number; aside: string } | { kind: 'salvaged'; aside: string } | { kind: 'left'; reason: string };

/** Moves `<home>/job-aliases.json` into the store once; the file is renamed so it is never read again. */
export async function moveAliasFile(database: Database, file: string, now: number): Promise<AliasMove> {
  if (database.prepare('SELECT value FROM meta WHERE key = ?').get(MOVED_KEY)) return { kind: 'none' };
  const text = await fs.readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : Promise.reject(error)));
  if (text === null) {
    database.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(MOVED_KEY, 'no file');
    return { kind: 'none' };
  }
  const decoded = decodeAliasFile(text);
  if (decoded.kind === 'newer') return { kind: 'left', reason: `${file} was written by a newer Pixelfleet (version ${decoded.version}); it was left in place.` };
  const counters = decoded.kind === 'ok' ? decoded.file.counters : salvageCounters(text);
  const aliases = decoded.kind === 'ok' ? decoded.file.aliases : [];
  inTransaction(database, () => {
    const raise = database.prepare('INSERT INTO alias_counter (slug, value) VALUES (?, ?) ON CONFLICT (slug) DO UPDATE SET value = max(value, excluded.value)');
    for (const [slug, value] of Object.entries(counters)) raise.run(slug, value);
    const insert = database.prepare('INSERT OR IGNORE INTO alias (key, alias, at) VALUES (?, ?, ?)');
    // File order is oldest first; the row's time keeps that order for the bound (rule A3).
    aliases.forEach(([key, alias], index) => insert.run(key, alias, now - aliases.length + index));
    database.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(MOVED_KEY, new Date(now).toISOString());
  });
  const aside = `${file}.moved`;
  await fs.rename(file, aside);
  return decoded.kind === 'ok' ? { kind: 'moved', aliases: aliases.length, aside } : { kind: 'salvaged', aside };
}

/** Issues and remembers aliases in the store: the jobs board's alias port (main/core/jobs/aliasPort.ts). */
export class StoreAliases {
  private readonly cache = new Map<string, string>();

  /** The high-water mark beside the store (issue 36), read once; null when no mark file is kept. */
  private mark: AliasMark | null = null;
  /** Why the mark could not be written last time (the store still holds the counters), or null. */
  markFailed: string | null = null;
  /** Inside `batched`: the mark is written once at its end, not at every issue. */
  private batching = false;
  private markDue = false;

  constructor(
    private readonly database: () => Database | null,
    private readonly now: () => number = Date.now,
    private readonly limit = ALIAS_MAP_LIMIT,
    private readonly markFile: string | null = null,
  ) {}

  /** Raises the store's counters to the high-water mark (a fresh store after a damaged one starts past it). */
  raiseToMark(): void {
    const database = this.database();
    if (!database || !this.markFile) return;
    this.mark ??= readAliasMark(this.markFile);
    const raise = database.prepare('INSERT INTO alias_counter (slug, value) VALUES (?, ?) ON CONFLICT (slug) DO UPDATE SET value = max(value, excluded.value)');
    inTransaction(database, () => {
      for (const [slug, value] of Object.entries(this.mark!)) raise.run(slug, value);
    });
  }

  /** The alias of every requested subagent, issuing new ones (committed before they are returned). */
  async aliasesFor(requests: readonly AliasRequest[]): Promise<Map<string, string>> {
    return this.aliasesNow(requests);
  }

  /** `aliasesFor` on this thread (SQLite is synchronous): for writers that cannot wait, such as the demo's past. */
  aliasesNow(requests: readonly AliasRequest[]): Map<string, string> {
    const missing = requests.filter((request) => !this.cache.has(request.key));
    if (missing.length > 0) this.issue(missing);
    const result = new Map<string, string>();
    for (const request of requests) {
      const alias = this.cache.get(request.key);
      if (alias !== undefined) result.set(request.key, alias);
    }
    return result;
  }

  private issue(missing: readonly AliasRequest[]): void {
    const database = this.database();
    if (!database) throw new ServiceError('unavailable', 'The history store that keeps job aliases cannot be written; jobs are shown without aliases.');
    const at = this.now();
    inTransaction(database, () => {
      const find = database.prepare('SELECT alias FROM alias WHERE key = ?');
      const counter = database.prepare('SELECT value FROM alias_counter WHERE slug = ?');
      const setCounter = database.prepare('INSERT INTO alias_counter (slug, value) VALUES (?, ?) ON CONFLICT (slug) DO UPDATE SET value = excluded.value');
      const insert = database.prepare('INSERT INTO alias (key, alias, at) VALUES (?, ?, ?)');
      for (const request of missing) {
        const found = find.get(request.key);
        if (found) {
          this.cache.set(request.key, String(found.alias));
          continue;
        }
        const slug = slugType(request.type);
        const next = Math.max(Number(counter.get(slug)?.value ?? 0), this.mark?.[slug] ?? 0) + 1;
        setCounter.run(slug, next);
        if (this.mark) this.mark[slug] = next;
        const alias = `${slug}-${next}`;
        insert.run(request.key, alias, at);
        this.cache.set(request.key, alias);
      }
    });
    if (this.batching) this.markDue = true;
    else this.writeMark();
    // Rule A3 in memory: the cache never holds more than the table keeps.
    for (const key of this.cache.keys()) {
      if (this.cache.size <= this.limit) break;
      this.cache.delete(key);
    }
  }

  /**
   * Runs a synchronous writer that issues aliases one by one (the demo's past: thousands) with the mark written once,
   * at its end: nothing else runs in between, so the mark is as current when anything can look as if written each time.
   */
  batched<T>(write: () => T): T {
    if (this.batching) return write();
    this.batching = true;
    try {
      return write();
    } finally {
      this.batching = false;
      if (this.markDue) this.writeMark();
      this.markDue = false;
    }
  }

  private writeMark(): void {
    if (!this.markFile || !this.mark) return;
    const failed = writeAliasMark(this.markFile, this.mark);
    if (failed) this.markFailed = failed;
  }

  /** Rule A3 in the store: the oldest aliases past the bound go; counters stay, so none is issued again. */
  trim(): void {
    const database = this.database();
    if (!database) return;
    database.prepare('DELETE FROM alias WHERE key IN (SELECT key FROM alias ORDER BY at DESC LIMIT -1 OFFSET ?)').run(this.limit);
  }
}
