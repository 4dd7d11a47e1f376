/** `serve --stdio` over in-process pipes, serving a real app on a temp home. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTRACT_VERSION } from '../../../shared/contract';
import { createApp, type App } from '../../setup/app';
import { MAX_FRAME_BYTES } from './bounds';
import { serveStdio } from './stdioServer';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function session() {
  const home = await mkdtemp(join(tmpdir(), 'pixelfleet-stdio-'));
  const app: App = await createApp({ home, mode: 'web', live: false, remotes: false, env: { HOME: '/nonexistent-home', CLAUDE_CONFIG_DIR: join(home, 'claude'), CODEX_HOME: join(home, 'codex'), XDG_DATA_HOME: join(home, 'data') }, log: () => {} });
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const done = serveStdio({ served: app, input, output, appVersion: '9.9.9' });
  cleanups.push(async () => {
    input.end();
    await done;
    await app.dispose();
    await rm(home, { recursive: true, force: true });
  });
  const frames = () => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  const waitFor = async (count: number, until: (list: Record<string, unknown>[]) => boolean = () => true) => {
    // Up to 25 s: under a full suite on two cores the first census and its events can take seconds to arrive.
    for (let tries = 0; tries < 2500 && (frames().length < count || !until(frames())); tries++) await new Promise((resolve) => setTimeout(resolve, 10));
    return frames();
  };
  const send = (value: unknown) => input.write(`${JSON.stringify(value)}\n`);
  return { app, home, input, output, frames, waitFor, send, done };
}

describe('serve --stdio', { timeout: 60_000 }, () => {
  it('answers a hello with its own and then serves the contract', async () => {
    const peer = await session();
    peer.send({ hello: { contract: CONTRACT_VERSION, app: 'test' } });
    peer.send({ id: 1, channel: 'personas.list', payload: {} });
    const frames = await peer.waitFor(2);
    expect(frames[0]).toEqual({ hello: { contract: CONTRACT_VERSION, app: '9.9.9' } });
    expect(frames[1]).toEqual({ id: 1, ok: true, value: [] });
  });

  it('validates requests exactly as the WebSocket does (strict, the field named)', async () => {
    const peer = await session();
    peer.send({ hello: { contract: CONTRACT_VERSION, app: 'test' } });
    peer.send({ id: 'a', channel: 'personas.setRole', payload: { personaId: 'p_x', role: 'builder', extra: 1 } });
    peer.send({ id: 'b', channel: 'no.such', payload: {} });
    const frames = await peer.waitFor(3);
    expect(frames[1]).toMatchObject({ id: 'a', ok: false, error: { code: 'invalid_request' } });
    expect((frames[1].error as { message: string }).message).toContain('extra: unknown field');
    expect(frames[2]).toMatchObject({ id: 'b', ok: false, error: { code: 'unknown_channel' } });
  });

  it('refuses a peer of another contract version, naming both versions, and stops', async () => {
    const peer = await session();
    peer.send({ hello: { contract: CONTRACT_VERSION + 1, app: '99.0.0' } });
    expect(await peer.done).toBe('refused');
    const [hello] = peer.frames();
    expect(hello).toMatchObject({ hello: { contract: CONTRACT_VERSION }, error: { code: 'unreachable' } });
    const message = (hello.error as { message: string }).message;
    expect(message).toContain(`contract version ${CONTRACT_VERSION + 1}`);
    expect(message).toContain(`contract version ${CONTRACT_VERSION} `);
  });

  it('refuses a first frame that is not a hello, and serves nothing', async () => {
    const peer = await session();
    peer.send({ id: 1, channel: 'personas.list', payload: {} });
    expect(await peer.done).toBe('refused');
    expect(peer.frames()).toHaveLength(1);
    expect(peer.frames()[0]).toMatchObject({ error: { code: 'invalid_message' } });
  });

  it('refuses a frame over 16 MiB and garbage with a clear error, and keeps serving', async () => {
    const peer = await session();
    peer.send({ hello: { contract: CONTRACT_VERSION, app: 'test' } });
    peer.input.write(`{"id":2,"channel":"personas.list","payload":{"pad":"${'x'.repeat(MAX_FRAME_BYTES)}"}}\n`);
    peer.input.write('this is not json\n');
    peer.send({ id: 3, channel: 'personas.list', payload: {} });
    const frames = await peer.waitFor(4);
    expect(frames[1]).toMatchObject({ id: null, ok: false, error: { code: 'invalid_message' } });
    expect((frames[1].error as { message: string }).message).toContain(`at most ${MAX_FRAME_BYTES} bytes`);
    expect(frames[2]).toMatchObject({ id: null, ok: false, error: { code: 'invalid_message' } });
    expect(frames[3]).toEqual({ id: 3, ok: true, value: [] });
  });

  it('streams the app’s events after the hello and ends when its input ends', async () => {
    const peer = await session();
    peer.send({ hello: { contract: CONTRACT_VERSION, app: 'test' } });
    peer.send({ id: 1, channel: 'agents.hire', payload: { name: 'Ada', role: 'builder' } });
    peer.send({ id: 2, channel: 'fleet.read', payload: { fresh: true } });
    const frames = await peer.waitFor(3, (list) => [1, 2].every((id) => list.some((frame) => frame.id === id)));
    expect(frames.find((frame) => frame.id === 1)).toMatchObject({ ok: true, value: { name: 'Ada', role: 'builder' } });
    expect(frames.some((frame) => typeof frame.event === 'string' && String(frame.event).startsWith('fleet.'))).toBe(true);
    peer.input.end();
    expect(await peer.done).toBe('eof');
  });
});
