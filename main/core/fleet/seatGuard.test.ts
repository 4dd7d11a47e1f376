// Fault isolation at the seat boundary (rules G1–G5 of seatGuard.ts), and the fleet's stream surviving a bad seat.
import { describe, expect, it } from 'vitest';
import { FleetSnapshotSchema, SeatSchema, type Persona, type Seat, type SeatAddress, type SubagentEntry } from '../../../shared/schemas';
import type { Usage } from '../../../shared/usage';
import { createEventStream } from '../../edges/transport/events';
import { createUpdateSender } from '../../edges/transport/updates';
import type { Projection, SeatReader } from '../../sources/readers/port';
import { EMPTY_BASIS } from '../../sources/readers/kit/activityBasis';
import { Changes } from '../../kit/changes';
import { createTally } from '../../kit/usage/tally';
import { FleetService } from './FleetService';
import type { PersonaPort } from './ports';
import { guardFleetParts, guardSeat } from './seatGuard';

const address = (sessionId: string): SeatAddress => ({ harness: 'opencode', home: '/db', sessionId, cwd: null, path: null });
const goodUsage = (used: number): Usage => ({ context: { used, window: 200_000, fill: used / 200_000 }, totals: { input: 1, output: 2, cacheRead: 3, cacheWrite: 4 }, partial: false });
const entry = (over: Partial<SubagentEntry> = {}): SubagentEntry => ({ nativeId: 'c1', label: 'look', kind: null, background: false, state: 'ended', startedAt: '2026-01-01T00:00:00.000Z', replayable: true, ...over });
const seatOf = (over: Partial<Seat> = {}): Seat => ({ id: 'opencode:s1', harness: 'opencode', personaId: 'p1', address: address('s1'), activity: { state: 'idle', certain: true, since: null }, subagents: { running: 0, recent: [] }, ...over });

describe('seat guard', () => {
  it('G1: a seat that passes is the same object', () => {
    const seat = seatOf({ usage: goodUsage(10) });
    expect(guardSeat(seat).seat).toBe(seat);
  });

  it('G3, G4: a context of 10^15 drops the usage only, named in unknownReason; the rest stays', () => {
    const seat = seatOf({ usage: goodUsage(1e15) });
    const { seat: guarded, dropped } = guardSeat(seat);
    expect(SeatSchema.safeParse(guarded).success).toBe(true);
    expect(guarded.usage).toBeUndefined();
    expect(guarded.subagents).toEqual(seat.subagents);
    expect(guarded.activity).toEqual(seat.activity);
    expect(dropped.join()).toContain('usage.context.used');
    expect(guarded.unknownReason).toContain('usage.context.used');
  });

  it('G3: Infinity cost, NaN fill and bad activity are dropped; bad drift is dropped', () => {
    const usage = { ...goodUsage(10), cost: { usd: Infinity, estimated: false } };
    const seat = { ...seatOf({ usage }), activity: { state: 'working', certain: true, since: 7 }, drift: { kinds: 'x' } } as unknown as Seat;
    const { seat: guarded } = guardSeat(seat);
    expect(SeatSchema.safeParse(guarded).success).toBe(true);
    expect(guarded.activity.state).toBe('unknown');
    expect(guarded.usage).toBeUndefined();
    expect(guarded.drift).toBeUndefined();
  });

  it('G2: an entry with bad usage loses its usage; an entry bad otherwise is left out and counted', () => {
    const bad = entry({ nativeId: 'c2', usage: { totals: { input: -1, output: 0, cacheRead: 0, cacheWrite: 0 }, partial: false } });
    const broken = { ...entry({ nativeId: 'c3' }), startedAt: 5 } as unknown as SubagentEntry;
    const seat = seatOf({ subagents: { running: 1, recent: [entry(), bad, broken] } });
    const { seat: guarded, dropped } = guardSeat(seat);
    expect(SeatSchema.safeParse(guarded).success).toBe(true);
    expect(guarded.subagents!.recent.map((item) => item.nativeId)).toEqual(['c1', 'c2']);
    expect(guarded.subagents!.recent[1].usage).toBeUndefined();
    expect(guarded.subagents!.running).toBe(1);
    expect(dropped).toContain('1 subagent entry left out');
  });

  it('G2: a summary whose running count breaks the contract is dropped (unknown)', () => {
    const { seat: guarded } = guardSeat(seatOf({ subagents: { running: -3, recent: [] } }));
    expect(guarded.subagents).toBeUndefined();
    expect(SeatSchema.safeParse(guarded).success).toBe(true);
  });

  it('G5: a seat whose identity fails keeps only the persona store part, shown unknown', () => {
    const seat = { ...seatOf(), id: 12 } as unknown as Seat;
    const { seat: guarded } = guardSeat(seat);
    expect(SeatSchema.safeParse(guarded).success).toBe(true);
    expect(guarded.activity.state).toBe('unknown');
  });

  it('fleet parts: an overflowing usage line and a bad message are dropped apart', () => {
    const sum = { totals: { input: 1, output: 1, cacheRead: 1, cacheWrite: 1 }, partial: false, unpriced: 0, cost: { usd: Infinity, estimated: false } };
    const { body, dropped } = guardFleetParts({ usage: { since: 'x', today: sum, open: sum }, messages: [{ bogus: true }], notices: [{ id: 'n', level: 'info', message: 'ok' }] });
    expect(body.usage).toBeUndefined();
    expect(body.messages).toEqual([]);
    expect(body.notices).toHaveLength(1);
    expect(dropped).toEqual(['usage', '1 of messages']);
  });
});

/** A reader whose projection per session is set by the test (the fleet's boundary is what is under test). */
function scriptedReader(projections: Map<string, () => Projection>): SeatReader {
  return {
    harness: 'opencode',
    discover: async () => [],
    resolve: async (sessionId) => ({ id: `opencode:${sessionId}`, harness: 'opencode', seat: address(sessionId), cwdHint: null, lastActivity: '', size: 0 }),
    project: async (seat) => projections.get(seat.sessionId)!(),
    replay: async () => ({ status: 'unavailable', reason: 'none' }),
    watchPaths: () => [],
    forget() {},
    dispose() {},
  };
}

function personasOf(list: Persona[]): PersonaPort {
  const changes = new Changes('personas');
  return {
    list: async () => list,
    hire: async () => list[0],
    setRole: async () => list[0],
    moveSeat: async () => list[0],
    rename: async () => list[0],
    refresh: async () => false,
    onChange: (listener) => changes.on(listener),
    notices: () => [],
  };
}

const personaOf = (id: string, sessionId: string): Persona => ({ id, name: id, appearance: { body: 0, hair: 0, palette: 0, accessory: 0 }, seat: address(sessionId), createdAt: 'a', updatedAt: 'a' });

describe('the fleet with a hostile seat', () => {
  it('keeps sending: the healthy seat changes reach the stream, the bad seat is named and its usage dropped', async () => {
    let running = 0;
    const projection = (usage: Usage, subagents = 0): Projection => ({ ok: true, subagents: { running: subagents, recent: [] }, read: { bytes: 0, skippedLines: 0 }, lastWriteMs: null, activity: EMPTY_BASIS, usage, usageTally: createTally('recorded') });
    const projections = new Map<string, () => Projection>([
      ['bad', () => projection(goodUsage(1e15))],
      ['good', () => projection(goodUsage(10), running)],
    ]);
    const logs: string[] = [];
    const fleet = new FleetService({ personas: personasOf([personaOf('p1', 'bad'), personaOf('p2', 'good')]), readers: { opencode: scriptedReader(projections) }, log: (line) => logs.push(line) });
    const events = createEventStream((line) => logs.push(line));
    const sent: unknown[] = [];
    events.onEvent((event, payload) => sent.push(payload));
    const updates = createUpdateSender(events.emit);
    fleet.onChange((snapshot) => updates.fleet(snapshot));
    const first = await fleet.read();
    expect(FleetSnapshotSchema.safeParse(first).success).toBe(true);
    expect(sent).toHaveLength(1);
    const bad = first.seats.find((seat) => seat.address.sessionId === 'bad')!;
    expect(bad.usage).toBeUndefined();
    expect(bad.unknownReason).toMatch(/usage\.context\.used/);
    expect(fleet.faults.faults().get(bad.id)).toMatch(/usage\.context\.used/);
    running = 2;
    await fleet.refresh();
    expect(sent).toHaveLength(2);
    expect(logs.filter((line) => line.includes('not sent'))).toEqual([]);
    // The fault is logged once, not on every census.
    expect(logs.filter((line) => line.includes('broke the contract'))).toHaveLength(1);
  });
});

describe('a failing seat is still shown', () => {
  it('a reader that throws or breaks the contract leaves its seat in the snapshot, unknown with a reason, across a restart', async () => {
    const projections = new Map<string, () => Projection>([
      ['throws', () => {
        throw new Error('boom');
      }],
      ['broken', () => ({ ok: true, subagents: { running: Number.NaN, recent: [] }, read: { bytes: 0, skippedLines: 0 }, lastWriteMs: null, activity: EMPTY_BASIS })],
    ]);
    const personas = personasOf([personaOf('p1', 'throws'), personaOf('p2', 'broken')]);
    for (let run = 0; run < 2; run++) {
      // Run 1 is the host after a restart: the same persona store, a new fleet.
      const fleet = new FleetService({ personas, readers: { opencode: scriptedReader(projections) }, log: () => {} });
      const snapshot = await fleet.read();
      expect(FleetSnapshotSchema.safeParse(snapshot).success).toBe(true);
      expect(snapshot.seats.map((seat) => seat.address.sessionId)).toEqual(['throws', 'broken']);
      expect(snapshot.seats[0].unknownReason).toContain('boom');
      expect(snapshot.seats[1].subagents).toBeUndefined();
      expect(snapshot.seats[1].unknownReason).toContain('subagents');
      fleet.dispose();
    }
  });
});
