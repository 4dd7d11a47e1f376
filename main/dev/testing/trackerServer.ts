/**
 * A real HTTP server on 127.0.0.1 for the work-backend tests: each request is recorded and answered by the
 * test's handler, which may also leave it hanging to exercise timeouts.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the server saw it. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the handler answers; `hang` never answers. */
export type TrackerAnswer = { status: number; headers?: Record<string, string>; json?: unknown; text?: string } | 'hang';

/** A running server with its base URL and every request received. */
export interface TrackerServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts a server on an ephemeral port answering with `handler`. */
export async function startTrackerServer(handler: (request: RecordedRequest, base: string) => TrackerAnswer): Promise<TrackerServer> {
  const requests: RecordedRequest[] = [];
  const hanging: ServerResponse[] = [];
  let base = '';
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request = { method: incoming.method ?? '', url: incoming.url ?? '', headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(request);
      const answer = handler(request, base);
      if (answer === 'hang') {
        hanging.push(response);
        return;
      }
      const body = answer.json !== undefined ? JSON.stringify(answer.json) : (answer.text ?? '');
      response.writeHead(answer.status, { 'content-type': answer.json !== undefined ? 'application/json' : 'text/plain', ...answer.headers });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
