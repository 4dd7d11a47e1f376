/**
 * Remotes joining and leaving a running hub live (issue 42): the hub follows `remotes.json`, a remote added shows its
 * agents, a remote removed leaves, another remote's stream is left alone, and a garbage file keeps the last good list.
 * Remotes are reached through the stand-in `ssh` (fixtures/stand-in-ssh.mjs) running `pixelfleet serve --stdio`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FleetSnapshot } from '../../../shared/schemas';
import { main } from '../cli/index';
import { RemoteHub, REMOTES_FILE_NOTICE } from './RemoteHub';
import { addRemote, readRemotes, remotesFile, removeRemote } from './remoteStore';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const STAND_IN = join(ROOT, 'main', 'edges', 'remote', 'fixtures', 'stand-in-ssh.mjs');
const PIXELFLEET = `${process.execPath} ${join(ROOT, 'main', 'edges', 'cli', 'pixelfleet.mjs')}`;
const LOCAL: FleetSnapshot = { cursor: 1, seats: [], personas: [], stations: [] };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until<T>(read: () => T | undefined | null | false, what: string, limitMs = 60_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

async function runningHub() {
  const root = await mkdtemp(join(tmpdir(), 'pixelfleet-live-remotes-'));
  const home = join(root, 'local');
  for (const [name, agent] of [['boxa', 'Ada'], ['boxb', 'Bo']]) {
    const code = await main(['agents', 'hire', '--name', agent, '--role', 'builder'], { stdout: () => {}, stderr: () => {}, env: { HOME: '/nonexistent-home', PIXELFLEET_HOME: join(root, name) } });
    expect(code).toBe(0);
  }
  await addRemote(home, { name: 'boxa', destination: 'boxa', command: PIXELFLEET });
  const read = await readRemotes(home);
  if (!read.ok) throw new Error(read.reason);
  let latest: FleetSnapshot = LOCAL;
  const log: string[] = [];
  const env = { HOME: '/nonexistent-home', PATH: process.env.PATH, PIXELFLEET_SSH: STAND_IN, PIXELFLEET_STANDIN_ROOT: root };
  const hub = new RemoteHub({ remotes: read.remotes, home, env, appVersion: '0.0.0-test', publishFleet: (snapshot) => (latest = snapshot), publishBoard: () => {}, log: (line) => log.push(line) });
  hub.start();
  hub.fleet(LOCAL);
  cleanups.push(async () => {
    hub.dispose();
    await rm(root, { recursive: true, force: true });
  });
  const names = () => latest.personas.map((persona) => `${persona.host}:${persona.name}`).sort();
  return { root, home, hub, names, log, snapshot: () => latest };
}

describe('remotes follow remotes.json while the host runs', () => {
  it('a remote added joins and a remote removed leaves, without touching the other remote’s link', async () => {
    const { home, hub, names } = await runningHub();
    await until(() => names().includes('boxa:Ada'), 'boxa to join');
    const boxaLink = hub.links.get('boxa');
    await addRemote(home, { name: 'boxb', destination: 'boxb', command: PIXELFLEET });
    await until(() => names().includes('boxb:Bo'), 'boxb to join live');
    expect(hub.links.get('boxa')).toBe(boxaLink);
    expect(await removeRemote(home, 'boxb')).toBe(true);
    await until(() => !names().includes('boxb:Bo'), 'boxb to leave live');
    expect(names()).toEqual(['boxa:Ada']);
    expect(hub.links.get('boxa')).toBe(boxaLink);
    expect(hub.links.has('boxb')).toBe(false);
  });

  it('a hand-edited garbage file is reported in the world and the last good list is kept', async () => {
    const { home, names, snapshot, log } = await runningHub();
    await until(() => names().includes('boxa:Ada'), 'boxa to join');
    await writeFile(remotesFile(home), '{ "version": 1, "remotes": [ oops');
    const notice = await until(() => snapshot().notices?.find((entry) => entry.id === REMOTES_FILE_NOTICE), 'the garbage to be reported');
    expect(notice.message).toContain('is not JSON');
    expect(notice.message).toContain('last good list of remotes is kept');
    expect(log.some((line) => line.includes('is not JSON'))).toBe(true);
    expect(names()).toEqual(['boxa:Ada']);
    // Fixed by hand: the notice goes and the list is followed again.
    await writeFile(remotesFile(home), JSON.stringify({ version: 1, remotes: [] }));
    await until(() => names().length === 0 && !snapshot().notices?.some((entry) => entry.id === REMOTES_FILE_NOTICE), 'the fixed file to be followed');
  });
});
