import { afterEach, describe, expect, it } from 'vitest';
import { createBridgeFromTransport, RECONNECTED_EVENT, type RawTransport } from '../bridge';
import type { Answer } from '../../shared/contract';
import type { JobBoard } from '../../shared/jobs';
import type { FleetSnapshot, Seat } from '../../shared/schemas';
import { diffFleet, diffJobs } from '../../shared/updates';
import { createAppStore, type AppStore } from './createAppStore';

function seat(id: string, running: number): Seat {
  return { id, harness: 'claude', personaId: `p-${id}`, address: { harness: 'claude', home: '/h', sessionId: id }, activity: { state: 'working', certain: true, since: null }, subagents: { running, recent: [] } };
}

/** A main in memory whose fleet and board the test moves on, announcing each move as main does. */
function memoryMain() {
  let fleet: FleetSnapshot = { cursor: 1, personas: [], seats: [seat('a', 0), seat('b', 0), seat('c', 0)], stations: [] };
  let board: JobBoard = { jobs: [], aliases: {}, unlisted: [], at: '2026-12-01T10:00:00.000Z', cursor: 1, revision: 1 };
  const listeners = new Set<(event: string, payload: unknown) => void>();
  const reads = { fleet: 0, jobs: 0 };
  const transport: RawTransport = {
    async request(channel): Promise<Answer<unknown>> {
      if (channel === 'fleet.read') {
        reads.fleet++;
        return { ok: true, value: fleet };
      }
      if (channel === 'jobs.list') {
        reads.jobs++;
        return { ok: true, value: board };
      }
      return { ok: false, error: { code: 'unknown_channel', message: channel } };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {},
  };
  const send = (event: string, payload: unknown) => listeners.forEach((listener) => listener(event, payload));
  return {
    reads,
    bridge: createBridgeFromTransport(transport, 'memory'),
    /** Moves the fleet on; announces the change unless `silently` (a missed event). */
    move(next: FleetSnapshot, options: { silently?: boolean } = {}) {
      const patch = diffFleet(fleet, next)!;
      fleet = next;
      if (!options.silently) send('fleet.patched', { patch });
    },
    moveBoard(next: JobBoard) {
      const patch = diffJobs(board, next)!;
      board = next;
      send('jobs.patched', { patch });
    },
    /** A restarted host: a fresh fleet whose cursor starts low again, then the transport's reconnect. */
    restart(next: FleetSnapshot) {
      fleet = next;
      send(RECONNECTED_EVENT, {});
    },
    fleet: () => fleet,
  };
}

let store: AppStore | null = null;
afterEach(() => store?.getState().actions.dispose());

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('following the fleet by its changes', () => {
  it('applies a change onto the snapshot it names, keeping the unchanged seats', async () => {
    const main = memoryMain();
    store = createAppStore({ bridge: main.bridge, messageMs: 0 });
    await store.getState().actions.load();
    const before = store.getState().fleet!;
    main.move({ ...before, cursor: 2, seats: [before.seats[0], seat('b', 3), before.seats[2]] });
    const after = store.getState().fleet!;
    expect(after.cursor).toBe(2);
    expect(after.seats[1].subagents?.running).toBe(3);
    expect(after.seats[0]).toBe(before.seats[0]);
    expect(after.seats[2]).toBe(before.seats[2]);
    expect(store.getState().counters).toMatchObject({ fleetReads: 1, fleetPatches: 1 });
  });

  it('heals a missed change with one whole read, then follows changes again', async () => {
    const main = memoryMain();
    store = createAppStore({ bridge: main.bridge, messageMs: 0 });
    await store.getState().actions.load();
    const start = main.fleet();
    main.move({ ...start, cursor: 2, seats: [seat('a', 1), ...start.seats.slice(1)] }, { silently: true });
    main.move({ ...main.fleet(), cursor: 3, seats: [...main.fleet().seats, seat('d', 0)] });
    // The change from cursor 2 cannot apply onto cursor 1: the store reads the whole fleet instead.
    await settle();
    expect(main.reads.fleet).toBe(2);
    expect(store.getState().fleet).toEqual(main.fleet());
    main.move({ ...main.fleet(), cursor: 4, seats: main.fleet().seats.slice(1) });
    expect(store.getState().fleet).toEqual(main.fleet());
    expect(main.reads.fleet).toBe(2);
  });

  it('drops a change it already holds', async () => {
    const main = memoryMain();
    store = createAppStore({ bridge: main.bridge, messageMs: 0 });
    await store.getState().actions.load();
    const held = store.getState().fleet;
    store.getState().actions.receiveFleetPatch({ from: 0, cursor: 1 });
    expect(store.getState().fleet).toBe(held);
    expect(main.reads.fleet).toBe(1);
  });

  it('takes a restarted host\'s fleet even though its cursor counts from the start again', async () => {
    const main = memoryMain();
    store = createAppStore({ bridge: main.bridge, messageMs: 0 });
    await store.getState().actions.load();
    main.move({ ...main.fleet(), cursor: 9 });
    main.restart({ cursor: 1, personas: [], seats: [seat('z', 2)], stations: [] });
    await settle();
    expect(store.getState().fleet?.seats.map((entry) => entry.id)).toEqual(['z']);
    // A late whole snapshot of the old host would still be dropped by cursor only if it were older than this one.
    expect(store.getState().fleet?.cursor).toBe(1);
  });

  it('follows the jobs board by its changes and heals a board change it cannot apply', async () => {
    const main = memoryMain();
    store = createAppStore({ bridge: main.bridge, messageMs: 0 });
    await store.getState().actions.load();
    const job = { alias: 'explore-1', nativeId: 'c1', seatId: 'a', personaId: 'p-a', persona: 'Ada', role: null, harness: 'claude' as const, type: 'Explore', label: 'Scan', kind: 'background' as const, state: 'running' as const, startedAt: '2026-12-01T10:00:00.000Z', replayable: true };
    main.moveBoard({ jobs: [job], aliases: { 'a|c1': 'explore-1' }, unlisted: [], at: '2026-12-01T10:00:01.000Z', cursor: 2, revision: 2 });
    expect(store.getState().jobs?.jobs.map((entry) => entry.alias)).toEqual(['explore-1']);
    expect(store.getState().jobs?.aliases).toEqual({ 'a|c1': 'explore-1' });
    expect(main.reads.jobs).toBe(1);
    store.getState().actions.receiveJobsPatch({ from: 7, revision: 8, at: '2026-12-01T10:00:02.000Z' });
    await settle();
    expect(main.reads.jobs).toBe(2);
    expect(store.getState().jobs?.revision).toBe(2);
  });
});
