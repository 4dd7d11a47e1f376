/**
 * Remotes end to end in-process: a real app whose remotes are reached through a stand-in `ssh` that runs
 * `pixelfleet serve --stdio` locally in another home (main/edges/remote/fixtures/stand-in-ssh.mjs).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTRACT_VERSION, type ResponseOf } from '../../../shared/contract';
import { createApp, type App } from '../../setup/app';
import { main } from '../cli/index';
import { REMOTE_MERGE_MS } from './RemoteHub';
import { addRemote } from './remoteStore';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const STAND_IN = join(ROOT, 'main', 'edges', 'remote', 'fixtures', 'stand-in-ssh.mjs');
const OLD_PEER = join(ROOT, 'main', 'edges', 'remote', 'fixtures', 'old-peer.mjs');
const SCRIPTED_PEER = join(ROOT, 'main', 'edges', 'remote', 'fixtures', 'scripted-peer.mjs');
const PIXELFLEET = `${process.execPath} ${join(ROOT, 'main', 'edges', 'cli', 'pixelfleet.mjs')}`;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function world(remotes: { name: string; command?: string; args?: string[]; down?: boolean; hire?: string }[]) {
  const root = await mkdtemp(join(tmpdir(), 'pixelfleet-remotes-'));
  const home = join(root, 'local');
  const env = { HOME: '/nonexistent-home', PATH: process.env.PATH, CLAUDE_CONFIG_DIR: join(home, 'claude'), CODEX_HOME: join(home, 'codex'), XDG_DATA_HOME: join(home, 'data'), PIXELFLEET_SSH: STAND_IN, PIXELFLEET_STANDIN_ROOT: root };
  for (const remote of remotes) {
    await addRemote(home, { name: remote.name, destination: remote.name, command: remote.command ?? PIXELFLEET });
    if (remote.args) await writeFile(join(root, `${remote.name}.args`), JSON.stringify(remote.args));
    if (remote.down) await writeFile(join(root, `${remote.name}.down`), '');
    if (remote.hire) {
      const code = await main(['agents', 'hire', '--name', remote.hire, '--role', 'builder'], { stdout: () => {}, stderr: () => {}, env: { HOME: '/nonexistent-home', PIXELFLEET_HOME: join(root, remote.name) } });
      expect(code).toBe(0);
    }
  }
  const app: App = await createApp({ home, mode: 'web', live: false, env, log: () => {} });
  cleanups.push(async () => {
    await app.dispose();
    await rm(root, { recursive: true, force: true });
  });
  const call = async <C extends Parameters<App['router']['handle']>[0] & string>(channel: C, payload: unknown) => app.router.handle(channel, payload);
  return { root, home, app, call };
}

describe('remotes', () => {
  it('shows remote seats and personas beside local ones, namespaced and tagged with their host', async () => {
    const { call } = await world([{ name: 'boxa', args: ['--demo', '--agents', '2'] }, { name: 'boxb', hire: 'Ada' }]);
    const answer = await call('fleet.read', { fresh: true });
    expect(answer.ok).toBe(true);
    const snapshot = (answer as { value: ResponseOf<'fleet.read'> }).value;
    const remoteSeats = snapshot.seats.filter((seat) => seat.host === 'boxa');
    expect(remoteSeats.length).toBe(2);
    for (const seat of remoteSeats) {
      expect(seat.id.startsWith('@boxa:')).toBe(true);
      expect(seat.personaId.startsWith('@boxa:')).toBe(true);
    }
    const ada = snapshot.personas.find((persona) => persona.name === 'Ada');
    expect(ada).toMatchObject({ host: 'boxb', role: 'builder' });
    expect(ada!.id.startsWith('@boxb:p_')).toBe(true);
    expect(snapshot.stations.find((station) => station.role === 'builder')!.count).toBeGreaterThanOrEqual(1);
  });

  it('writes a role given to a remote agent into that remote’s persona store, not the local one', async () => {
    const { call, root, home } = await world([{ name: 'boxb', hire: 'Ada' }]);
    const snapshot = (await call('fleet.read', {})) as { ok: true; value: ResponseOf<'fleet.read'> };
    const ada = snapshot.value.personas.find((persona) => persona.name === 'Ada')!;
    const answer = await call('personas.setRole', { personaId: ada.id, role: 'tester' });
    expect(answer).toMatchObject({ ok: true, value: { id: ada.id, host: 'boxb', role: 'tester' } });
    const remoteStore = JSON.parse(await readFile(join(root, 'boxb', 'personas.json'), 'utf8'));
    expect(JSON.stringify(remoteStore)).toContain('"tester"');
    const localStore = await readFile(join(home, 'personas.json'), 'utf8').catch(() => '');
    expect(localStore).not.toContain('Ada');
  });

  it('shows an unreachable remote with the time it went away, and fails its requests at once with `unreachable`', async () => {
    const { call } = await world([{ name: 'boxc', down: true }]);
    const snapshot = (await call('fleet.read', {})) as { ok: true; value: ResponseOf<'fleet.read'> };
    const notice = snapshot.value.notices?.find((entry) => entry.id === 'remote-unreachable:boxc');
    expect(notice?.message).toMatch(/^boxc unreachable since \d\d:\d\d: ssh: connect to host boxc port 22: Connection refused/);
    const answer = await call('personas.setRole', { personaId: '@boxc:p_aaaaaaaaaa', role: 'tester' });
    expect(answer).toMatchObject({ ok: false, error: { code: 'unreachable' } });
    expect((answer as { error: { message: string } }).error.message).toContain('boxc is unreachable since');
  });

  it('refuses a remote of another contract version with a message naming both versions', async () => {
    const { call } = await world([{ name: 'oldbox', command: `${process.execPath} ${OLD_PEER}` }]);
    const snapshot = (await call('fleet.read', {})) as { ok: true; value: ResponseOf<'fleet.read'> };
    const notice = snapshot.value.notices?.find((entry) => entry.id === 'remote-unreachable:oldbox');
    expect(notice?.message).toMatch(/^needs Pixelfleet \d+\.\d+\.\d+\S* on oldbox /);
    expect(notice?.message).toContain('contract version 999');
    expect(notice?.message).toContain(`contract version ${CONTRACT_VERSION} `);
  });

  it('routes a replay of a remote seat to the remote, which resolves it under its own homes', async () => {
    const { call } = await world([{ name: 'boxb', hire: 'Ada' }]);
    await call('fleet.read', {});
    const answer = await call('subagents.replay', { seat: '@boxb:claude:no-such-session', nativeId: 'toolu_x' });
    // The remote answers for its own seats: this one is not there, so the remote says not found.
    expect(answer).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});

describe('a remote cannot reach this machine’s files', () => {
  it('never reads a local file a remote seat names: the replay goes to the remote, which answers for its own machine', async () => {
    const { call } = await world([{ name: 'peer', command: `env PEER_PATH=/etc/hostname ${process.execPath} ${SCRIPTED_PEER} honest` }]);
    const snapshot = (await call('fleet.read', {})) as { ok: true; value: ResponseOf<'fleet.read'> };
    const seat = snapshot.value.seats.find((entry) => entry.host === 'peer')!;
    expect(seat).toMatchObject({ id: '@peer:claude:s1', subagents: { running: 1 } });
    const answer = await call('subagents.replay', { seat: seat.id, nativeId: 'toolu_x' });
    expect(answer).toEqual({ ok: true, value: { status: 'unavailable', reason: 'answered by the remote for claude:s1' } });
  });

  it('marks a remote that answers garbage unreachable, keeping what it had', async () => {
    const { call } = await world([{ name: 'noise', command: `${process.execPath} ${SCRIPTED_PEER} garbage` }]);
    const snapshot = (await call('fleet.read', {})) as { ok: true; value: ResponseOf<'fleet.read'> };
    expect(snapshot.value.notices?.find((entry) => entry.id === 'remote-unreachable:noise')?.message).toContain('answered garbage');
  });
});

describe('the CLI with remotes', () => {
  it('`fleet --json` and `needs-you --json` list remote seats with their host', async () => {
    const { root, home } = await world([{ name: 'boxd' }]);
    const remoteHome = join(root, 'boxd');
    const folder = join(remoteHome, 'claude', 'projects', '-src-app');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(folder, { recursive: true });
    const at = new Date(Date.now() - 60_000).toISOString();
    const line = (value: object) => `${JSON.stringify({ sessionId: 'sess-n', cwd: '/src/app', timestamp: at, ...value })}\n`;
    await writeFile(
      join(folder, 'sess-n.jsonl'),
      line({ type: 'user', message: { role: 'user', content: 'go' } }) +
        line({ type: 'assistant', message: { id: 'm1', role: 'assistant', stop_reason: 'end_turn', content: [{ type: 'text', text: 'done' }] } }) +
        line({ type: 'system', subtype: 'turn_duration', durationMs: 1000 }),
    );
    const remoteEnv = { HOME: '/nonexistent-home', PIXELFLEET_HOME: remoteHome, CLAUDE_CONFIG_DIR: join(remoteHome, 'claude'), CODEX_HOME: join(remoteHome, 'codex'), XDG_DATA_HOME: join(remoteHome, 'data') };
    expect(await main(['seats', 'open', 'claude:sess-n', '--name', 'Nia'], { stdout: () => {}, stderr: () => {}, env: remoteEnv })).toBe(0);

    const env = { HOME: '/nonexistent-home', PATH: process.env.PATH, PIXELFLEET_HOME: home, CLAUDE_CONFIG_DIR: join(home, 'claude'), CODEX_HOME: join(home, 'codex'), XDG_DATA_HOME: join(home, 'data'), PIXELFLEET_SSH: STAND_IN, PIXELFLEET_STANDIN_ROOT: root };
    let out = '';
    expect(await main(['fleet', '--json'], { stdout: (text) => (out += text), stderr: () => {}, env })).toBe(0);
    const fleet = JSON.parse(out) as ResponseOf<'fleet.read'>;
    expect(fleet.seats).toEqual([expect.objectContaining({ id: '@boxd:claude:sess-n', host: 'boxd', harness: 'claude' })]);
    out = '';
    expect(await main(['needs-you', '--json'], { stdout: (text) => (out += text), stderr: () => {}, env })).toBe(0);
    expect(JSON.parse(out)).toEqual([expect.objectContaining({ seatId: '@boxd:claude:sess-n', persona: 'Nia', host: 'boxd', why: 'turn-done' })]);
  });

  it('merges busy remotes\' changes into the world at most once per REMOTE_MERGE_MS, so the page gets one update for a burst', async () => {
    const { app, call } = await world([
      { name: 'busya', args: ['--demo', '--agents', '30'] },
      { name: 'busyb', args: ['--demo', '--agents', '30'] },
    ]);
    await expect.poll(async () => ((await call('fleet.read', {})) as { value: ResponseOf<'fleet.read'> }).value.seats.filter((seat) => seat.host).length, { timeout: 30_000 }).toBe(60);
    // The local fleet is not followed here (live: false): every update published now comes from the remotes.
    const times: number[] = [];
    const off = app.onEvent((event) => {
      if (event === 'fleet.changed' || event === 'fleet.patched') times.push(Date.now());
    });
    await new Promise((resolve) => setTimeout(resolve, 4000));
    off();
    expect(times.length).toBeGreaterThan(4);
    const gaps = times.slice(1).map((time, index) => time - times[index]);
    // Publishing runs a little after its merge (a diff, then the event): a few milliseconds of slack either way.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(REMOTE_MERGE_MS * 0.8);
  });
});
