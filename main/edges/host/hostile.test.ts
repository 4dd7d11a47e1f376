// Hostile requests on the browser-mode host (issue 36): an encoded path names the page too, so it needs the token;
// the Fetch standard's bad ports are refused before the host starts, and a recorded one is not wished for.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../setup/app';
import { parseStartArgs } from '../../setup/bootstrap';
import { startHost, type Host } from './server';
import { unsafePortReason } from './unsafePorts';

let folder: string;
let host: Host;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'pixelfleet-host-hostile-'));
  await writeFile(join(folder, 'index.html'), '<!doctype html><title>t</title>');
  await writeFile(join(folder, 'other.html'), '<!doctype html><title>o</title>');
  await writeFile(join(folder, 'app.js'), 'void 0;');
  const app = { router: { handle: async () => ({ ok: true, value: null }) }, onEvent: () => () => {} } as unknown as App;
  host = await startHost({ app, rendererDir: folder });
});
afterEach(async () => {
  await host.close();
  await rm(folder, { recursive: true, force: true });
});

describe('the host under hostile paths', () => {
  it.each(['/%69ndex.html', '/index%2ehtml', '/%2e/index.html', '/INDEX.html', '/other.html'])('GET %s without the token is refused', async (path) => {
    const answer = await fetch(`http://127.0.0.1:${host.port}${path}`);
    expect([401, 404]).toContain(answer.status);
    expect(await answer.text()).not.toContain('<title>');
  });

  it('the encoded page with the token, and assets without it, are served', async () => {
    expect((await fetch(`http://127.0.0.1:${host.port}/%69ndex.html?token=${host.token}`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${host.port}/app.js`)).status).toBe(200);
  });
});

describe('ports a browser refuses', () => {
  it.each([6000, 6665, 10080, 22])('--port %i is refused with one clear line', (port) => {
    expect(() => parseStartArgs(['--port', String(port)], { strict: true })).toThrow(/browsers refuse/);
  });
  it('--port 0, 8080 and 6001 are accepted', () => {
    for (const port of [0, 8080, 6001]) expect(parseStartArgs(['--port', String(port)], { strict: true }).port).toBe(port);
    expect(unsafePortReason(6000)).toContain('--port 6000');
  });
});
