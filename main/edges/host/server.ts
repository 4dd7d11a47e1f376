/**
 * Browser mode: a Node HTTP server on 127.0.0.1 that serves the built renderer and a WebSocket speaking the
 * contract. A random token is required in the page URL and on the socket, and the Origin and Host are checked.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { shownValue } from '../../../shared/bounds';
import type { App } from '../../setup/app';
import { answerRequest, type RequestMessage } from '../transport/answerRequest';
import { allowedOrigins, hostContentSecurityPolicy, hostAllowed, newToken, tokenMatches } from './security';

/** The largest message a client may send (a contract request is small). */
const MAX_MESSAGE_BYTES = 1024 * 1024;

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
};

/** A running host. */
export interface Host {
  readonly port: number;
  readonly token: string;
  readonly url: string;
  /** Connected sockets (for tests). */
  readonly clients: number;
  close(): Promise<void>;
}

/** Options for the host. */
export interface HostOptions {
  app: App;
  /** The built renderer folder (index.html and assets). */
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  token?: string;
  log?: (message: string) => void;
}

function refuse(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
  response.end(`${message}\n`);
}

/** Status lines of the refusals the upgrade handler writes by hand. */
const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 500: 'Internal Server Error' };

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  const body = `${reason}\n`;
  if (socket.destroyed) return;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Bad Request'}\r\n` +
      `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * The request target as a URL on this host, or null when it cannot be parsed (Node's parser accepts targets such
 * as `//[` that the URL parser rejects). Only origin-form targets (starting with one `/`) are served.
 */
export function requestTarget(target: string | undefined, port: number): URL | null {
  if (typeof target !== 'string' || !target.startsWith('/')) return null;
  try {
    const base = new URL(`http://127.0.0.1:${port}`);
    const url = new URL(target, base);
    // `//other/x` would name another host: not a path of this one.
    if (url.origin !== base.origin) return null;
    decodeURIComponent(url.pathname);
    return url;
  } catch {
    return null;
  }
}

/** An error as one log line (no stack, no newlines). */
function oneLine(error: unknown): string {
  return String(error instanceof Error ? error.message : error).replace(/\s+/g, ' ').slice(0, 300);
}

/** Answers 500 (or ends the response) after a throw inside the request handler, and logs one line. */
function failRequest(response: ServerResponse, log: (message: string) => void, what: string, error: unknown): void {
  log(`pixelfleet: serving ${what} failed: ${oneLine(error)}`);
  try {
    if (!response.headersSent) refuse(response, 500, 'Internal error.');
    else response.destroy();
  } catch {
    response.destroy();
  }
}

/** Starts the host and resolves once it listens. */
export async function startHost(options: HostOptions): Promise<Host> {
  const token = options.token ?? newToken();
  const log = options.log ?? (() => {});
  const { app, rendererDir } = options;
  let port = 0;
  const sockets = new Set<WebSocket>();

  const serveFile = async (request: IncomingMessage, response: ServerResponse, url: URL) => {
    const relative = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname).replace(/^\/+/, '');
    const file = normalize(join(rendererDir, relative));
    if (!file.startsWith(normalize(rendererDir) + sep)) {
      refuse(response, 404, 'Not found.');
      return;
    }
    // The token check reads the file the decoded path names (`/%69ndex.html` is the page too): every page needs it.
    if (extname(file).toLowerCase() === '.html' && !tokenMatches(token, url.searchParams.get('token'))) {
      refuse(response, 401, 'Pixelfleet: this page needs the token. Open the URL that `pixelfleet web` printed.');
      return;
    }
    try {
      const info = await stat(file);
      if (!info.isFile()) throw new Error('not a file');
      const body = await readFile(file);
      const headers: Record<string, string> = {
        'content-type': MIME[extname(file)] ?? 'application/octet-stream',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': relative === 'index.html' ? 'no-store' : 'public, max-age=3600',
      };
      if (extname(file) === '.html') {
        headers['content-security-policy'] = hostContentSecurityPolicy(port);
        headers['x-frame-options'] = 'DENY';
      }
      response.writeHead(200, headers);
      response.end(request.method === 'HEAD' ? undefined : body);
    } catch {
      refuse(response, 404, 'Not found.');
    }
  };

  const server: Server = createServer((request, response) => {
    try {
      const url = requestTarget(request.url, port);
      if (!url) {
        response.shouldKeepAlive = false;
        refuse(response, 400, 'Pixelfleet: the request target is not a path.');
        return;
      }
      if (!hostAllowed(request.headers.host, port)) {
        refuse(response, 403, 'Pixelfleet answers only on 127.0.0.1 and localhost.');
        return;
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        refuse(response, 405, 'Pixelfleet serves pages and a WebSocket only.');
        return;
      }
      serveFile(request, response, url).catch((error) => failRequest(response, log, url.pathname, error));
    } catch (error) {
      failRequest(response, log, 'a request', error);
    }
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // A socket error (a reset mid-handshake) must not become an unhandled 'error' event.
    socket.on('error', () => socket.destroy());
    try {
      const url = requestTarget(request.url, port);
      if (!url) return refuseUpgrade(socket, 400, 'Pixelfleet: the request target is not a path.');
      if (url.pathname !== '/ws') return refuseUpgrade(socket, 400, 'Pixelfleet: the socket lives at /ws.');
      if (!hostAllowed(request.headers.host, port)) return refuseUpgrade(socket, 403, 'Pixelfleet answers only on 127.0.0.1 and localhost.');
      if (!tokenMatches(token, url.searchParams.get('token'))) return refuseUpgrade(socket, 401, 'Pixelfleet: missing or wrong token.');
      const origin = request.headers.origin;
      if (!origin || !allowedOrigins(port).has(origin)) return refuseUpgrade(socket, 403, `Pixelfleet: origin ${origin === undefined ? '(none)' : shownValue(origin)} is not allowed.`);
      wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
    } catch (error) {
      log(`pixelfleet: a socket upgrade failed: ${oneLine(error)}`);
      refuseUpgrade(socket, 500, 'Internal error.');
    }
  });

  wss.on('connection', (ws: WebSocket) => {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    ws.on('error', () => sockets.delete(ws));
    ws.on('message', async (data, isBinary) => {
      let message: RequestMessage;
      try {
        if (isBinary) throw new Error('binary');
        message = JSON.parse(data.toString());
        if (typeof message !== 'object' || message === null) throw new Error('not an object');
      } catch {
        ws.send(JSON.stringify({ id: null, ok: false, error: { code: 'invalid_message', message: 'A message is a JSON object { id, channel, payload }.' } }));
        return;
      }
      const send = (answer: Record<string, unknown>) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(answer));
      };
      await answerRequest(app.router, message, send, (error) => log(`pixelfleet: a socket message failed: ${oneLine(error)}`));
    });
  });

  const offEvents = app.onEvent((event, payload) => {
    const text = JSON.stringify({ event, payload });
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(text);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;

  return {
    port,
    token,
    url: `http://127.0.0.1:${port}/?token=${token}`,
    get clients() {
      return sockets.size;
    },
    async close() {
      offEvents();
      for (const ws of sockets) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
