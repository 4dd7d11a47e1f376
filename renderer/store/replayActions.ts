/**
 * The replay part of the tray: reads `subagents.replay` pages for one expanded entry, refreshes the newest page
 * every 2 s while the child runs (appending only new lines), loads older pages on demand, and stops every read
 * when collapsed. The replay is pinned: it stays open while its entry leaves the seat's lists.
 */
import type { Bridge } from '../bridge';
import type { FleetSnapshot, ReplayPage, SubagentEntry } from '../../shared/schemas';
import type { AppState, Message, ReplayOwner, ReplayState } from './appState';
import { mergeNewest, prependOlder } from './replayLines';

interface ReplayDependencies {
  bridge: Bridge;
  get: () => AppState;
  set: (patch: Partial<AppState> | ((state: AppState) => Partial<AppState>)) => void;
  refreshMs: number;
  pushMessage: (level: Message['level'], text: string) => void;
}

/** The entry of a seat with this native id, among its recent and earlier subagents. */
export function findEntry(snapshot: FleetSnapshot | null, seatId: string, nativeId: string): SubagentEntry | null {
  const seat = snapshot?.seats.find((entry) => entry.id === seatId);
  const summary = seat?.subagents;
  if (!summary) return null;
  return summary.recent.find((entry) => entry.nativeId === nativeId) ?? summary.earlier?.find((entry) => entry.nativeId === nativeId) ?? null;
}

/** The replay with its pinned entry brought up to date from a new snapshot (unchanged when the entry left). */
export function withPinned(replay: ReplayState | null, snapshot: FleetSnapshot): ReplayState | null {
  if (!replay) return replay;
  const entry = findEntry(snapshot, replay.seatId, replay.nativeId);
  if (!entry || JSON.stringify(entry) === JSON.stringify(replay.pinned)) return replay;
  return { ...replay, pinned: entry };
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

  const patch = (own: number, change: Partial<ReplayState> | ((replay: ReplayState) => Partial<ReplayState>)) => {
    if (own !== generation) return;
    set((state) => (state.replay ? { replay: { ...state.replay, ...(typeof change === 'function' ? change(state.replay) : change) } } : {}));
  };

  const readLatest = async (own: number) => {
    const target = get().replay;
    if (!target || own !== generation) return;
    const page = await request(target);
    if (own !== generation) return;
    if (page.status === 'ok') {
      patch(own, (replay) => {
        const first = replay.status !== 'ok';
        const merged = mergeNewest(replay.lines, page.entries);
        // A gap (more new lines than a page) restarts from the newest page, whose cursor then leads to the rest.
        const cursor = first || merged.restarted ? { olderCursor: page.nextCursor } : {};
        const lines = merged.lines === replay.lines && !first ? {} : { lines: merged.lines };
        return { status: 'ok', running: page.running, ...lines, ...cursor };
      });
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
    async openReplay(nativeId: string, seatId?: string, owner: ReplayOwner = 'tray') {
      const state = get();
      const seat = seatId ? state.fleet?.seats.find((entry) => entry.id === seatId) : state.fleet?.seats.find((entry) => entry.personaId === state.ui.tray);
      if (!seat) return;
      stopTimer();
      generation += 1;
      const pinned = findEntry(state.fleet, seat.id, nativeId);
      set({
        replay: { owner, personaId: seat.personaId, seatId: seat.id, nativeId, status: 'loading', lines: [], pinned, olderCursor: null, loadingOlder: false, running: false },
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
        patch(own, (replay) => ({ lines: prependOlder(replay.lines, page.entries), olderCursor: page.nextCursor, loadingOlder: false }));
      } else {
        patch(own, { loadingOlder: false });
        dependencies.pushMessage('error', `Could not load older lines: ${page.reason}`);
      }
    },
    /** Collapses the replay (only when it belongs to `owner`, when one is given): every read stops. */
    collapseReplay(owner?: ReplayOwner) {
      const open = get().replay;
      if (owner && open && open.owner !== owner) return;
      stopTimer();
      generation += 1;
      if (open) set({ replay: null });
    },
  };
}
