// The store follows usage like any other part of the fleet: seat usage and the HUD's usage line arrive whole and by
// changes, unchanged parts keep their objects (so the world and the HUD skip them), and a malformed figure is dropped.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBridgeFromTransport, type RawTransport } from '../bridge';
import type { Answer } from '../../shared/contract';
import type { FleetSnapshot, Seat } from '../../shared/schemas';
import type { FleetUsage, Usage } from '../../shared/usage';
import { diffFleet } from '../../shared/updates';
import { createAppStore, type AppStore } from './createAppStore';

const totals = (input: number) => ({ input, output: 10, cacheRead: 0, cacheWrite: 0 });
const usage = (used: number, input: number): Usage => ({ context: { used, window: 200_000, fill: used / 200_000 }, totals: totals(input), partial: input < 1000, model: 'model-x', cost: { usd: input / 1e6, estimated: true } });
function seat(id: string, seatUsage?: Usage): Seat {
  return { id, harness: 'claude', personaId: `p-${id}`, address: { harness: 'claude', home: '/h', sessionId: id }, activity: { state: 'working', certain: true, since: null }, ...(seatUsage ? { usage: seatUsage } : {}) };
}
const line = (input: number, partial: boolean): FleetUsage => ({
  since: '2026-12-05T00:00:00.000Z',
  today: { totals: totals(input), cost: { usd: 1, estimated: true }, partial, unpriced: 0 },
  open: { totals: totals(input), partial, unpriced: 1 },
});

function memoryMain(start: FleetSnapshot) {
  let fleet = start;
  const listeners = new Set<(event: string, payload: unknown) => void>();
  const transport: RawTransport = {
    async request(channel): Promise<Answer<unknown>> {
      if (channel === 'fleet.read') return { ok: true, value: fleet };
      if (channel === 'jobs.list') return { ok: true, value: { jobs: [], aliases: {}, unlisted: [], at: '2026-12-05T10:00:00.000Z' } };
      return { ok: false, error: { code: 'unknown_channel', message: channel } };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {},
  };
  return {
    bridge: createBridgeFromTransport(transport, 'memory'),
    move(next: FleetSnapshot) {
      const patch = diffFleet(fleet, next)!;
      fleet = next;
      listeners.forEach((listener) => listener('fleet.patched', { patch }));
    },
    send(event: string, payload: unknown) {
      listeners.forEach((listener) => listener(event, payload));
    },
    fleet: () => fleet,
  };
}

let store: AppStore | null = null;
afterEach(() => store?.getState().actions.dispose());

describe('usage in the store', () => {
  it('takes seat usage and the usage line whole, then by changes, keeping what did not change', async () => {
    const main = memoryMain({ cursor: 1, personas: [], seats: [seat('a', usage(100_000, 500)), seat('b', usage(10_000, 5000))], stations: [], usage: line(5500, true) });
    store = createAppStore({ bridge: main.bridge, messageMs: 0 });
    await store.getState().actions.load();
    const before = store.getState().fleet!;
    expect(before.usage?.today.partial).toBe(true);
    expect(before.seats[0].usage?.context?.fill).toBe(0.5);
    // The background pass reaches a's tail: its totals are whole now, and so is the fleet's line.
    main.move({ ...main.fleet(), cursor: 2, seats: [seat('a', usage(100_000, 90_000)), main.fleet().seats[1]], usage: line(95_000, false) });
    const after = store.getState().fleet!;
    expect(after.seats[0].usage).toMatchObject({ partial: false, totals: { input: 90_000 } });
    expect(after.seats[1]).toBe(before.seats[1]);
    expect(after.usage).toMatchObject({ today: { partial: false, totals: { input: 95_000 } } });
    // A change that leaves the usage line alone keeps its very object (the HUD skips it).
    main.move({ ...main.fleet(), cursor: 3, seats: [main.fleet().seats[0], seat('b')] });
    expect(store.getState().fleet!.usage).toBe(after.usage);
    expect(store.getState().fleet!.seats[1].usage).toBeUndefined();
    // No seat with usage any more: the line goes (absent means unknown).
    const { usage: _gone, ...rest } = main.fleet();
    main.move({ ...rest, cursor: 4, seats: [seat('a'), seat('b')] });
    expect(store.getState().fleet!.usage).toBeUndefined();
  });

  it('drops a change whose usage figure is malformed (negative tokens) rather than showing it', async () => {
    const main = memoryMain({ cursor: 1, personas: [], seats: [seat('a', usage(100_000, 500))], stations: [] });
    store = createAppStore({ bridge: main.bridge, messageMs: 0 });
    await store.getState().actions.load();
    const held = store.getState().fleet;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const bad = { ...seat('a'), usage: { ...usage(100_000, 500), totals: totals(-5) } };
    main.send('fleet.patched', { patch: { from: 1, cursor: 2, seats: { set: [bad] } } });
    expect(store.getState().fleet).toBe(held);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});
