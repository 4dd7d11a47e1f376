import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBridgeFromTransport, type RawTransport } from '../bridge';
import type { Answer } from '../../shared/contract';
import type { DigestEntry, HistoryDigest, HistorySpan, HistoryWindow } from '../../shared/history';
import type { FleetSnapshot, Persona } from '../../shared/schemas';
import { createAppStore, type AppStore } from './createAppStore';
import { shownFleet, shownNowMs } from './historyActions';

const T0 = Date.parse('2026-12-05T08:00:00.000Z');
const HOUR = 3_600_000;

/** A fleet of one persona holding `role`, at cursor `cursor`. */
function fleet(role: string, cursor: number): FleetSnapshot {
  const persona: Persona = { id: 'p1', name: 'Ada', appearance: { body: 0, hair: 0, palette: 0, accessory: 0 }, role, createdAt: 'x', updatedAt: 'x' };
  return {
    cursor,
    personas: [persona],
    seats: [{ id: 'seat-1', harness: 'claude', personaId: 'p1', address: { harness: 'claude', home: '/h', sessionId: 's' }, activity: { state: 'working', certain: true, since: null } }],
    stations: [],
  };
}

/**
 * A small in-memory main with a history: Ada was a builder until T0 + 30 min, a reviewer since. Moments are answered
 * when the test releases them (`release`), so the order of answers is the test's to choose.
 */
function memoryMain(options: { digest?: DigestEntry[]; now?: () => number; window?: boolean } = {}) {
  const now = options.now ?? (() => T0 + HOUR);
  const state = { live: fleet('reviewer', 5), asked: [] as string[], digestAsked: [] as string[], writes: [] as string[], held: [] as (() => void)[] };
  const listeners = new Set<(event: string, payload: unknown) => void>();
  const answer = (value: unknown): Answer<unknown> => ({ ok: true, value });
  const span = (): HistorySpan => ({
    recording: true,
    reason: null,
    from: new Date(T0).toISOString(),
    to: new Date(now()).toISOString(),
    bucketMs: 60_000,
    buckets: [],
    needsYou: [],
    awayMs: 10 * 60_000,
    days: 7,
  });
  const transport: RawTransport = {
    async request(channel, payload) {
      const body = payload as Record<string, unknown>;
      if (channel === 'fleet.read') return answer(state.live);
      if (channel === 'jobs.list') return { ok: false, error: { code: 'unknown', message: 'no board' } };
      if (channel === 'history.span') return answer(span());
      if (channel === 'history.window') return answer(options.window ? recentWindow(now()) : null);
      if (channel === 'history.at') {
        const at = String(body.at);
        state.asked.push(at);
        await new Promise<void>((resolve) => state.held.push(resolve));
        const role = Date.parse(at) < T0 + HOUR / 2 ? 'builder' : 'reviewer';
        return answer({ at, exact: true, snapshot: { ...fleet(role, 0), cursor: 0 } });
      }
      if (channel === 'history.digest') {
        state.digestAsked.push(String(body.since));
        const digest: HistoryDigest = { since: String(body.since), until: new Date(now()).toISOString(), entries: options.digest ?? [], more: 0 };
        return answer(digest);
      }
      if (channel === 'work.dispatches') return answer({ dispatches: [] });
      state.writes.push(channel);
      if (channel === 'personas.setRole') return answer(state.live.personas[0]);
      return { ok: false, error: { code: 'unknown', message: channel } };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {},
  };
  /** Answers every moment asked so far. */
  const release = async () => {
    while (state.held.length > 0) state.held.shift()!();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  const announce = (snapshot: FleetSnapshot) => {
    state.live = snapshot;
    for (const listener of listeners) listener('fleet.changed', { snapshot });
  };
  return { state, release, announce, bridge: createBridgeFromTransport(transport, 'memory') };
}

/**
 * The window of recent history the memory main gives: from T0 + 20 min to now, Ada a builder at its start and a
 * reviewer from T0 + 30 min (the same history its `history.at` answers).
 */
function recentWindow(until: number): HistoryWindow {
  const appearance = { body: 0, hair: 0, palette: 0, accessory: 0 };
  const from = T0 + 20 * 60_000;
  return {
    from,
    until,
    base: {
      at: from,
      seats: [{ id: 'seat-1', persona: 'p1', harness: 'claude', address: { harness: 'claude', home: '/h', sessionId: 's' }, activity: { state: 'working', why: null, certain: true, label: null, since: null }, needsSince: null, lastAt: from }],
      personas: [{ id: 'p1', name: 'Ada', role: 'builder', appearance, createdAt: 'x', updatedAt: from }],
      jobs: [],
    },
    snapshots: [],
    transitions: [{ t: 'persona', at: T0 + HOUR / 2, persona: 'p1', removed: false, name: 'Ada', role: 'reviewer', previousRole: 'builder', roleChanged: true, appearance, createdAt: 'x' }],
    usage: [],
  };
}

let store: AppStore | null = null;
afterEach(() => {
  store?.getState().actions.dispose();
  vi.useRealTimers();
});

const roleShown = (app: AppStore) => shownFleet(app.getState())?.personas[0].role;

describe('the history slice', () => {
  it('shows a past moment while the live fleet keeps changing underneath, and now again on Live', async () => {
    const main = memoryMain();
    store = createAppStore({ bridge: main.bridge, messageMs: 0 });
    await store.getState().actions.load();
    store.getState().actions.toggleTimeline();
    await expect.poll(() => store!.getState().history.span).not.toBeNull();
    store.getState().actions.seek(T0 + 10 * 60_000);
    expect(store.getState().history.viewing?.atMs).toBe(T0 + 10 * 60_000);
    await main.release();
    expect(roleShown(store)).toBe('builder');
    // A live change arrives while the past is shown: the store takes it, the world keeps showing the past.
    main.announce(fleet('tester', 6));
    await expect.poll(() => store!.getState().fleet?.personas[0].role).toBe('tester');
    expect(roleShown(store)).toBe('builder');
    store.getState().actions.goLive();
    expect(store.getState().history.viewing).toBeNull();
    expect(roleShown(store)).toBe('tester');
  });

  it('asks for one moment at a time while the handle is dragged, and shows the latest', async () => {
    const main = memoryMain();
    store = createAppStore({ bridge: main.bridge, messageMs: 0 });
    await store.getState().actions.load();
    await store.getState().actions.refreshSpan();
    const { seek } = store.getState().actions;
    for (let minute = 1; minute <= 40; minute += 1) seek(T0 + minute * 60_000);
    expect(main.state.asked).toHaveLength(1);
    await main.release();
    await main.release();
    expect(main.state.asked.map((at) => (Date.parse(at) - T0) / 60_000)).toEqual([1, 40]);
    expect(store.getState().history.viewing?.moment?.at).toBe(new Date(T0 + 40 * 60_000).toISOString());
    expect(roleShown(store)).toBe('reviewer');
  });

  it('answers a moment inside the recent window at once, without asking main; asks main outside it, and drops its older answer', async () => {
    const main = memoryMain({ window: true });
    store = createAppStore({ bridge: main.bridge, messageMs: 0 });
    await store.getState().actions.load();
    store.getState().actions.toggleTimeline();
    await expect.poll(() => store!.getState().history.held).toEqual({ fromMs: T0 + 20 * 60_000, untilMs: T0 + HOUR });
    const { seek } = store.getState().actions;
    // Outside the window (before it): asked of main, and not answered yet.
    seek(T0 + 10 * 60_000);
    expect(main.state.asked).toHaveLength(1);
    // Inside it: shown in the same turn, each side of the role change.
    seek(T0 + 25 * 60_000);
    expect(store.getState().history.viewing?.moment?.at).toBe(new Date(T0 + 25 * 60_000).toISOString());
    expect(roleShown(store)).toBe('builder');
    seek(T0 + 45 * 60_000);
    expect(store.getState().history.viewing?.moment).toMatchObject({ at: new Date(T0 + 45 * 60_000).toISOString(), exact: true });
    expect(roleShown(store)).toBe('reviewer');
    expect(main.state.asked).toHaveLength(1);
    // Main's answer for the older seek arrives late: the newer moment stays.
    await main.release();
    expect(store.getState().history.viewing?.atMs).toBe(T0 + 45 * 60_000);
    expect(roleShown(store)).toBe('reviewer');
    // Closed, the window goes: a seek asks main again.
    store.getState().actions.toggleTimeline();
    expect(store.getState().history.held).toBeNull();
    store.getState().actions.seek(T0 + 25 * 60_000);
    expect(main.state.asked).toHaveLength(2);
    await main.release();
    expect(roleShown(store)).toBe('builder');
  });

  it('returns to live when the handle reaches now, and drops a moment answered after the return', async () => {
    const main = memoryMain();
    store = createAppStore({ bridge: main.bridge, messageMs: 0 });
    await store.getState().actions.load();
    await store.getState().actions.refreshSpan();
    store.getState().actions.seek(T0 + 5 * 60_000);
    store.getState().actions.seek(Math.max(T0 + 2 * HOUR, Date.now() + HOUR));
    expect(store.getState().history.viewing).toBeNull();
    await main.release();
    expect(store.getState().history.viewing).toBeNull();
    expect(roleShown(store)).toBe('reviewer');
  });

  it('refuses every writing gesture while the past is shown, without asking main, and allows it again live', async () => {
    const main = memoryMain();
    store = createAppStore({ bridge: main.bridge, messageMs: 0 });
    await store.getState().actions.load();
    await store.getState().actions.refreshSpan();
    store.getState().actions.seek(T0 + 5 * 60_000);
    expect(await store.getState().actions.setRole('p1', 'tester')).toBe(false);
    expect(await store.getState().actions.openCandidate('c1')).toBe(false);
    expect(main.state.writes).toEqual([]);
    expect(store.getState().ui.messages.map((message) => message.text).join('\n')).toMatch(/shows the past: return to Live/);
    store.getState().actions.goLive();
    expect(await store.getState().actions.setRole('p1', 'tester')).toBe(true);
    expect(main.state.writes).toEqual(['personas.setRole']);
  });

  it('plays the past at 60× and 600× on a timer, and returns to live at the end', async () => {
    vi.useFakeTimers({ now: T0 + HOUR, toFake: ['setInterval', 'clearInterval', 'Date'] });
    const main = memoryMain({ now: () => Date.now() });
    store = createAppStore({ bridge: main.bridge, messageMs: 0 });
    await store.getState().actions.load();
    await store.getState().actions.refreshSpan();
    store.getState().actions.seek(T0);
    await main.release();
    store.getState().actions.play(60);
    expect(store.getState().history.playing).toBe(60);
    vi.advanceTimersByTime(1000);
    await main.release();
    // A wall second at 60× is a minute of the past.
    expect(store.getState().history.viewing?.atMs).toBe(T0 + 60_000);
    store.getState().actions.play(600);
    vi.advanceTimersByTime(1000);
    await main.release();
    expect(store.getState().history.viewing?.atMs).toBe(T0 + 60_000 + 600_000);
    store.getState().actions.pause();
    vi.advanceTimersByTime(5000);
    expect(store.getState().history.viewing?.atMs).toBe(T0 + 660_000);
    expect(store.getState().history.playing).toBeNull();
    store.getState().actions.play(600);
    // The hour left takes six wall seconds at 600×; the clock runs on meanwhile.
    vi.advanceTimersByTime(10_000);
    await main.release();
    expect(store.getState().history).toMatchObject({ viewing: null, playing: null });
  });

  it('shows the away digest after long enough away, ordered, and nothing after a short absence or an empty one', async () => {
    const entries: DigestEntry[] = [
      { kind: 'turn-done', personaId: 'p1', seatId: 'seat-1', name: 'Ada', role: 'reviewer', at: '2026-12-05T08:40:00.000Z', count: 2 },
      { kind: 'waiting', personaId: 'p1', seatId: 'seat-1', name: 'Ada', role: 'reviewer', at: '2026-12-05T08:20:00.000Z', why: 'question', waitedMs: 2_400_000 },
    ];
    const main = memoryMain({ digest: entries });
    store = createAppStore({ bridge: main.bridge, messageMs: 0 });
    await store.getState().actions.load();
    const { actions } = store.getState();
    actions.windowAway(T0);
    await actions.windowBack(T0 + 9 * 60_000);
    expect(main.state.digestAsked).toEqual([]);
    expect(store.getState().history.away).toBeNull();
    actions.windowAway(T0);
    // A second blur while away keeps the first moment.
    actions.windowAway(T0 + 60_000);
    await actions.windowBack(T0 + 10 * 60_000);
    expect(main.state.digestAsked).toEqual([new Date(T0).toISOString()]);
    expect(store.getState().history.away?.entries.map((entry) => entry.kind)).toEqual(['waiting', 'turn-done']);
    actions.dismissAway();
    expect(store.getState().history.away).toBeNull();
    // Coming back without having left asks nothing.
    await actions.windowBack(T0 + HOUR);
    expect(main.state.digestAsked).toHaveLength(1);
  });

  it('shows no panel when nothing happened, and the test hook simulates an absence', async () => {
    const main = memoryMain({ digest: [] });
    store = createAppStore({ bridge: main.bridge, messageMs: 0 });
    await store.getState().actions.load();
    await store.getState().actions.simulateAway(30);
    expect(main.state.digestAsked).toHaveLength(1);
    expect(Date.now() - Date.parse(main.state.digestAsked[0])).toBeGreaterThanOrEqual(30 * 60_000);
    expect(store.getState().history.away).toBeNull();
  });
});

describe('the clock of the world shown', () => {
  it('is now while live, the moment answered in the past, and the handle before the first answer', () => {
    const live = { history: { timelineOpen: true, span: null, spanError: null, viewing: null, playing: null, away: null, held: null } };
    expect(shownNowMs(live, 123)).toBe(123);
    const asked = { history: { ...live.history, viewing: { atMs: T0, moment: null, error: null } } };
    expect(shownNowMs(asked, 123)).toBe(T0);
    const answered = { history: { ...live.history, viewing: { atMs: T0 + 5, moment: { at: new Date(T0).toISOString(), exact: true, snapshot: fleet('builder', 0) }, error: null } } };
    expect(shownNowMs(answered, 123)).toBe(T0);
  });
});

describe('play pressed while live', () => {
  it('starts an hour back, or where the history kept begins when that is later', async () => {
    vi.useFakeTimers({ now: T0 + 3 * HOUR, toFake: ['setInterval', 'clearInterval', 'Date'] });
    const main = memoryMain({ now: () => Date.now() });
    store = createAppStore({ bridge: main.bridge, messageMs: 0 });
    await store.getState().actions.load();
    await store.getState().actions.refreshSpan();
    store.getState().actions.play(60);
    expect(store.getState().history.viewing?.atMs).toBe(T0 + 2 * HOUR);
    store.getState().actions.goLive();
    vi.setSystemTime(T0 + HOUR / 2);
    await store.getState().actions.refreshSpan();
    store.getState().actions.play(600);
    expect(store.getState().history.viewing?.atMs).toBe(T0);
    await main.release();
  });
});
