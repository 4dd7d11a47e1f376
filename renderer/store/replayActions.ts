/**
 * The replay part of the tray: reads `subagents.replay` pages for one expanded entry, refreshes the newest page
 * every 2 s while the child runs, loads older pages on demand, and stops every read when collapsed.
 */
import type { Bridge } from '../bridge';
import type { ReplayPage } from '../../shared/schemas';
import type { AppState, Message, ReplayState } from './appState';

interface ReplayDependencies {
  bridge: Bridge;
  get: () => AppState;
  set: (patch: Partial<AppState> | ((state: AppState) => Partial<AppState>)) => void;
  refreshMs: number;
  pushMessage: (level: Message['level'], text: string) => void;
}

/** The replay actions, sharing one refresh timer and one generation counter that drops stale answers. */
export function createReplayActions(dependencies: ReplayDependencies) {
  const { bridge, get, set, refreshMs } = dependencies;
  let generation = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const stopTimer = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };

  const request = async (target: ReplayState, cursor?: string): Promise<ReplayPage | { status: 'error'; reason: string }> => {
    set((state) => ({ counters: { ...state.counters, replayRequests: state.counters.replayRequests + 1 } }));
    try {
      return await bridge.invoke('subagents.replay', { seat: target.seatId, nativeId: target.nativeId, ...(cursor ? { cursor } : {}) });
    } catch (error) {
      return { status: 'error', reason: error instanceof Error ? error.message : String(error) };
    }
  };

  const patch = (own: number, change: Partial<ReplayState>) => {
    if (own !== generation) return;
    set((state) => (state.replay ? { replay: { ...state.replay, ...change } } : {}));
  };

  const readLatest = async (own: number) => {
    const target = get().replay;
    if (!target || own !== generation) return;
    const page = await request(target);
    if (own !== generation) return;
    if (page.status === 'ok') {
      const first = get().replay?.status !== 'ok';
      patch(own, { status: 'ok', latest: page.entries, running: page.running, ...(first ? { olderCursor: page.nextCursor } : {}) });
      if (page.running) schedule(own);
    } else {
      patch(own, { status: page.status, reason: page.reason, running: false });
    }
  };

  const schedule = (own: number) => {
    stopTimer();
    timer = setTimeout(() => {
      timer = null;
      void readLatest(own);
    }, refreshMs);
  };

  return {
    async openReplay(nativeId: string) {
      const state = get();
      const personaId = state.ui.tray;
      const seat = state.fleet?.seats.find((entry) => entry.personaId === personaId);
      if (!personaId || !seat) return;
      stopTimer();
      generation += 1;
      set({
        replay: { personaId, seatId: seat.id, nativeId, status: 'loading', latest: [], older: [], olderCursor: null, loadingOlder: false, running: false },
      });
      await readLatest(generation);
    },
    async loadOlderReplay() {
      const target = get().replay;
      if (!target || target.status !== 'ok' || !target.olderCursor || target.loadingOlder) return;
      const own = generation;
      patch(own, { loadingOlder: true });
      const page = await request(target, target.olderCursor);
      if (own !== generation) return;
      if (page.status === 'ok') {
        patch(own, { older: [...page.entries, ...(get().replay?.older ?? [])], olderCursor: page.nextCursor, loadingOlder: false });
      } else {
        patch(own, { loadingOlder: false });
        dependencies.pushMessage('error', `Could not load older lines: ${page.reason}`);
      }
    },
    collapseReplay() {
      stopTimer();
      generation += 1;
      if (get().replay) set({ replay: null });
    },
  };
}
