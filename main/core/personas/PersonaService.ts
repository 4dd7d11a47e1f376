/**
 * The persona store service: one JSON file in the app home shared by the desktop app and the CLI. Reads follow the
 * file on disk (another process may write it); every write takes the lock file, re-reads, re-applies the change to
 * the fresh personas, checks the file did not move underneath, and renames a flushed temp file into place.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { rolesList } from '../../../shared/roles';
import type { Notice, Persona, RoleCount, SeatAddress } from '../../../shared/schemas';
import { ServiceError } from '../../kit/errors';
import { Changes, type ChangeListener } from '../../kit/changes';
import { generatePersonaName } from './names';
import {
  findPersona,
  hirePersona,
  hireRequest,
  movePersonaSeat,
  renamePersona,
  renameRequest,
  roleOrThrow,
  seatOrThrow,
  setPersonaRole,
  type PersonaChange,
} from './personaRules';
import { acquireLock, FOREIGN_LOCK_STALE_MS, LockTimeoutError } from '../../kit/fileLock';
import {
  cleanStaleTemps,
  commitTemp,
  discardTemp,
  listMovedAside,
  moveAside,
  readStoreFile,
  sameStamp,
  statStamp,
  writeTemp,
  type FileRead,
  type FileStamp,
} from '../../kit/fileStore';
import { decodeStore, emptyStore, encodeStore, type PersonaStore } from './storeSchema';

/** How the service is set up; only `file` is required. Times are in milliseconds. */
export type PersonaServiceOptions = {
  /** `<app home>/personas.json`. */
  file: string;
  now?: () => Date;
  /** Returns an index in [0, count) for generated names; crypto-random by default. */
  pick?: (count: number) => number;
  /** A lock file from another host older than this is abandoned and broken (default 10 min); on this host a lock is broken only when its process is gone. */
  lockForeignStaleMs?: number;
  /** How long a write waits for the lock before failing as `unavailable` (default 10 s). */
  lockTimeoutMs?: number;
  /** A temp file older than this is left over from a crashed writer (default 60 s; a dead writer's goes at once). */
  tempStaleMs?: number;
};

/** The notice shown while the store file cannot be read (an I/O error, not corruption). */
const READ_ERROR_NOTICE = 'personas-read-error';
/** Attempts of one change when the file keeps changing between the re-read and the rename. */
const MAX_ATTEMPTS = 20;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A stable random persona id: `p_` and 10 base32 characters (50 random bits). */
export function newPersonaId(): string {
  const bytes = randomBytes(10);
  return `p_${Array.from(bytes, (byte) => BASE32[byte & 31]).join('')}`;
}

/** Reads and changes the personas of one store file; see the module header for the write protocol. */
export class PersonaService {
  private readonly file: string;
  private readonly now: () => Date;
  private readonly pick: (count: number) => number;
  private readonly lockOptions: { foreignStaleMs: number; timeoutMs: number };
  private readonly tempStaleMs: number;
  private store: PersonaStore = emptyStore();
  private stamp: FileStamp | null = null;
  private loaded = false;
  private disposed = false;
  /** Set when the file must not be written (written by a newer version); the sentence says why. */
  private readOnlyReason: string | null = null;
  /** Set while the last read of the file failed with an I/O error; the cached personas stay, nothing is written. */
  private readError: string | null = null;
  private readonly noticeList: Notice[] = [];
  /** Announces every change: awaited after a write (so it returns once followers caught up), not after a re-read. */
  private readonly changes = new Changes('persona store');
  /** Operations of this process run one at a time; other processes are kept out by the lock file. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: PersonaServiceOptions) {
    this.file = options.file;
    this.now = options.now ?? (() => new Date());
    this.pick = options.pick ?? ((count) => randomInt(count));
    this.lockOptions = { foreignStaleMs: options.lockForeignStaleMs ?? FOREIGN_LOCK_STALE_MS, timeoutMs: options.lockTimeoutMs ?? 10_000 };
    this.tempStaleMs = options.tempStaleMs ?? 60_000;
  }

  /** Every persona, in hiring order, as the file holds them now. */
  list(): Promise<Persona[]> {
    return this.serial(async () => {
      await this.sync(false);
      return [...this.store.personas];
    });
  }

  /** Creates a persona, optionally with a name (else a generated one), a role and a seat. */
  hire(input: { name?: string; role?: string | null; seat?: SeatAddress | null } = {}): Promise<Persona> {
    return this.change(() => {
      const request = hireRequest(input);
      return (personas) => {
        let id = newPersonaId();
        while (personas.some((persona) => persona.id === id)) id = newPersonaId();
        return hirePersona(personas, request, {
          id,
          now: this.now().toISOString(),
          generatedName: (taken) => generatePersonaName(taken, this.pick),
        });
      };
    });
  }

  /** Sets the role (validated by the role rules) or clears it with null. */
  setRole(personaId: string, role: string | null): Promise<Persona> {
    return this.change(() => {
      const canonical = roleOrThrow(role);
      return (personas) => setPersonaRole(personas, personaId, canonical, this.now().toISOString());
    });
  }

  /** Moves the persona to another seat (or none); its role is kept. */
  moveSeat(personaId: string, seat: SeatAddress | null): Promise<Persona> {
    return this.change(() => {
      const address = seatOrThrow(seat);
      return (personas) => movePersonaSeat(personas, personaId, address, this.now().toISOString());
    });
  }

  /** Renames the persona. */
  rename(personaId: string, name: string): Promise<Persona> {
    return this.change(() => {
      const validName = renameRequest(name);
      return (personas) => renamePersona(personas, personaId, validName, this.now().toISOString());
    });
  }

  /** The roles list (shared/roles.ts order) of the personas on disk now. */
  async rolesList(): Promise<RoleCount[]> {
    return rolesList(await this.list());
  }

  /** A persona by id, else by name (case-insensitive); a name held by two personas is a ServiceError. */
  find(idOrName: string): Promise<Persona | undefined> {
    return this.serial(async () => {
      await this.sync(false);
      return findPersona(this.store.personas, idOrName.trim());
    });
  }

  /** Re-reads the file if it changed on disk; true when the personas changed (listeners are told as well). */
  refresh(): Promise<boolean> {
    return this.serial(() => this.sync(false));
  }

  /** Subscribes to changes (made here, or noticed on disk); returns the unsubscribe function. */
  onChange(listener: ChangeListener<void>): () => void {
    return this.changes.on(listener);
  }

  /** Messages for the owner about the store (moved aside, newer version), oldest first. */
  notices(): Notice[] {
    return [...this.noticeList];
  }

  /** Stops notifying listeners and refuses further calls. */
  dispose(): void {
    this.disposed = true;
    this.changes.clear();
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    if (this.disposed) return Promise.reject(new ServiceError('unavailable', 'The persona service has been closed.'));
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private clearReadError(): void {
    if (this.readError === null) return;
    this.readError = null;
    const index = this.noticeList.findIndex((notice) => notice.id === READ_ERROR_NOTICE);
    if (index >= 0) this.noticeList.splice(index, 1);
  }

  private addNotice(notice: Notice): void {
    if (!this.noticeList.some((existing) => existing.id === notice.id)) this.noticeList.push(notice);
  }

  /**
   * Brings the cached store up to date with the file (re-reading only when its stamp changed or the last read
   * failed). A file read whole that does not parse or validate is moved aside under the lock (`lockHeld` says the
   * caller already holds it); an I/O error leaves the file alone.
   */
  private async sync(lockHeld: boolean): Promise<boolean> {
    if (!this.loaded) await this.firstLoad();
    const current = await statStamp(this.file).catch(() => undefined);
    if (this.loaded && this.readError === null && current !== undefined && sameStamp(current, this.stamp)) return false;
    const before = JSON.stringify(this.store.personas);
    await this.adopt(await readStoreFile(this.file), lockHeld);
    this.loaded = true;
    const changed = JSON.stringify(this.store.personas) !== before;
    // Not awaited: a follower may read the store again, which queues behind the task running this.
    if (changed) void this.changes.emit();
    return changed;
  }

  private async firstLoad(): Promise<void> {
    await cleanStaleTemps(this.file, this.tempStaleMs, this.now().getTime());
    for (const aside of await listMovedAside(this.file)) {
      this.addNotice({
        id: `personas-aside:${aside}`,
        level: 'warning',
        message: `An earlier persona store that could not be read is kept at ${aside}; its personas are not shown.`,
      });
    }
  }

  private async adopt(read: FileRead, lockHeld: boolean): Promise<void> {
    if (read.kind === 'failed') {
      // An I/O error is not corruption: keep what was last read, leave the file alone, and read again next time.
      this.readError = `The persona store ${this.file} could not be read (${read.reason}); it is left as it is, nothing is written to it, and it is read again next time.`;
      this.addNotice({ id: READ_ERROR_NOTICE, level: 'error', message: this.readError });
      return;
    }
    this.clearReadError();
    if (read.kind === 'missing') {
      this.store = emptyStore();
      this.stamp = null;
      return;
    }
    if (read.kind === 'read') {
      const decoded = decodeStore(read.text);
      if (decoded.kind === 'ok') {
        this.store = decoded.store;
        this.stamp = read.stamp;
        this.readOnlyReason = null;
        return;
      }
      if (decoded.kind === 'newer') {
        this.store = decoded.store ?? emptyStore();
        this.stamp = read.stamp;
        this.readOnlyReason = `The persona store ${this.file} was written by a newer Pixelfleet (schema version ${decoded.version}); update Pixelfleet to change personas.`;
        this.addNotice({ id: 'personas-newer', level: 'error', message: `${this.readOnlyReason} Nothing is written to it.` });
        return;
      }
      return this.recover(decoded.reason, lockHeld);
    }
  }

  /** Moves an unusable store aside and starts a fresh one, unless another process already did (re-checked under the lock). */
  private async recover(reason: string, lockHeld: boolean): Promise<void> {
    const release = lockHeld ? null : await this.lock();
    try {
      const again = await readStoreFile(this.file);
      const fine = again.kind !== 'read' || decodeStore(again.text).kind !== 'corrupt';
      if (fine) return this.adopt(again, true);
      const date = this.now();
      const aside = await moveAside(this.file, date);
      const fresh = emptyStore();
      const temp = await writeTemp(this.file, encodeStore(fresh));
      await commitTemp(temp, this.file);
      this.store = fresh;
      this.stamp = await statStamp(this.file);
      this.addNotice({
        id: `personas-aside:${aside}`,
        level: 'error',
        message: `The persona store was unreadable (${reason}) and was moved aside to ${aside}; a fresh, empty store was started. Personas in the old file can be copied back by hand.`,
      });
    } finally {
      await release?.();
    }
  }

  private async lock(): Promise<() => Promise<void>> {
    try {
      return await acquireLock(this.file, this.lockOptions);
    } catch (error) {
      if (error instanceof LockTimeoutError) throw new ServiceError('unavailable', `${error.message} Try again in a moment.`);
      throw error;
    }
  }

  /**
   * Runs one change: `prepare` validates the request once (a bad one touches nothing) and returns the change as a
   * function of the personas, applied again to fresh personas whenever the file changed underneath.
   */
  private async change(prepare: () => (personas: readonly Persona[]) => PersonaChange): Promise<Persona> {
    let wrote = false;
    const persona = await this.serial(async () => {
      try {
        return await this.changeLocked(prepare, () => (wrote = true));
      } catch (error) {
        throw unwritable(error, this.file) ?? error;
      }
    });
    // Announced outside the queue, so a follower's census can read the store; the change returns after it.
    if (wrote) await this.changes.emit();
    return persona;
  }

  /** One change under the store lock (the body of `change`). */
  private async changeLocked(prepare: () => (personas: readonly Persona[]) => PersonaChange, written: () => void): Promise<Persona> {
    const apply = prepare();
    await this.sync(false);
    if (this.readError) throw new ServiceError('unavailable', this.readError);
    if (this.readOnlyReason) throw new ServiceError('unavailable', this.readOnlyReason);
    // Fail fast without the lock when the change is refused against what we already know (unknown id, taken seat).
    apply(this.store.personas);
    const release = await this.lock();
    try {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        await this.sync(true);
        if (this.readError) throw new ServiceError('unavailable', this.readError);
        if (this.readOnlyReason) throw new ServiceError('unavailable', this.readOnlyReason);
        const base = this.store;
        const baseStamp = this.stamp;
        const result = apply(base.personas);
        if (!result.changed) return result.persona;
        const next: PersonaStore = { schemaVersion: 2, revision: base.revision + 1, personas: result.personas };
        const temp = await writeTemp(this.file, encodeStore(next));
        // The revision check: the file must still be the version this change was computed from. The lock makes a
        // mismatch rare (a broken stale lock, a hand edit); when it happens the change is re-applied, not forced.
        if (!sameStamp(await statStamp(this.file), baseStamp)) {
          await discardTemp(temp);
          continue;
        }
        await commitTemp(temp, this.file);
        this.store = next;
        this.stamp = await statStamp(this.file);
        written();
        return result.persona;
      }
      throw new ServiceError('unavailable', 'The persona store kept changing while saving; nothing was changed. Try again.');
    } finally {
      await release();
    }
  }
}

/** File-system codes that mean the app home cannot be written (permissions, a read-only disk, no space). */
const UNWRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT']);

/** Issue 36: a write refused by the file system is `unavailable` with one clear line, never `internal` with a stack. */
export function unwritable(error: unknown, file: string): ServiceError | null {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (error instanceof ServiceError || typeof code !== 'string' || !UNWRITABLE.has(code)) return null;
  const why = code === 'ENOSPC' || code === 'EDQUOT' ? 'the disk is full' : 'the folder is read-only for Pixelfleet';
  return new ServiceError('unavailable', `${file} cannot be written (${code}: ${why}); nothing was changed. Fix the app home's permissions or free space, then try again.`);
}
