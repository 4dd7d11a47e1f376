/**
 * Browser mode's start over the token kept in the app home: the host listens with the stored token and, unless
 * `--port` was given, on the port recorded with it (a free one when that is taken), then records the port it got.
 * So a restarted host answers the address an open page already holds, and the page reconnects by itself.
 */
import type { Host, HostOptions } from './server';
import { loadToken, saveToken } from './tokenFile';
import { unsafePortReason } from './unsafePorts';

/** What the start was asked for: the app home, `--port` (and whether it was given), `--new-token`. */
export interface TokenStart {
  home: string;
  port: number;
  portGiven: boolean;
  rotate: boolean;
}

/** Starts the host with the app home's token; `start` is the host's own start (the real one in use). */
export async function listenWithToken(
  options: Omit<HostOptions, 'token' | 'port'> & { log: (message: string) => void },
  start: TokenStart,
  startHost: (options: HostOptions) => Promise<Host>,
): Promise<Host> {
  const stored = await loadToken(start.home, { rotate: start.rotate, log: options.log });
  // A recorded port the browser refuses (a token file written by an older build, or edited) is not wished for.
  const recorded = stored.port !== undefined && stored.port !== null && unsafePortReason(stored.port) === null ? stored.port : 0;
  const wanted = start.portGiven ? start.port : recorded;
  let host: Host;
  try {
    host = await startHost({ ...options, token: stored.token, port: wanted });
  } catch (error) {
    // The recorded port is only a wish: when something else holds it now, any free port does.
    if (start.portGiven || wanted === 0 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    options.log(`pixelfleet: port ${wanted} (recorded with the token) is in use; listening on a free port, so an open page must be reopened.`);
    host = await startHost({ ...options, token: stored.token, port: 0 });
  }
  if (host.port !== stored.port) {
    const saved = await saveToken(start.home, { token: stored.token, port: host.port });
    if (!saved.ok) options.log(`pixelfleet: could not record the port in the token file (${saved.reason}).`);
  }
  return host;
}
