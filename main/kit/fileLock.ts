/**
 * A store's lock file `<file>.lock` (the persona store's), shared by every process that writes the store. It names its holder
 * (host, PID and a random token) and is published whole with a hard link, so it is never seen half written. A lock
 * is broken only when its holder is gone — its PID is not alive on this host, or it names another host and is older
 * than a generous bound — never for its age alone: a writer paused by sleep, SIGSTOP or a slow disk keeps it.
 * Release removes the lock only while it still carries the holder's own token.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** How the lock behaves: how long to wait for it, and when a lock from another host counts as abandoned (ms). */
export type LockOptions = { timeoutMs: number; foreignStaleMs: number };

/** A lock from another host older than this is abandoned (rule 2 below): ten minutes. */
export const FOREIGN_LOCK_STALE_MS = 10 * 60_000;

/** Who holds a lock, as written in the lock file. */
export type LockHolder = { host: string; pid: number; token: string };

/** Thrown when the lock could not be taken within the timeout. */
export class LockTimeoutError extends Error {
  constructor(readonly lockFile: string) {
    super(`The persona store is locked by another process (${lockFile}).`);
    this.name = 'LockTimeoutError';
  }
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

function pause(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/** True when a process with this id exists on this host (EPERM means it exists but belongs to someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

/** Reads a lock file's holder; a bare PID (the earlier format) is a holder on this host without a token. */
export function parseLockHolder(text: string): LockHolder | null {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null) {
      const { host, pid, token } = value as Record<string, unknown>;
      if (typeof host === 'string' && Number.isInteger(pid) && typeof token === 'string') return { host, pid: pid as number, token };
    }
  } catch {
    // Not JSON: perhaps the earlier format.
  }
  const bare = /^\s*(\d+)\s*$/.exec(text);
  return bare ? { host: os.hostname(), pid: Number(bare[1]), token: '' } : null;
}

/**
 * Whether a lock is abandoned. Rule 1: on this host, only when its PID is not alive. Rule 2: from another host,
 * only when older than `foreignStaleMs`. Rule 3: an unreadable lock (not written by Pixelfleet) counts as from
 * another host.
 */
export function lockAbandoned(holder: LockHolder | null, ageMs: number, options: LockOptions): boolean {
  if (holder !== null && holder.host === os.hostname()) return holder.pid !== process.pid && !processAlive(holder.pid);
  return ageMs > options.foreignStaleMs;
}

async function readHolder(lockFile: string): Promise<{ holder: LockHolder | null; ageMs: number; text: string } | null> {
  try {
    const [text, stats] = await Promise.all([fs.readFile(lockFile, 'utf8'), fs.stat(lockFile)]);
    return { holder: parseLockHolder(text), ageMs: Date.now() - stats.mtimeMs, text };
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/** Publishes `text` as `target` whole or not at all: written to a private file, then hard-linked (never overwrites). */
async function publish(target: string, text: string): Promise<boolean> {
  const draft = `${target}.draft-${process.pid}-${randomBytes(4).toString('hex')}`;
  await fs.writeFile(draft, text, { mode: 0o600, flag: 'wx' });
  try {
    await fs.link(draft, target);
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  } finally {
    await fs.rm(draft, { force: true });
  }
}

/** Breaks an abandoned lock: moves it aside and puts it back if what was moved is not the lock judged abandoned. */
async function breakLock(lockFile: string, judged: string): Promise<void> {
  const aside = `${lockFile}.stale-${randomBytes(4).toString('hex')}`;
  if (!(await fs.rename(lockFile, aside).then(() => true, () => false))) return;
  const moved = await fs.readFile(aside, 'utf8').catch(() => judged);
  // Another process may have broken the same lock and taken a fresh one between our read and our rename.
  if (moved !== judged) await fs.link(aside, lockFile).catch(() => {});
  await fs.rm(aside, { force: true });
}

/** Takes the exclusive lock `<file>.lock`; resolves with the function that releases exactly this lock. */
export async function acquireLock(file: string, options: LockOptions): Promise<() => Promise<void>> {
  const lockFile = `${file}.lock`;
  const deadline = Date.now() + options.timeoutMs;
  const holder: LockHolder = { host: os.hostname(), pid: process.pid, token: randomBytes(16).toString('hex') };
  const text = `${JSON.stringify(holder)}\n`;
  await fs.mkdir(path.dirname(file), { recursive: true });
  for (;;) {
    if (await publish(lockFile, text)) return () => releaseLock(lockFile, holder.token);
    const current = await readHolder(lockFile);
    if (current !== null && lockAbandoned(current.holder, current.ageMs, options)) {
      await breakLock(lockFile, current.text);
      continue;
    }
    if (Date.now() > deadline) throw new LockTimeoutError(lockFile);
    if (current !== null) await pause(2 + Math.random() * 10);
  }
}

/** Removes the lock only while it still carries `token` (never another process's lock). */
async function releaseLock(lockFile: string, token: string): Promise<void> {
  const current = await readHolder(lockFile);
  if (current?.holder?.token === token) await fs.rm(lockFile, { force: true });
}
