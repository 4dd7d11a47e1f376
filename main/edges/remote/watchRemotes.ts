/**
 * Follows an app home's `remotes.json` while a host runs: `remote add` and `remote remove` (or a hand edit) reach the
 * hub within a second or two, without a restart. A change is noticed by a watch on the home folder (the file is
 * replaced by rename) and, since watches can miss events, by a light poll of the file's text.
 */
import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { readRemotes, remotesFile, type Remote } from './remoteStore';
import { REMOTES_POLL_MS } from './bounds';

/** Where each outcome of a changed file goes. */
export interface RemotesListener {
  /** The file lists these remotes now (none when it was removed). */
  list(remotes: Remote[]): void;
  /** The file cannot be used now; why, as a sentence. */
  problem(reason: string): void;
}

/** A running watch. */
export interface RemotesWatch {
  close(): void;
}

/** Starts following the home's `remotes.json`; the first reading is compared with what the caller already holds. */
export function watchRemotes(home: string, listener: RemotesListener, pollMs: number = REMOTES_POLL_MS): RemotesWatch {
  const file = remotesFile(home);
  let lastText: string | null = null;
  let closed = false;
  let reading = false;
  let again = false;

  const check = async (): Promise<void> => {
    if (closed) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? '' : `unreadable:${error.code}`));
      if (text === lastText || closed) return;
      lastText = text;
      const read = await readRemotes(home);
      if (closed) return;
      if (read.ok) listener.list(read.remotes);
      else listener.problem(read.reason);
    } finally {
      reading = false;
      if (again && !closed) {
        again = false;
        void check();
      }
    }
  };

  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(home, { persistent: false }, (_event, name) => {
      if (name === null || String(name).startsWith('remotes.json')) void check();
    });
    watcher.on('error', () => undefined);
  } catch {
    watcher = null; // the poll alone follows the file
  }
  const timer = setInterval(() => void check(), pollMs);
  timer.unref?.();
  void check();
  return {
    close() {
      closed = true;
      clearInterval(timer);
      watcher?.close();
    },
  };
}
