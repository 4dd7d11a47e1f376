/**
 * The dispatch store: `dispatches.json` in the app home, the app's own record of which backlog item went to whom
 * (issue 40). Written the careful way the persona store is (an exclusive lock, temp file, fsync, rename); a file that
 * cannot be read is moved aside and reported, never overwritten silently. The owner's backlog is never written.
 */
import path from 'node:path';
import { z } from 'zod';
import { ServiceError } from '../../kit/errors';
import { commitTemp, discardTemp, moveAside, readStoreFile, writeTemp } from '../../kit/fileStore';
import { acquireLock, FOREIGN_LOCK_STALE_MS, LockTimeoutError } from '../../kit/fileLock';

/** The store's version. */
const DISPATCH_STORE_VERSION = 1;
/** Most records kept (done ones beyond it are dropped, oldest first). */
const DISPATCH_RECORDS_MAX = 2_000;

/** One dispatch as stored: the item (source, id, title, link), who took it, when, and where it runs. */
const DispatchRecordSchema = z.object({
  source: z.enum(['markdown', 'github', 'linear']),
  itemId: z.string(),
  title: z.string(),
  url: z.string(),
  personaId: z.string(),
  /** The persona's name at dispatch time. */
  persona: z.string(),
  at: z.string(),
  cwd: z.string(),
  branch: z.string().nullable(),
  worktree: z.string().nullable(),
  /** The repository root the worktree was added from (null without a worktree). */
  repo: z.string().nullable(),
  /** When the owner marked it done; null while it is active. */
  doneAt: z.string().nullable(),
  /** The remote it runs on (issue 42); absent: this machine. */
  host: z.string().optional(),
});
/** A stored dispatch. */
export type DispatchRecord = z.infer<typeof DispatchRecordSchema>;

const DispatchFileSchema = z.object({ version: z.literal(DISPATCH_STORE_VERSION), dispatches: z.array(DispatchRecordSchema) });
type DispatchFile = z.infer<typeof DispatchFileSchema>;

/** The file name inside the app home. */
const DISPATCH_FILE = 'dispatches.json';

/** True when the record is about this item. */
export function sameItem(record: { source: string; itemId: string }, item: { source: string; itemId: string }): boolean {
  return record.source === item.source && record.itemId === item.itemId;
}

/** The dispatch store of one app home. */
export class DispatchStore {
  readonly file: string;

  constructor(home: string) {
    this.file = path.join(home, DISPATCH_FILE);
  }

  /** Every record; none when the file does not exist. A file that cannot be used is an `unavailable` error. */
  async list(): Promise<DispatchRecord[]> {
    return (await this.read()).dispatches;
  }

  /** The active (not done) record of an item, or null. */
  async active(item: { source: string; itemId: string }): Promise<DispatchRecord | null> {
    return (await this.list()).find((record) => record.doneAt === null && sameItem(record, item)) ?? null;
  }

  /** Changes the records under the lock; `change` returns the new list (or null to write nothing). */
  async update<T>(change: (records: DispatchRecord[]) => { records: DispatchRecord[] | null; value: T }): Promise<T> {
    let release: () => Promise<void>;
    try {
      release = await acquireLock(this.file, { timeoutMs: 5_000, foreignStaleMs: FOREIGN_LOCK_STALE_MS });
    } catch (error) {
      if (error instanceof LockTimeoutError) throw new ServiceError('unavailable', `${error.message} Try again in a moment.`);
      throw error;
    }
    try {
      const current = await this.read();
      const { records, value } = change(current.dispatches);
      if (records !== null) await this.write({ version: DISPATCH_STORE_VERSION, dispatches: bounded(records) });
      return value;
    } finally {
      await release();
    }
  }

  private async read(): Promise<DispatchFile> {
    const read = await readStoreFile(this.file);
    if (read.kind === 'missing') return { version: DISPATCH_STORE_VERSION, dispatches: [] };
    if (read.kind === 'failed') throw new ServiceError('unavailable', `The dispatch store ${this.file} could not be read (${read.reason}); nothing was changed.`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(read.text);
    } catch {
      parsed = undefined;
    }
    const file = DispatchFileSchema.safeParse(parsed);
    if (file.success) return file.data;
    const version = typeof parsed === 'object' && parsed !== null ? (parsed as { version?: unknown }).version : undefined;
    if (typeof version === 'number' && version > DISPATCH_STORE_VERSION) {
      throw new ServiceError('unavailable', `The dispatch store ${this.file} was written by a newer Pixelfleet (version ${version}); it is left as it is.`);
    }
    const aside = await moveAside(this.file, new Date());
    throw new ServiceError('unavailable', `The dispatch store could not be read; it was moved aside to ${aside} and a new one starts empty. Try again.`);
  }

  private async write(file: DispatchFile): Promise<void> {
    const temp = await writeTemp(this.file, `${JSON.stringify(file, null, 2)}\n`);
    try {
      await commitTemp(temp, this.file);
    } catch (error) {
      await discardTemp(temp);
      throw error;
    }
  }
}

/** Keeps every active record and the newest done ones within DISPATCH_RECORDS_MAX. */
function bounded(records: DispatchRecord[]): DispatchRecord[] {
  if (records.length <= DISPATCH_RECORDS_MAX) return records;
  const active = records.filter((record) => record.doneAt === null);
  const done = records.filter((record) => record.doneAt !== null).slice(-(DISPATCH_RECORDS_MAX - active.length));
  return records.filter((record) => record.doneAt === null || done.includes(record));
}
