// Hostile frames on `serve --stdio` (issue 36) against a real app on a temp home: prototype keys, wrong types and a
// peer of another version each get a clear answer, nothing changes, and the stream keeps serving.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTRACT_VERSION } from '../../../shared/contract';
import { createApp } from '../../setup/app';
import { serveStdio } from './stdioServer';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function session() {
  const home = await mkdtemp(join(tmpdir(), 'pixelfleet-stdio-hostile-'));
  const app = await createApp({ home, mode: 'web', live: false, remotes: false, env: { HOME: '/nonexistent-home', CLAUDE_CONFIG_DIR: join(home, 'claude'), CODEX_HOME: join(home, 'codex'), XDG_DATA_HOME: join(home, 'data') }, log: () => {} });
  const input = new PassThrough();
  const output = new PassThrough();
  const logs: string[] = [];
  let text = '';
  output.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const done = serveStdio({ served: app, input, output, appVersion: '9.9.9', log: (line) => logs.push(line) });
  cleanups.push(async () => {
    input.end();
    await done;
    await app.dispose();
    await rm(home, { recursive: true, force: true });
  });
  const frames = () => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  const waitFor = async (count: number) => {
    for (let tries = 0; tries < 2500 && frames().length < count; tries++) await new Promise((resolve) => setTimeout(resolve, 10));
    return frames();
  };
  return { app, input, logs, frames, waitFor, done, send: (value: string) => input.write(`${value}\n`) };
}

describe('serve --stdio under hostile frames', { timeout: 60_000 }, () => {
  it('prototype keys and wrong types are refused with the field named; the persona store is unchanged; it keeps serving', async () => {
    const peer = await session();
    peer.send(JSON.stringify({ hello: { contract: CONTRACT_VERSION, app: 'test' } }));
    peer.send('{"id":1,"channel":"agents.hire","payload":{"__proto__":{"polluted":true},"name":"Ada"}}');
    peer.send('{"id":2,"channel":"agents.hire","payload":{"name":42}}');
    peer.send('{"id":3,"channel":["fleet.read"],"payload":{}}');
    peer.send('[1,2,3]');
    peer.send(JSON.stringify({ id: 4, channel: 'personas.list', payload: {} }));
    const frames = await peer.waitFor(6);
    const byId = (id: unknown) => frames.find((frame) => frame.id === id)!;
    expect(byId(1)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(byId(2)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect((byId(2).error as { message: string }).message).toContain('name');
    expect(byId(3)).toMatchObject({ ok: false });
    expect(frames.filter((frame) => frame.id === null)).toHaveLength(1);
    expect(byId(4)).toEqual({ id: 4, ok: true, value: [] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a peer of another version is refused, and the log line names the peer as the remote (the right way round)', async () => {
    const peer = await session();
    peer.send(JSON.stringify({ hello: { contract: CONTRACT_VERSION + 1, app: '99.0.0' } }));
    expect(await peer.done).toBe('refused');
    const line = peer.logs.find((entry) => entry.includes('refused a peer'))!;
    expect(line).toContain(`the remote speaks contract version ${CONTRACT_VERSION + 1} (Pixelfleet 99.0.0) but this host speaks contract version ${CONTRACT_VERSION} (Pixelfleet 9.9.9)`);
  });
});
