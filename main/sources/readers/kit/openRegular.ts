/**
 * Opens a file for reading only when it is a regular file (issue 36): opened without blocking, then checked, so a
 * FIFO or device named like a transcript never holds an I/O pool thread (and with it the lobby and SIGTERM).
 */
import { constants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** A handle on a regular file; a FIFO, socket, device or folder is refused with an ENOTREG-like error. */
export async function openRegular(path: string): Promise<FileHandle> {
  return (await openRegularFile(path)).handle;
}

/** A handle on a regular file with the handle's own stats (taken to check it, so a caller need not ask again). */
export async function openRegularFile(path: string): Promise<{ handle: FileHandle; info: Stats }> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: 'ENOTREG' });
    return { handle, info };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
