/**
 * A remote's seats are guarded again where they arrive (issue 36): a remote that sends a seat breaking the contract
 * (context 10^15, an Infinity cost, a `since` in year 9999) loses that part of that seat only; its other seats and the
 * local ones keep updating, and the world's notice names the seat. The stream is a scripted peer reached through the
 * stand-in `ssh` (fixtures/stand-in-ssh.mjs), as every remote test reaches its remotes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FleetSnapshotSchema, type FleetSnapshot, type Seat } from '../../../shared/schemas';
import { FleetPatchSchema } from '../../../shared/updates';
import { RemoteHub } from './RemoteHub';
import { REMOTE_CONTRACT_NOTICE_PREFIX, RemoteSeatGuard } from './remoteGuard';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const STAND_IN = join(ROOT, 'main', 'edges', 'remote', 'fixtures', 'stand-in-ssh.mjs');
const SCRIPTED_PEER = join(ROOT, 'main', 'edges', 'remote', 'fixtures', 'scripted-peer.mjs');
const NOW = Date.UTC(2026, 5, 1, 12);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const address = { harness: 'claude' as const, home: '/h', sessionId: 's1', cwd: '/', path: '/h/s1.jsonl' };
const good: Seat = { id: 'claude:s1', harness: 'claude', personaId: 'p1', address, activity: { state: 'working', certain: true, since: new Date(NOW - 60_000).toISOString() }, subagents: { running: 1, recent: [] } };
const bad = (change: Record<string, unknown>) => ({ ...good, id: 'claude:s2', personaId: 'p2', address: { ...address, sessionId: 's2' }, ...change });
const usage = (used: number, usd: number) => ({ context: { used, window: null, fill: null }, totals: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, partial: false, cost: { usd, estimated: false } });

describe('the guard of a remote stream (unit)', () => {
  it('a whole snapshot keeps its healthy seat as it is, drops the bad parts of the other and names the fields', () => {
    const logs: string[] = [];
    const guard = new RemoteSeatGuard('boxa', (line) => logs.push(line), () => NOW);
    const raw = { cursor: 1, seats: [good, bad({ usage: usage(1e15, Infinity), activity: { state: 'idle', certain: true, since: '9999-12-31T00:00:00.000Z' } })], personas: [], stations: [] };
    const received = guard.snapshot(raw) as FleetSnapshot;
    expect(received.seats[0]).toBe(good);
    const guarded = FleetSnapshotSchema.parse(received);
    const odd = guarded.seats[1];
    expect(odd.usage).toBeUndefined();
    expect(odd.activity.since).toBeNull();
    expect(odd.unknownReason).toContain('usage.context.used');
    expect(odd.unknownReason).toContain('activity.since');
    expect(guard.current().get('claude:s2')).toContain('usage.cost.usd');
    const notice = guard.notice()!;
    expect(notice.id).toBe(`${REMOTE_CONTRACT_NOTICE_PREFIX}boxa`);
    expect(notice.message).toContain('@boxa:claude:s2');
    expect(logs.filter((line) => line.includes('@boxa:claude:s2'))).toHaveLength(1);
    // The same snapshot again logs nothing new.
    guard.snapshot(raw);
    expect(logs.filter((line) => line.includes('@boxa:claude:s2'))).toHaveLength(1);
  });

  it('a patch setting a bad seat is guarded, a seat beyond repair is left out and counted, and a removal clears it', () => {
    const guard = new RemoteSeatGuard('boxa', () => {}, () => NOW);
    const payload = guard.event('fleet.patched', { patch: { from: 1, cursor: 2, seats: { set: [good, bad({ usage: usage(1, 1), subagents: { running: -3, recent: [] } }), { id: 'claude:s3', harness: 'nope' }] }, usage: { since: 'x', today: {}, open: {} } } }) as { patch: unknown };
    const patch = FleetPatchSchema.parse(payload.patch);
    expect(patch.seats!.set!.map((seat) => seat.id)).toEqual(['claude:s1', 'claude:s2']);
    expect(patch.seats!.set![1].subagents).toBeUndefined();
    expect(patch.seats!.set![1].unknownReason).toContain('subagents');
    expect(patch.usage).toBeNull();
    expect(guard.notice()!.message).toContain('1 seat could not be shown at all');
    guard.event('fleet.patched', { patch: { from: 2, cursor: 3, seats: { removed: ['claude:s2', 'claude:s3'] } } });
    expect(guard.notice()).toBeNull();
  });

  it('a frame whose shape is garbage passes unchanged, so the strict check still refuses it', () => {
    const guard = new RemoteSeatGuard('boxa', () => {}, () => NOW);
    expect(guard.snapshot('nope')).toBe('nope');
    expect(guard.event('fleet.changed', { snapshot: { seats: 'nope' } })).toEqual({ snapshot: { seats: 'nope' } });
  });
});

async function until<T>(read: () => T | undefined | null | false, what: string, limitMs = 60_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 25));
  }
}

describe('a remote that sends a seat breaking the contract (stand-in ssh)', { timeout: 90_000 }, () => {
  it('that seat loses its bad parts, the remote’s other seat and the local seats keep updating, and the notice names it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'pixelfleet-remote-guard-'));
    let latest: FleetSnapshot | null = null;
    const logs: string[] = [];
    const env = { HOME: '/nonexistent-home', PATH: process.env.PATH, PIXELFLEET_SSH: STAND_IN, PIXELFLEET_STANDIN_ROOT: root };
    const remotes = [{ name: 'odd', destination: 'odd', command: `${process.execPath} ${SCRIPTED_PEER} hostile` }];
    const hub = new RemoteHub({ remotes, env, appVersion: '0.0.0-test', publishFleet: (snapshot) => (latest = snapshot), publishBoard: () => {}, log: (line) => logs.push(line) });
    cleanups.push(async () => {
      hub.dispose();
      await rm(root, { recursive: true, force: true });
    });
    hub.start();
    const local: Seat = { ...good, id: 'claude:local', personaId: 'p_local' };
    hub.fleet({ cursor: 1, seats: [local], personas: [], stations: [] });
    // The remote's patch moves its healthy seat to 2 running subagents (its hostile seat is sent again, still bad).
    const world = await until(() => latest?.seats.find((seat) => seat.id === '@odd:claude:s1' && seat.subagents?.running === 2) && latest, 'the healthy remote seat’s change');
    expect(FleetSnapshotSchema.safeParse(world).success).toBe(true);
    const odd = world.seats.find((seat) => seat.id === '@odd:claude:s2')!;
    expect(odd.usage).toBeUndefined();
    expect(odd.activity.since).toBeNull();
    expect(odd.unknownReason).toContain('usage.context.used');
    expect(odd.unknownReason).toContain('activity.since');
    const notice = world.notices?.find((entry) => entry.id === `${REMOTE_CONTRACT_NOTICE_PREFIX}odd`);
    expect(notice?.message).toContain('@odd:claude:s2');
    expect(world.notices?.some((entry) => entry.id === 'remote-unreachable:odd')).toBe(false);
    expect(logs.some((line) => line.includes('seat @odd:claude:s2 broke the contract') && line.includes('usage.context.used'))).toBe(true);
    // A local change still goes through the same merge.
    const merged = hub.fleet({ cursor: 2, seats: [{ ...local, subagents: { running: 5, recent: [] } }], personas: [], stations: [] });
    expect(merged.seats.find((seat) => seat.id === 'claude:local')?.subagents?.running).toBe(5);
    expect(merged.seats.find((seat) => seat.id === '@odd:claude:s1')?.subagents?.running).toBe(2);
  });
});
