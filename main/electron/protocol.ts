/** Serves the built renderer over a privileged `app://` scheme so every response carries the strict CSP. */
import { net, protocol } from 'electron';
import { join, normalize, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { contentSecurityPolicy } from '../transport/csp';

/** The scheme and origin of the app's pages. */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = 'app://pixelfleet';

/** The CSP of the desktop page: nothing inline, nothing remote. */
export const DESKTOP_CSP = contentSecurityPolicy([]);

/** Must run before `app.ready`. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, stream: true } }]);
}

/** Serves files under `rendererDir` at app://pixelfleet/…, refusing anything outside it. */
export function serveRenderer(rendererDir: string): void {
  const root = normalize(rendererDir);
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const relative = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname).replace(/^\/+/, '');
    const file = normalize(join(root, relative));
    if (url.host !== 'pixelfleet' || !file.startsWith(root + sep)) return new Response('Not found', { status: 404 });
    const response = await net.fetch(pathToFileURL(file).toString());
    const headers = new Headers(response.headers);
    headers.set('Content-Security-Policy', DESKTOP_CSP);
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(response.body, { status: response.status, headers });
  });
}
