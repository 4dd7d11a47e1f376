import { afterEach, describe, expect, it } from 'vitest';
import { createBridgeFromTransport, type RawTransport } from '../bridge';
import { parseRole } from '../../shared/roles';
import type { Answer } from '../../shared/contract';
import type { Job, JobBoard } from '../../shared/jobs';
import type { FleetSnapshot, Persona } from '../../shared/schemas';
import { createAppStore, roleChangeText, type AppStore } from './createAppStore';

/** A board with one running background job of seat-1, derived from fleet cursor `cursor`. */
function board(cursor: number): JobBoard {
  const job: Job = { alias: 'explore-1', nativeId: 'child-1', seatId: 'seat-1', personaId: 'p1', persona: 'Ada', role: 'builder', harness: 'claude', type: 'Explore', label: 'Scan', kind: 'background', state: 'running', startedAt: '2026-05-01T10:00:00.000Z', replayable: true };
  return { jobs: [job], aliases: { 'seat-1|child-1': 'explore-1' }, unlisted: [], at: '2026-05-01T10:05:00.000Z', cursor };
}

/** A small in-memory main: personas with roles, the role rule, and a child that runs until told to stop. */
function memoryMain() {
  const persona: Persona = { id: 'p1', name: 'Ada', appearance: { body: 0, hair: 0, palette: 0, accessory: 0 }, role: 'builder', createdAt: 'x', updatedAt: 'x' };
  const state = { persona, cursor: 1, childRunning: true, replayCalls: [] as (string | undefined)[], childLines: [] as string[] };
  const snapshot = (): FleetSnapshot => ({
    cursor: state.cursor,
    personas: [state.persona],
    seats: [{ id: 'seat-1', harness: 'claude', personaId: 'p1', address: { harness: 'claude', home: '/h', sessionId: 's' }, activity: { state: 'working', certain: true, since: null }, subagents: { running: 1, recent: [] } }],
    stations: [],
  });
  const answer = (value: unknown): Answer<unknown> => ({ ok: true, value });
  const listeners = new Set<(event: string, payload: unknown) => void>();
  const transport: RawTransport = {
    async request(channel, payload) {
      const body = payload as Record<string, string | null | undefined>;
      if (channel === 'fleet.read') return answer(snapshot());
      if (channel === 'personas.setRole') {
        if (body.role === null) {
          const { role: _role, ...rest } = state.persona;
          state.persona = rest;
        } else {
          const parsed = parseRole(body.role!);
          if (!parsed.ok) return { ok: false, error: { code: 'invalid_role', message: parsed.reason } };
          state.persona = { ...state.persona, role: parsed.role };
        }
        state.cursor += 1;
        // Like main: the change is announced (a census) before the request is answered.
        for (const listener of listeners) listener('fleet.changed', { snapshot: snapshot() });
        return answer(state.persona);
      }
      if (channel === 'jobs.list') return answer(board(state.cursor));
      if (channel === 'subagents.replay') {
        state.replayCalls.push(body.cursor ?? undefined);
        if (body.cursor) return answer({ status: 'ok', running: state.childRunning, entries: [{ at: null, role: 'user', text: 'older line' }], nextCursor: null });
        // The child grows by one line per read; the newest page is its last three lines.
        state.childLines.push(`line ${state.childLines.length + 1}`);
        const entries = state.childLines.slice(-3).map((text) => ({ at: null, role: 'assistant', text }));
        return answer({ status: 'ok', running: state.childRunning, entries, nextCursor: 'c1' });
      }
      return { ok: false, error: { code: 'unknown', message: channel } };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {},
  };
  return { state, bridge: createBridgeFromTransport(transport, 'memory') };
}

let store: AppStore | null = null;
afterEach(() => store?.getState().actions.dispose());

describe('createAppStore', () => {
  it('shows a role change at once and keeps it when main accepts it', async () => {
    const main = memoryMain();
    store = createAppStore({ bridge: main.bridge, messageMs: 0 });
    await store.getState().actions.load();
    const saving = store.getState().actions.setRole('p1', 'tester');
    expect(store.getState().ui.pending.p1).toEqual({ role: 'tester', previous: 'builder' });
    expect(await saving).toBe(true);
    expect(store.getState().ui.pending).toEqual({});
    expect(store.getState().fleet?.personas[0].role).toBe('tester');
    expect(store.getState().ui.toast?.text).toBe('Ada is now a Tester');
  });

  it('confirms a role change in words, with the right article, and the way back to the lobby', () => {
    expect(roleChangeText('Bramble', 'reviewer')).toBe('Bramble is now a Reviewer');
    expect(roleChangeText('Pip', 'Illustrator')).toBe('Pip is now an Illustrator');
    expect(roleChangeText('Pip', null)).toBe('Pip is back in the lobby');
  });

  it('rolls a refused role back and tells the owner why', async () => {
    const main = memoryMain();
    store = createAppStore({ bridge: main.bridge, messageMs: 0 });
    await store.getState().actions.load();
    expect(await store.getState().actions.setRole('p1', '#bad')).toBe(false);
    expect(store.getState().ui.pending).toEqual({});
    expect(store.getState().fleet?.personas[0].role).toBe('builder');
    expect(store.getState().ui.messages[0].text).toContain((parseRole('#bad') as { reason: string }).reason);
    expect(store.getState().ui.toast).toBeNull();
  });

  it('ignores a snapshot older than the one shown', async () => {
    const main = memoryMain();
    store = createAppStore({ bridge: main.bridge, messageMs: 0 });
    await store.getState().actions.load();
    const shown = store.getState().fleet!;
    store.getState().actions.receiveSnapshot({ ...shown, cursor: 0, personas: [] });
    expect(store.getState().fleet).toBe(shown);
  });

  it('follows a running replay, loads older pages, and stops reading when collapsed', async () => {
    const main = memoryMain();
    store = createAppStore({ bridge: main.bridge, replayRefreshMs: 20, messageMs: 0 });
    await store.getState().actions.load();
    store.getState().actions.openTray('p1');
    await store.getState().actions.openReplay('child-1');
    expect(store.getState().replay).toMatchObject({ status: 'ok', running: true, olderCursor: 'c1' });
    await expect.poll(() => main.state.replayCalls.length).toBeGreaterThanOrEqual(3);
    await store.getState().actions.loadOlderReplay();
    const texts = store.getState().replay!.lines.map((line) => line.entry.text);
    // Older lines on top, then every line the child wrote, each once, in order.
    expect(texts[0]).toBe('older line');
    expect(texts.slice(1)).toEqual(main.state.childLines.slice(0, texts.length - 1));
    const keys = store.getState().replay!.lines.map((line) => line.key);
    expect(keys).toEqual([...keys].sort((a, b) => a - b));
    expect(main.state.replayCalls).toContain('c1');
    store.getState().actions.collapseReplay();
    const calls = main.state.replayCalls.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(main.state.replayCalls.length).toBe(calls);
    expect(store.getState().replay).toBeNull();
    expect(store.getState().counters.replayRequests).toBe(calls);
  });

  it('jobs board: keeps the newest board, runs its own replay beside the tray, and stops reading when closed', async () => {
    const main = memoryMain();
    store = createAppStore({ bridge: main.bridge, replayRefreshMs: 20, messageMs: 0 });
    await store.getState().actions.load();
    await store.getState().actions.openJobs();
    const shown = store.getState().jobs!;
    expect(shown.jobs.map((job) => job.alias)).toEqual(['explore-1']);
    // Main's clock is read from the board, so elapsed times tick on it (here: a board from the past).
    expect(store.getState().jobsClockOffsetMs).toBeLessThan(0);
    store.getState().actions.receiveJobs({ ...board(0), jobs: [] });
    expect(store.getState().jobs).toBe(shown);

    store.getState().actions.selectJob('seat-1|child-1');
    expect(store.getState().ui.jobSelected).toBe('seat-1|child-1');
    await expect.poll(() => store!.getState().replay?.status).toBe('ok');
    expect(store.getState().replay).toMatchObject({ owner: 'board', seatId: 'seat-1', nativeId: 'child-1' });
    // The tray opening and closing leaves the board's replay alone.
    store.getState().actions.openTray('p1');
    store.getState().actions.closeTray();
    expect(store.getState().replay?.owner).toBe('board');
    // The same key again collapses it; closing the board collapses and stops every read.
    store.getState().actions.selectJob('seat-1|child-1');
    expect([store.getState().ui.jobSelected, store.getState().replay]).toEqual([null, null]);
    store.getState().actions.selectJob('seat-1|child-1');
    await expect.poll(() => store!.getState().replay?.status).toBe('ok');
    store.getState().actions.closeJobs();
    expect(store.getState().replay).toBeNull();
    expect(store.getState().ui).toMatchObject({ jobsOpen: false, jobSelected: null });
    const calls = main.state.replayCalls.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(main.state.replayCalls.length).toBe(calls);
  });
});
