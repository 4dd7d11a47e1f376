// Every channel that takes input from outside (issue 36): the WebSocket, settings.json, web-token.json, the persona
// store and the history store each get garbage, huge input, wrong types, prototype keys and a corrupt or read-only
// SQLite file — a clear message, nothing lost, and the host alive (it still answers a whole read).
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startHost } from '../edges/host/server';
import { loadToken, TOKEN_FILE, TOKEN_FILE_MAX_BYTES } from '../edges/host/tokenFile';
import { createApp, type App } from './app';
import { parseSettings } from './settings/loadSettings';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'pixelfleet-hostile-channel-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  return home;
}

async function appOn(home: string, logs: string[] = []): Promise<App> {
  const app = await createApp({ home, mode: 'web', live: false, remotes: true, env: { HOME: '/nonexistent-home', CLAUDE_CONFIG_DIR: join(home, 'claude'), CODEX_HOME: join(home, 'codex'), XDG_DATA_HOME: join(home, 'data') }, log: (line) => logs.push(line) });
  cleanups.push(() => app.dispose());
  return app;
}

async function wholeRead(app: App) {
  const answer = await app.router.handle('fleet.read', { fresh: true });
  expect(answer.ok).toBe(true);
  return (answer as { ok: true; value: { notices?: { id: string; message: string }[]; personas: unknown[] } }).value;
}

describe('the WebSocket', () => {
  it('garbage, a huge frame, wrong types and prototype keys each get a clear error; the socket and host keep serving', async () => {
    const home = tempHome();
    const app = await appOn(home);
    const rendererDir = tempHome();
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html>');
    const host = await startHost({ app, rendererDir });
    cleanups.push(() => host.close());
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, { headers: { origin: `http://127.0.0.1:${host.port}` } });
    await new Promise((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject)));
    const answers: Record<string, unknown>[] = [];
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as Record<string, unknown>;
      if (!('event' in message)) answers.push(message);
    });
    socket.send('not json at all');
    socket.send('[1,2,3]');
    socket.send(JSON.stringify({ id: 1, channel: 'agents.hire', payload: { name: ['Ada'] } }));
    socket.send('{"id":2,"channel":"agents.hire","payload":{"__proto__":{"admin":true},"name":"Ada"}}');
    socket.send(JSON.stringify({ id: 3, channel: 'personas.setRole', payload: { personaId: 'x'.repeat(100_000), role: 'builder' } }));
    socket.send(JSON.stringify({ id: 4, channel: 'personas.list', payload: {} }));
    for (let tries = 0; tries < 1000 && answers.length < 6; tries++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(answers.filter((answer) => answer.id === null && answer.ok === false)).toHaveLength(2);
    for (const id of [1, 2, 3]) expect(answers.find((answer) => answer.id === id)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(answers.find((answer) => answer.id === 4)).toEqual({ id: 4, ok: true, value: [] });
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    socket.close();
  });
});

describe('settings.json', () => {
  it.each([
    ['garbage', 'this is not json'],
    ['wrong types', JSON.stringify({ refreshSeconds: 'soon', notify: 7, autoOpen: {} })],
    ['prototype keys', '{"__proto__":{"refreshSeconds":1},"constructor":{"prototype":{"x":1}}}'],
    ['huge', JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) })],
  ])('%s: the defaults hold, with a problem the owner can read', (_name, text) => {
    const loaded = parseSettings(text, '/home/owner/.pixelfleet/settings.json', '/home/owner');
    expect(loaded.settings).toBeDefined();
    expect(({} as Record<string, unknown>).refreshSeconds).toBeUndefined();
    // A prototype key is a plain unknown key: nothing is taken from it (and unknown keys are ignored as usual).
    if (_name === 'prototype keys') expect((loaded.settings as { refreshSeconds?: number }).refreshSeconds).not.toBe(1);
    else if (_name !== 'huge') expect(loaded.problems.length).toBeGreaterThan(0);
    for (const problem of loaded.problems) expect(problem).not.toContain('\n    at ');
  });
});

describe('web-token.json', () => {
  it.each([
    ['garbage', 'garbage'],
    ['wrong types', JSON.stringify({ token: 42, port: 'eighty' })],
    ['prototype keys', '{"__proto__":{"token":"x"},"token":"short"}'],
    ['huge', JSON.stringify({ token: 'y'.repeat(TOKEN_FILE_MAX_BYTES * 4), port: 1 })],
  ])('%s: a new token is made, with one log line saying why', async (_name, text) => {
    const home = tempHome();
    writeFileSync(join(home, TOKEN_FILE), text, { mode: 0o600 });
    const logs: string[] = [];
    const loaded = await loadToken(home, { rotate: false, log: (line) => logs.push(line) });
    expect(loaded.fresh).toBe(true);
    expect(loaded.token.length).toBeGreaterThanOrEqual(32);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain(TOKEN_FILE);
  });
});

describe('the persona store', () => {
  it.each([
    ['garbage', 'garbage'],
    ['prototype keys', '{"__proto__":{"personas":[]},"schemaVersion":2,"revision":1,"personas":[{"__proto__":{"id":"p"}}]}'],
    ['huge', JSON.stringify({ schemaVersion: 2, revision: 1, personas: [], pad: 'z'.repeat(3 * 1024 * 1024) })],
  ])('%s: the file is moved aside or read, never overwritten silently; the host answers a whole read', async (_name, text) => {
    const home = tempHome();
    writeFileSync(join(home, 'personas.json'), text);
    const app = await appOn(home);
    const fleet = await wholeRead(app);
    const kept = readdirSync(home).filter((name) => name.startsWith('personas.json'));
    // Nothing lost: the original bytes are still on disk (in place or moved aside), and the owner is told when moved.
    expect(kept.some((name) => readFileSync(join(home, name), 'utf8') === text)).toBe(true);
    if (!existsSync(join(home, 'personas.json')) || readFileSync(join(home, 'personas.json'), 'utf8') !== text) expect(fleet.notices?.length ?? 0).toBeGreaterThan(0);
  });
});

describe('the history store and remotes.json', () => {
  it('a corrupt history.sqlite is moved aside and a broken remotes.json is a notice; the host answers', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'history.sqlite'), 'SQLite format 3\u0000 but then garbage'.repeat(100));
    writeFileSync(join(home, 'remotes.json'), '{"version":1,"remotes":[{"name":"__proto__"}]}');
    const logs: string[] = [];
    const app = await appOn(home, logs);
    const fleet = await wholeRead(app);
    expect(readdirSync(home).some((name) => name.startsWith('history.sqlite') && name !== 'history.sqlite')).toBe(true);
    expect(fleet.notices?.find((notice) => notice.id === 'remotes-file')?.message).toContain('remotes.json');
  });

  it('a read-only history.sqlite stops recording with one notice; the host answers', async () => {
    if (process.getuid?.() === 0) {
      console.log('skipped: running as root, a file mode cannot make history.sqlite read-only here');
      return;
    }
    const home = tempHome();
    const first = await appOn(home);
    await wholeRead(first);
    await first.dispose();
    chmodSync(join(home, 'history.sqlite'), 0o400);
    cleanups.push(() => chmodSync(join(home, 'history.sqlite'), 0o600));
    const app = await appOn(home);
    expect((await wholeRead(app)).personas).toEqual([]);
  });
});
