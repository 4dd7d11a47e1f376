/** Serves the built renderer over a privileged `app://` scheme so every response carries the strict CSP. */
import { net, protocol } from 'electron';
import { pathToFileURL } from 'node:url';
import { appFileFor } from '../edges/transport/appUrl';
import { contentSecurityPolicy } from '../edges/transport/csp';

/** The scheme and origin of the app's pages. */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = 'app://pixelfleet';

/** The CSP of the desktop page: nothing inline, nothing remote. */
export const DESKTOP_CSP = contentSecurityPolicy([]);

/** Must run before `app.ready`. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, stream: true } }]);
}

/** Serves files under `rendererDir` at app://pixelfleet/…, refusing anything outside it; a bad request never throws. */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const target = appFileFor(rendererDir, request.url);
    if (!target.ok) return new Response(target.status === 400 ? 'Bad request' : 'Not found', { status: target.status });
    let response: Response;
    try {
      response = await net.fetch(pathToFileURL(target.file).toString());
    } catch {
      // A missing or unreadable file makes net.fetch reject.
      return new Response('Not found', { status: 404 });
    }
    const headers = new Headers(response.headers);
    headers.set('Content-Security-Policy', DESKTOP_CSP);
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(response.body, { status: response.status, headers });
  });
}
