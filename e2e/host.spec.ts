/** Browser mode's front door: the token, the Origin, the contract's refusals, and the CLI sharing the store. */
import { test, expect } from '@playwright/test';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { connect as tcpConnect } from 'node:net';
import WebSocket from 'ws';
import type { FleetSnapshot } from '../shared/schemas';
import { followFleet } from './fleetFollower';
import { freshHome, removeHome, ROOT, startHost, type RunningHost } from './host';

const run = promisify(execFile);

function connect(host: RunningHost, options: { token?: string | null; origin?: string | null }): Promise<WebSocket> {
  const token = options.token === undefined ? host.token : options.token;
  const url = `ws://127.0.0.1:${host.port}/ws${token === null ? '' : `?token=${token}`}`;
  const headers: Record<string, string> = {};
  const origin = options.origin === undefined ? host.origin : options.origin;
  if (origin !== null) headers.origin = origin;
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => reject(new Error(`refused ${response.statusCode}`)));
    socket.once('error', reject);
  });
}

function ask(socket: WebSocket, id: number, channel: string, payload: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString());
      if (message.id !== id) return;
      socket.off('message', onMessage);
      resolve(message);
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, channel, payload }));
  });
}

/** Sends raw bytes over a plain TCP socket and resolves with everything the server wrote before closing. */
function rawRequest(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect(port, '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no close within 10 s; got ${JSON.stringify(answer)}`)));
  });
}

let host: RunningHost;
let home: string;

test.beforeAll(async () => {
  home = await freshHome();
  host = await startHost({ home });
});

test.afterAll(async () => {
  await host?.stop();
  await removeHome(home);
});

test('the page needs the token', async ({ request }) => {
  const without = await request.get(`${host.origin}/`);
  expect(without.status()).toBe(401);
  const wrong = await request.get(`${host.origin}/?token=nope`);
  expect(wrong.status()).toBe(401);
  const right = await request.get(host.url);
  expect(right.status()).toBe(200);
  expect(right.headers()['content-security-policy']).toContain("script-src 'self'");
});

test('a request target the URL parser rejects gets 400 without the token, and the host lives on', async ({ request }) => {
  const hosts = [`127.0.0.1:${host.port}`, 'evil.example'];
  for (const hostHeader of hosts) {
    const plain = await rawRequest(host.port, `GET //[ HTTP/1.1\r\nHost: ${hostHeader}\r\n\r\n`);
    expect(plain).toMatch(/^HTTP\/1\.1 400 /);
    const upgrade = await rawRequest(
      host.port,
      `GET //[ HTTP/1.1\r\nHost: ${hostHeader}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    expect(upgrade).toMatch(/^HTTP\/1\.1 400 /);
  }
  const page = await request.get(host.url);
  expect(page.status()).toBe(200);
});

test('the socket refuses a missing token, a wrong token and a foreign origin', async () => {
  await expect(connect(host, { token: null })).rejects.toThrow('refused 401');
  await expect(connect(host, { token: 'wrong' })).rejects.toThrow('refused 401');
  await expect(connect(host, { origin: 'http://evil.example' })).rejects.toThrow('refused 403');
  await expect(connect(host, { origin: null })).rejects.toThrow('refused 403');
  const socket = await connect(host, {});
  const info = await ask(socket, 1, 'app.info', {});
  expect(info.ok).toBe(true);
  expect(info.value).toMatchObject({ name: 'Pixelfleet', mode: 'web', paths: { home } });
  socket.close();
});

test('a request that breaks the contract is refused with the field named, and changes nothing', async () => {
  const socket = await connect(host, {});
  const before = (await ask(socket, 1, 'personas.list', {})).value as unknown[];
  const unknownKey = await ask(socket, 2, 'agents.hire', { name: 'Ada', sneaky: true });
  expect(unknownKey.ok).toBe(false);
  expect(unknownKey.error!.code).toBe('invalid_request');
  expect(unknownKey.error!.message).toContain('sneaky');
  const wrongType = await ask(socket, 3, 'personas.setRole', { personaId: 42, role: 'builder' });
  expect(wrongType.ok).toBe(false);
  expect(wrongType.error!.message).toContain('personaId');
  const badChannel = await ask(socket, 4, 'fs.readFile', {});
  expect(badChannel.error!.code).toBe('unknown_channel');
  const after = (await ask(socket, 5, 'personas.list', {})).value as unknown[];
  expect(after).toEqual(before);
  socket.close();
});

test('a role set through the CLI appears in browser mode\'s snapshot, sent as a change onto the one before', async () => {
  const cli = (...args: string[]) => run(process.execPath, [join(ROOT, 'main', 'edges', 'cli', 'pixelfleet.mjs'), ...args], { cwd: ROOT, env: { ...process.env, PIXELFLEET_HOME: home } });
  const follower = await followFleet(host);
  try {
    const hired = JSON.parse((await cli('agents', 'hire', '--name', 'Quill', '--json')).stdout);
    await follower.until((snapshot) => snapshot.personas.some((persona) => persona.id === hired.id));
    const before = { ...follower.counts };
    await cli('agents', 'role', hired.id, 'Sound Designer');
    const followed = await follower.until((snapshot) => snapshot.personas.some((persona) => persona.id === hired.id && persona.role === 'Sound Designer'));
    expect(followed.stations.find((station) => station.role === 'Sound Designer')?.count).toBe(1);
    // The role came as a change applied onto the snapshot before, not as a whole snapshot, and needed no healing.
    expect(follower.counts.patches).toBeGreaterThan(before.patches);
    expect(follower.counts.whole).toBe(before.whole);
    expect(follower.counts.healed).toBe(0);
    const read = (await follower.ask('fleet.read', {})).value as FleetSnapshot;
    if (read.cursor === followed.cursor) expect(followed).toEqual(read);
    else expect(read.cursor).toBeGreaterThan(followed.cursor);
  } finally {
    follower.close();
  }
});

test('a host started by a test stops by itself when its parent goes (its stdin closes)', async () => {
  const home = await freshHome();
  const orphan = await startHost({ home });
  try {
    const alive = () => isAlive(orphan.pid);
    expect(alive()).toBe(true);
    orphan.closeStdin();
    await expect.poll(alive, { timeout: 10_000 }).toBe(false);
  } finally {
    await orphan.stop();
    await removeHome(home);
  }
});

test('a host started by a test ends on SIGTERM while its stdin is still open (no kill needed)', async () => {
  const home = await freshHome();
  const host = await startHost({ home });
  try {
    process.kill(host.pid, 'SIGTERM');
    // The helper's own stop sends SIGKILL 5 s after SIGTERM: the host must be gone well before that.
    await expect.poll(() => isAlive(host.pid), { message: 'still running 4 s after SIGTERM', timeout: 4000 }).toBe(false);
  } finally {
    await host.stop();
    await removeHome(home);
  }
});

/** Whether a process is still running (signal 0 only asks). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
