/**
 * What a remote sends (issue 42): its notifications and terminal output are relayed; garbage, a flood of frames, or a
 * frame over the bound is cut and shown unreachable with the reason. Each is a real process (fixtures/scripted-peer.mjs) behind the stand-in `ssh`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FleetSnapshot } from '../../../shared/schemas';
import { MAX_REMOTE_FRAMES_PER_SECOND } from './bounds';
import { RemoteHub } from './RemoteHub';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const STAND_IN = join(ROOT, 'main', 'edges', 'remote', 'fixtures', 'stand-in-ssh.mjs');
const SCRIPTED_PEER = join(ROOT, 'main', 'edges', 'remote', 'fixtures', 'scripted-peer.mjs');
const LOCAL: FleetSnapshot = { cursor: 1, seats: [], personas: [], stations: [] };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function noticeOf(mode: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'pixelfleet-bad-remote-'));
  let latest: FleetSnapshot = LOCAL;
  const env = { HOME: '/nonexistent-home', PATH: process.env.PATH, PIXELFLEET_SSH: STAND_IN, PIXELFLEET_STANDIN_ROOT: root };
  const hub = new RemoteHub({ remotes: [{ name: 'bad', destination: 'bad', command: `${process.execPath} ${SCRIPTED_PEER} ${mode}` }], env, appVersion: '0.0.0-test', publishFleet: (snapshot) => (latest = snapshot), publishBoard: () => {}, log: () => {} });
  cleanups.push(async () => {
    hub.dispose();
    await rm(root, { recursive: true, force: true });
  });
  hub.fleet(LOCAL);
  await hub.settled(60_000);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const notice = latest.notices?.find((entry) => entry.id === 'remote-unreachable:bad');
    if (notice) return notice.message;
    if (Date.now() > deadline) throw new Error(`no unreachable notice for ${mode}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

describe('what a remote decides is shown here', () => {
  it('relays its notifications (the title naming the host) and its terminal output, ids namespaced', async () => {
    const root = await mkdtemp(join(tmpdir(), 'pixelfleet-relay-remote-'));
    const relayed: Array<[string, unknown]> = [];
    const env = { HOME: '/nonexistent-home', PATH: process.env.PATH, PIXELFLEET_SSH: STAND_IN, PIXELFLEET_STANDIN_ROOT: root };
    const hub = new RemoteHub({ remotes: [{ name: 'box', destination: 'box', command: `${process.execPath} ${SCRIPTED_PEER} notify` }], env, appVersion: '0.0.0-test', publishFleet: () => {}, publishBoard: () => {}, log: () => {}, relay: (event, payload) => relayed.push([event, payload]) });
    cleanups.push(async () => {
      hub.dispose();
      await rm(root, { recursive: true, force: true });
    });
    hub.fleet(LOCAL);
    await hub.settled(60_000);
    const deadline = Date.now() + 60_000;
    while (relayed.length < 2 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
    expect(relayed).toEqual([
      ['notify.show', { seatId: '@box:claude:s1', personaId: '@box:p_peer', title: 'Peer on box', body: 'asks a question', why: 'question', certain: true, sound: false }],
      ['terminal.output', { streamId: '@box:st1', personaId: '@box:p_peer', seq: 1, data: 'hello from the pane' }],
    ]);
  });
});

describe('a misbehaving remote is cut and shown unreachable with the reason', () => {
  it('garbage', async () => {
    expect(await noticeOf('garbage')).toMatch(/^bad unreachable since \d\d:\d\d: it answered garbage \(a line that is not JSON\)/);
  });

  it('a flood of frames', async () => {
    expect(await noticeOf('flood')).toContain(`it flooded the stream (over ${MAX_REMOTE_FRAMES_PER_SECOND} frames in one second)`);
  });

  it('a frame over the bound', async () => {
    expect(await noticeOf('huge')).toMatch(/it sent a frame of \d+ bytes, over the bound/);
  });
});
