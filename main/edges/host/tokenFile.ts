/**
 * Browser mode's token kept in the app home (`web-token.json`, mode 0600), so a page left open reconnects by itself
 * after the host restarts. The file also records the port the host last listened on: a restart without `--port`
 * asks for that port again, so the open page's address still reaches it. A file that cannot be read, is readable
 * by others or does not parse is replaced by a new token, and one log line says why. Expected failures are values.
 */
import { randomBytes } from 'node:crypto';
import { lstat, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { newToken } from './security';

/** The token file's name inside the app home. */
export const TOKEN_FILE = 'web-token.json';

/** The longest token file read, in bytes (a real one is under 100). */
export const TOKEN_FILE_MAX_BYTES = 4096;

/** The only file mode a token file may have (owner read and write). */
const TOKEN_MODE = 0o600;

/** A token as the file holds it: the token and the port last listened on (null when never recorded). */
export interface StoredToken {
  token: string;
  port: number | null;
}

/** What loading gave: the token to use, its recorded port, and whether it was made new now. */
export interface LoadedToken extends StoredToken {
  fresh: boolean;
}

/** The token file's path in an app home. */
export function tokenFilePath(home: string): string {
  return join(home, TOKEN_FILE);
}

/** Pure: the stored token a file's text holds, or why not (a sentence). */
export function parseTokenFile(text: string): { ok: true; value: StoredToken } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'is not a JSON object' };
  const record = value as Record<string, unknown>;
  if (record.version !== 1) return { ok: false, reason: 'has no version 1' };
  if (typeof record.token !== 'string' || !/^[A-Za-z0-9_-]{32}$/.test(record.token)) return { ok: false, reason: 'holds no well-formed token' };
  const port = record.port;
  if (port !== null && port !== undefined && !(Number.isInteger(port) && (port as number) > 0 && (port as number) <= 65535)) {
    return { ok: false, reason: 'holds a port out of range' };
  }
  return { ok: true, value: { token: record.token, port: typeof port === 'number' ? port : null } };
}

/** Reads the stored token; null when there is none (first run), else the token or why it cannot be used. */
async function readStored(file: string): Promise<{ ok: true; value: StoredToken } | { ok: false; reason: string } | null> {
  let info;
  try {
    info = await lstat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? null : { ok: false, reason: `could not be read (${code ?? 'error'})` };
  }
  if (!info.isFile()) return { ok: false, reason: 'is not a regular file' };
  // Windows has no owner-only mode bits to check.
  if (process.platform !== 'win32' && (info.mode & 0o777) !== TOKEN_MODE) {
    return { ok: false, reason: `has mode ${(info.mode & 0o777).toString(8).padStart(4, '0')}, not 0600` };
  }
  if (info.size > TOKEN_FILE_MAX_BYTES) return { ok: false, reason: `is over ${TOKEN_FILE_MAX_BYTES} bytes` };
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return { ok: false, reason: `could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  return parseTokenFile(text);
}

/** Writes the token file atomically with mode 0600; an error is returned, never thrown. */
export async function saveToken(home: string, stored: StoredToken): Promise<{ ok: true } | { ok: false; reason: string }> {
  const file = tokenFilePath(home);
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(temp, 'wx', TOKEN_MODE);
    try {
      await handle.writeFile(`${JSON.stringify({ version: 1, token: stored.token, port: stored.port })}\n`);
      await handle.chmod(TOKEN_MODE);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
    return { ok: true };
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    return { ok: false, reason: `${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
}

/**
 * The token browser mode uses in `home`: the stored one, or a new one (when asked to rotate, on a first run, or when
 * the file is unusable — then with one log line naming why) that is written back with mode 0600.
 */
export async function loadToken(home: string, options: { rotate: boolean; log: (message: string) => void }): Promise<LoadedToken> {
  const file = tokenFilePath(home);
  if (!options.rotate) {
    const stored = await readStored(file);
    if (stored?.ok) return { ...stored.value, fresh: false };
    if (stored) options.log(`pixelfleet: the token file ${file} ${stored.reason}; a new token was made (open the new address).`);
  }
  const token = newToken();
  const saved = await saveToken(home, { token, port: null });
  if (!saved.ok) options.log(`pixelfleet: could not write the token file ${file} (${saved.reason}); this token lasts until the host stops.`);
  return { token, port: null, fresh: true };
}
