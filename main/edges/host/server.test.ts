// The host against raw TCP bytes: a target the URL parser rejects, and throws inside its handlers, answer and log
// one line each while the server keeps serving the page with the token.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { App } from '../../setup/app';
import { requestTarget, startHost, type Host } from './server';

let folder: string;
let host: Host;
const logged: string[] = [];

/** Just enough of an app for the host: a router whose handler throws, and no events. */
function throwingApp(): App {
  const partial: Pick<App, 'router' | 'onEvent'> = {
    router: { handle: async () => Promise.reject(new Error('handler exploded\nsecond line')) } as unknown as App['router'],
    onEvent: () => () => {},
  };
  return partial as App;
}

function raw(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(host.port, '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy(new Error(`no close; got ${JSON.stringify(answer)}`)));
  });
}

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'pixelfleet-host-'));
  await writeFile(join(folder, 'index.html'), '<!doctype html><title>t</title>');
  logged.length = 0;
  host = await startHost({ app: throwingApp(), rendererDir: folder, log: (line) => logged.push(line) });
});
afterEach(async () => {
  await host.close();
  await rm(folder, { recursive: true, force: true });
});

describe('browser-mode host', () => {
  it('answers 400 to GET //[ on the request handler and closes, then serves the page with the token', async () => {
    for (const hostHeader of [`127.0.0.1:${host.port}`, 'evil.example']) {
      const answer = await raw(`GET //[ HTTP/1.1\r\nHost: ${hostHeader}\r\nConnection: keep-alive\r\n\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer.toLowerCase()).toContain('connection: close');
    }
    const page = await fetch(host.url);
    expect(page.status).toBe(200);
  });

  it('answers 400 to GET //[ on the upgrade handler, with any Host, then serves the page', async () => {
    for (const hostHeader of [`127.0.0.1:${host.port}`, 'evil.example']) {
      const answer = await raw(
        `GET //[ HTTP/1.1\r\nHost: ${hostHeader}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      );
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    }
    expect((await fetch(host.url)).status).toBe(200);
  });

  it('answers a throwing handler with an internal error and one log line, and keeps the socket', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, { headers: { origin: `http://127.0.0.1:${host.port}` } });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const answer = await new Promise<{ id: number; ok: boolean; error: { code: string } }>((resolve) => {
      socket.once('message', (data) => resolve(JSON.parse(data.toString())));
      socket.send(JSON.stringify({ id: 7, channel: 'fleet.read', payload: {} }));
    });
    expect(answer).toEqual({ id: 7, ok: false, error: { code: 'internal', message: 'Internal error.' } });
    expect(logged).toEqual(['pixelfleet: a socket message failed: handler exploded second line']);
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.close();
    expect((await fetch(host.url)).status).toBe(200);
  });

  it('refuses a message id over 200 characters without echoing it or running the request', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, { headers: { origin: `http://127.0.0.1:${host.port}` } });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const answer = await new Promise<string>((resolve) => {
      socket.once('message', (data) => resolve(data.toString()));
      socket.send(JSON.stringify({ id: 'I'.repeat(201), channel: 'fleet.read', payload: {} }));
    });
    expect(JSON.parse(answer)).toEqual({ id: null, ok: false, error: { code: 'invalid_message', message: 'A message id is at most 200 characters.' } });
    expect(logged).toEqual([]);
    socket.close();
  });

  it('parses only origin-form targets of this host', () => {
    expect(requestTarget('/?token=a', 80)?.searchParams.get('token')).toBe('a');
    expect(requestTarget('//[', 80)).toBeNull();
    expect(requestTarget('//evil.example/x', 80)).toBeNull();
    expect(requestTarget('http://127.0.0.1:80/', 80)).toBeNull();
    expect(requestTarget('*', 80)).toBeNull();
    expect(requestTarget('/%E0%A4%A', 80)).toBeNull();
    expect(requestTarget(undefined, 80)).toBeNull();
  });
});
