/**
 * The alias store: `job-aliases.json` in the app home, beside `personas.json`, shared by the app and the CLI and
 * written the same careful way: under the lock file, re-read, issue, temp file + fsync + rename, checked against
 * the file's stamp and the lock's holder. Issued aliases never change, so the process caches the ones asked for most
 * recently, as many as the file keeps; the file is read and written only when a subagent without a cached alias
 * appears.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import type { Notice } from '../../../shared/schemas';
import { ServiceError } from '../../kit/errors';
import { acquireLock, FOREIGN_LOCK_STALE_MS, LockTimeoutError, parseLockHolder } from '../../kit/fileLock';
import {
  cleanStaleTemps,
  commitTemp,
  discardTemp,
  moveAside,
  readStoreFile,
  sameStamp,
  statStamp,
  writeTemp,
} from '../../kit/fileStore';
import { ALIAS_MAP_LIMIT, decodeAliasFile, emptyAliasFile, encodeAliasFile, issueAliases, salvageCounters, type AliasFile, type AliasRequest } from './aliasRules';

/** How the store is set up; only `file` is required. Times in milliseconds. */
export interface AliasServiceOptions {
  /** `<app home>/job-aliases.json`. */
  file: string;
  now?: () => Date;
  /** A lock from another host older than this is abandoned (on this host, only a dead holder's lock is broken). */
  lockForeignStaleMs?: number;
  lockTimeoutMs?: number;
  /** Bound of the id → alias map (rule A3). */
  limit?: number;
}

/** Attempts of one issue when the file keeps changing between the re-read and the rename. */
const MAX_ATTEMPTS = 20;

/** Issues and remembers job aliases; see the module header. */
export class AliasService {
  private readonly cache = new Map<string, string>();
  private readonly noticeList: Notice[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private cleaned = false;
  private readonly now: () => Date;
  private readonly lockOptions: { foreignStaleMs: number; timeoutMs: number };

  constructor(private readonly options: AliasServiceOptions) {
    this.now = options.now ?? (() => new Date());
    this.lockOptions = { foreignStaleMs: options.lockForeignStaleMs ?? FOREIGN_LOCK_STALE_MS, timeoutMs: options.lockTimeoutMs ?? 10_000 };
  }

  /** The alias of every requested subagent, issuing new ones (persisted before they are returned). */
  aliasesFor(requests: readonly AliasRequest[]): Promise<Map<string, string>> {
    const run = this.queue.then(() => this.issue(requests));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Messages for the owner about the store (moved aside, newer version). */
  notices(): Notice[] {
    return [...this.noticeList];
  }

  /** How many aliases the process holds in memory (for tests of the bound). */
  get cached(): number {
    return this.cache.size;
  }

  private async issue(requests: readonly AliasRequest[]): Promise<Map<string, string>> {
    const missing = requests.filter((request) => !this.cache.has(request.key));
    if (missing.length > 0) await this.issueMissing(missing);
    const result = new Map<string, string>();
    for (const request of requests) {
      const alias = this.cache.get(request.key);
      if (alias === undefined) continue;
      result.set(request.key, alias);
      // Asked last goes last, so the bound below drops the aliases no board has asked for the longest.
      this.cache.delete(request.key);
      this.cache.set(request.key, alias);
    }
    // Rule A3 in memory too: the cache holds no more than the file, or a long-running app would keep every alias
    // it ever issued. A dropped alias still in the file is read back unchanged; one gone from both is gone, as
    // after a restart.
    const limit = this.options.limit ?? ALIAS_MAP_LIMIT;
    for (const key of this.cache.keys()) {
      if (this.cache.size <= limit) break;
      this.cache.delete(key);
    }
    return result;
  }

  private async issueMissing(missing: readonly AliasRequest[]): Promise<void> {
    const { file } = this.options;
    if (!this.cleaned) {
      await cleanStaleTemps(file, 60_000, this.now().getTime());
      this.cleaned = true;
    }
    const release = await this.lock();
    try {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const loaded = await this.load();
        if (loaded === null) return;
        const { aliases, next } = issueAliases(loaded.file, missing, this.options.limit);
        if (next !== null) {
          const temp = await writeTemp(file, encodeAliasFile(next));
          // Revision guard: the file must still be the version the aliases were issued from, and the lock still ours.
          if (!sameStamp(await statStamp(file), loaded.stamp) || !(await this.holdsLock())) {
            await discardTemp(temp);
            continue;
          }
          await commitTemp(temp, file);
        }
        for (const [key, alias] of aliases) this.cache.set(key, alias);
        return;
      }
      throw new ServiceError('unavailable', 'The job alias store kept changing while saving; try again.');
    } finally {
      await release();
    }
  }

  /** Reads the file under the lock; an unreadable one is moved aside with its counters salvaged (rule A4). */
  private async load(): Promise<{ file: AliasFile; stamp: Awaited<ReturnType<typeof statStamp>> } | null> {
    const { file } = this.options;
    const read = await readStoreFile(file);
    if (read.kind === 'missing') return { file: emptyAliasFile(), stamp: null };
    // An I/O error is not corruption: nothing is moved aside, and no alias is issued until the file can be read.
    if (read.kind === 'failed') throw new ServiceError('unavailable', `The job alias store ${file} could not be read (${read.reason}).`);
    const decoded = decodeAliasFile(read.text);
    if (decoded.kind === 'ok') return { file: decoded.file, stamp: read.stamp };
    if (decoded.kind === 'newer') {
      this.addNotice('aliases-newer', 'error', `${file} was written by a newer Pixelfleet (version ${decoded.version}); jobs are shown without aliases until Pixelfleet is updated.`);
      return null;
    }
    const counters = salvageCounters(read.text);
    const aside = await moveAside(file, this.now());
    const fresh: AliasFile = { ...emptyAliasFile(), counters };
    const temp = await writeTemp(file, encodeAliasFile(fresh));
    await commitTemp(temp, file);
    this.addNotice(
      `aliases-aside:${aside}`,
      'warning',
      `The job alias store was unreadable (${decoded.reason}) and was moved aside to ${aside}; its counters were carried over, so no alias is issued twice.`,
    );
    return { file: fresh, stamp: await statStamp(file) };
  }

  private async holdsLock(): Promise<boolean> {
    const holder = parseLockHolder(await fs.readFile(`${this.options.file}.lock`, 'utf8').catch(() => ''));
    return holder !== null && holder.host === os.hostname() && holder.pid === process.pid;
  }

  private async lock(): Promise<() => Promise<void>> {
    try {
      return await acquireLock(this.options.file, this.lockOptions);
    } catch (error) {
      if (error instanceof LockTimeoutError) throw new ServiceError('unavailable', `The job alias store is locked by another process (${error.lockFile}); try again in a moment.`);
      throw error;
    }
  }

  private addNotice(id: string, level: Notice['level'], message: string): void {
    if (!this.noticeList.some((notice) => notice.id === id)) this.noticeList.push({ id, level, message });
  }
}
