/**
 * The file-system side of every store kept in one file (personas, profiles, remotes, the Codex header index):
 * consistent reads, atomic writes (temp file in the same folder, fsync, rename, fsync the folder), clean-up after a
 * crashed writer, and moving an unreadable store aside. No store logic here; the lock file is ./fileLock.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { processAlive } from './fileLock';

/** What identifies one version of the file on disk; a write always changes it (rename gives a new inode). */
export type FileStamp = { ino: number; size: number; mtimeMs: number; ctimeMs: number };

/**
 * A read of the store file. `read` is the whole file; only such a text can be judged corrupt. `failed` is an I/O
 * error (EACCES, EIO, EMFILE, a folder in its place…): it says nothing about the content, so the file stays as it is.
 */
export type FileRead =
  | { kind: 'missing' }
  | { kind: 'read'; text: string; stamp: FileStamp }
  | { kind: 'failed'; reason: string };

/** True when both stamps describe the same file version (both absent counts as the same). */
export function sameStamp(first: FileStamp | null, second: FileStamp | null): boolean {
  if (first === null || second === null) return first === second;
  return (
    first.ino === second.ino &&
    first.size === second.size &&
    first.mtimeMs === second.mtimeMs &&
    first.ctimeMs === second.ctimeMs
  );
}

function stampOf(stats: { ino: number; size: number; mtimeMs: number; ctimeMs: number }): FileStamp {
  return { ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs };
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

/** The stamp of the file now, or null when it does not exist. */
export async function statStamp(file: string): Promise<FileStamp | null> {
  try {
    return stampOf(await fs.stat(file));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/** Reads the file and its stamp through one descriptor, so the stamp belongs to exactly the text read. */
export async function readStoreFile(file: string): Promise<FileRead> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { kind: 'missing' };
    return { kind: 'failed', reason: ioReason(error) };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { kind: 'failed', reason: 'it is not a regular file' };
    const buffer = await handle.readFile();
    return { kind: 'read', text: buffer.toString('utf8'), stamp: stampOf(stats) };
  } catch (error) {
    return { kind: 'failed', reason: ioReason(error) };
  } finally {
    await handle.close();
  }
}

function ioReason(error: unknown): string {
  return errorCode(error) ?? (error instanceof Error ? error.message : String(error));
}

const TEMP_MARK = '.tmp-';

/** Writes the text to a new temp file beside the store and flushes it to disk; returns the temp path. */
export async function writeTemp(file: string, text: string): Promise<string> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}${TEMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}`;
  const handle = await fs.open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  return temp;
}

/** Renames the temp file over the store (atomic on one file system) and flushes the folder entry where possible. */
export async function commitTemp(temp: string, file: string): Promise<void> {
  await fs.rename(temp, file);
  await syncFolder(path.dirname(file));
}

/** Removes a temp file that will not be committed. */
export async function discardTemp(temp: string): Promise<void> {
  await fs.rm(temp, { force: true });
}

/** fsync of a folder makes a rename durable; some platforms (Windows) cannot open folders, which is fine to skip. */
async function syncFolder(folder: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(folder, 'r');
    await handle.sync();
  } catch {
    // Durability of the folder entry is best effort; the rename itself is already atomic.
  } finally {
    await handle?.close();
  }
}

/**
 * Removes temp files left by writers that died between write and rename: those whose process is gone, or older than
 * `staleMs` (a live process never keeps a temp file that long). Returns the removed paths.
 */
export async function cleanStaleTemps(file: string, staleMs: number, now: number = Date.now()): Promise<string[]> {
  const folder = path.dirname(file);
  const prefix = `${path.basename(file)}${TEMP_MARK}`;
  let names: string[];
  try {
    names = await fs.readdir(folder);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number.parseInt(name.slice(prefix.length).split('-')[0], 10);
    const full = path.join(folder, name);
    const stats = await fs.stat(full).catch(() => null);
    if (stats === null) continue;
    const dead = Number.isInteger(pid) && pid > 0 && pid !== process.pid && !processAlive(pid);
    if (dead || now - stats.mtimeMs > staleMs) {
      await fs.rm(full, { force: true });
      removed.push(full);
    }
  }
  return removed;
}

/** A file-name-safe timestamp: `2025-01-02T03-04-05-678Z`. */
export function fileTimestamp(date: Date): string {
  return date.toISOString().replace(/[:.]/g, '-');
}

/** Renames an unreadable store to `<file>.corrupt-<timestamp>` (never over an existing file); returns the new path. */
export async function moveAside(file: string, date: Date): Promise<string> {
  const base = `${file}.corrupt-${fileTimestamp(date)}`;
  for (let attempt = 0; ; attempt += 1) {
    const target = attempt === 0 ? base : `${base}-${attempt}`;
    const exists = await fs.lstat(target).then(() => true, () => false);
    if (exists) continue;
    await fs.rename(file, target);
    return target;
  }
}

/** Earlier stores moved aside beside this one, oldest first. */
export async function listMovedAside(file: string): Promise<string[]> {
  const prefix = `${path.basename(file)}.corrupt-`;
  const names = await fs.readdir(path.dirname(file)).catch(() => [] as string[]);
  return names.filter((name) => name.startsWith(prefix)).sort().map((name) => path.join(path.dirname(file), name));
}
