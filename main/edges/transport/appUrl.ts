/**
 * Which renderer file an `app://pixelfleet/…` request names, as a pure rule the desktop protocol handler applies
 * (kept apart from Electron so it is tested in Node). A request never throws: a URL or an escape that cannot be
 * parsed is a 400, anything outside the renderer folder or on another host a 404.
 */
import { join, normalize, sep } from 'node:path';

/** The host of the app's pages (`app://pixelfleet`). */
export const APP_HOST = 'pixelfleet';

/** The file to serve, or the status to answer with. */
export type AppFile = { ok: true; file: string } | { ok: false; status: 400 | 404 };

/** Resolves a request URL to a file strictly inside `rendererDir`. */
export function appFileFor(rendererDir: string, requestUrl: string): AppFile {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return { ok: false, status: 400 };
  }
  if (url.host !== APP_HOST) return { ok: false, status: 404 };
  let relative: string;
  try {
    relative = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname).replace(/^\/+/, '');
  } catch {
    return { ok: false, status: 400 };
  }
  // A NUL cannot name a file; refuse it before it reaches a path.
  if (relative.includes('\0')) return { ok: false, status: 400 };
  const root = normalize(rendererDir);
  const file = normalize(join(root, relative));
  if (!file.startsWith(root + sep)) return { ok: false, status: 404 };
  return { ok: true, file };
}
