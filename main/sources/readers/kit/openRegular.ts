/**
 * Opens a file for reading only when it is a regular file (issue 36): opened without blocking, then checked, so a
 * FIFO or device named like a transcript never holds an I/O pool thread (and with it the lobby and SIGTERM).
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** A handle on a regular file; a FIFO, socket, device or folder is refused with an ENOTREG-like error. */
export async function openRegular(path: string): Promise<FileHandle> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: 'ENOTREG' });
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}
