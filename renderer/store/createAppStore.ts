/** The renderer's one vanilla zustand store; actions are its only writers and the only callers of the bridge. */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Bridge } from '../bridge';
import { jobRowKey } from '../../shared/jobs';
import type { AppActions, AppState, Message } from './appState';
import { createLaunchActions } from './launchActions';
import { createDispatchActions } from './dispatchActions';
import { createProfileActions } from './profileActions';
import { createReplayActions } from './replayActions';
import { createUpdateActions } from './updateActions';
import { createHistoryActions, INITIAL_HISTORY, inPast } from './historyActions';
import { guardPast } from '../history/pastGuard';
import { NO_ROLE, roleText } from '../../shared/usagePhrases';

/** Options for a store; tests pass a short refresh interval. */
export interface AppStoreOptions {
  bridge: Bridge;
  /** Milliseconds between replay refreshes while the child runs (the tray rule: every 2 s). */
  replayRefreshMs?: number;
  /** Milliseconds a message stays before it dismisses itself (0 keeps it). */
  messageMs?: number;
}

/** The store type the world and panels subscribe to. */
export type AppStore = StoreApi<AppState>;

/** A failure as a sentence for the owner. */
export function describeFailure(error: unknown): string {
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') return error.message;
  return String(error);
}

/** The confirmation of a saved role change: "Bramble is now a Reviewer", "Pip is back in the lobby". */
export function roleChangeText(name: string, role: string | null): string {
  if (role === null) return `${name} is back in the lobby`;
  const article = /^[aeiou]/i.test(role) ? 'an' : 'a';
  return `${name} is now ${article} ${roleText(role)}`;
}

/** Creates a store bound to a bridge; call `actions.load()` to read the fleet and follow its changes. */
export function createAppStore(options: AppStoreOptions): AppStore {
  // While the world shows the past, no gesture writes: the store's bridge refuses the writing channels.
  const bridge = guardPast(options.bridge, () => inPast(store.getState()));
  const messageMs = options.messageMs ?? 6000;
  let nextMessageId = 1;
  let unsubscribe: (() => void) | null = null;
  const timers = new Set<ReturnType<typeof setTimeout>>();

  const store = createStore<AppState>()((set, get) => {
    const ui = (patch: Partial<AppState['ui']>) => set((state) => ({ ui: { ...state.ui, ...patch } }));
    const pushMessage = (level: Message['level'], text: string) => {
      const id = nextMessageId++;
      set((state) => ({ ui: { ...state.ui, messages: [...state.ui.messages, { id, level, text }].slice(-5) } }));
      if (messageMs > 0) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          get().actions.dismissMessage(id);
        }, messageMs);
        timers.add(timer);
      }
    };
    const replay = createReplayActions({ bridge, get, set, refreshMs: options.replayRefreshMs ?? 2000, pushMessage });

    const launch = createLaunchActions({ bridge, get, set, pushMessage, describe: describeFailure });

    const dispatch = createDispatchActions({ bridge, get, set, pushMessage, describe: describeFailure });

    const profile = createProfileActions({ bridge, get, set, describe: describeFailure });

    const updates = createUpdateActions({
      bridge,
      get,
      set,
      onFleetRead: (error) => ui({ error: error === null ? null : `Could not read the fleet: ${describeFailure(error)}` }),
    });

    const { dispose: disposeHistory, ...history } = createHistoryActions({ bridge, get, set, describe: describeFailure });

    const actions: AppActions = {
      ...launch,
      ...dispatch,
      ...profile,
      ...updates,
      ...history,
      async load() {
        if (!unsubscribe) {
          const offs = [
            bridge.on('fleet.changed', ({ snapshot }) => get().actions.receiveSnapshot(snapshot)),
            bridge.on('fleet.patched', ({ patch }) => get().actions.receiveFleetPatch(patch)),
            bridge.on('jobs.changed', ({ board }) => get().actions.receiveJobs(board)),
            bridge.on('jobs.patched', ({ patch }) => get().actions.receiveJobsPatch(patch)),
            bridge.on('work.dispatched', ({ dispatches }) => get().actions.receiveDispatches(dispatches)),
            bridge.onReconnected(() => void get().actions.loadDispatches()),
            // A restarted host counts its cursors from the start again: what it holds now replaces what was held.
            bridge.onReconnected(() => void get().actions.resync({ restarted: true })),
          ];
          unsubscribe = () => offs.forEach((off) => off());
        }
        void get().actions.loadDispatches();
        await get().actions.resync();
      },
      async setRole(personaId, role) {
        const persona = get().fleet?.personas.find((entry) => entry.id === personaId);
        if (!persona) {
          pushMessage('error', 'That agent is no longer in the fleet.');
          return false;
        }
        const previous = get().ui.pending[personaId]?.previous ?? persona.role ?? null;
        set((state) => ({ ui: { ...state.ui, pending: { ...state.ui.pending, [personaId]: { role, previous } } } }));
        const settle = () => {
          const { [personaId]: _settled, ...rest } = get().ui.pending;
          return rest;
        };
        try {
          // The service announces the change before it answers, so the snapshot with the new role is already here;
          // the answer only settles the pending state (and names the agent for the confirmation).
          const saved = await bridge.invoke('personas.setRole', { personaId, role });
          ui({ pending: settle(), toast: { id: nextMessageId++, text: roleChangeText(saved.name, role) } });
          if (get().roles) void get().actions.loadRoles();
          return true;
        } catch (error) {
          ui({ pending: settle() });
          pushMessage('error', `${persona.name} keeps ${previous ? `the role ${roleText(previous)}` : NO_ROLE}: ${describeFailure(error)}`);
          return false;
        }
      },
      focus(personaId) {
        ui({ focused: personaId });
      },
      openTray(personaId) {
        if (get().ui.tray !== personaId) replay.collapseReplay('tray');
        ui({ tray: personaId, focused: personaId });
      },
      closeTray() {
        replay.collapseReplay('tray');
        ui({ tray: null });
      },
      openReplay: replay.openReplay,
      loadOlderReplay: replay.loadOlderReplay,
      collapseReplay: () => replay.collapseReplay(),
      async openPicker(personaId) {
        ui({ picker: personaId, focused: personaId });
        await get().actions.loadRoles();
      },
      closePicker() {
        ui({ picker: null });
      },
      async loadRoles() {
        try {
          set({ roles: await bridge.invoke('roles.list', {}) });
        } catch (error) {
          pushMessage('error', `Could not read the roles: ${describeFailure(error)}`);
        }
      },
      openBacklog(roleKey) {
        ui({ backlog: roleKey });
        // Opening a board asks the sources for fresh items; they arrive with the next snapshot.
        if (roleKey !== null) {
          bridge.invoke('work.refresh', {}).catch((error: unknown) => pushMessage('error', `Could not refresh the backlog: ${describeFailure(error)}`));
        }
      },
      async openExternal(url) {
        const web = /^https?:\/\//i.test(url);
        if (web && bridge.kind === 'websocket') {
          // Browser mode: the page is already in the owner's browser, so the link opens in a new tab there.
          window.open(url, '_blank', 'noopener,noreferrer');
          return;
        }
        if (!web) {
          const path = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
          pushMessage('info', `This item is a local file: ${path}`);
          return;
        }
        try {
          const { opened } = await bridge.invoke('shell.openExternal', { url });
          if (!opened) pushMessage('error', 'That link could not be opened.');
        } catch (error) {
          pushMessage('error', `That link could not be opened: ${describeFailure(error)}`);
        }
      },
      async openLobby() {
        ui({ lobbyOpen: true });
        try {
          const lobby = await bridge.invoke('fleet.lobby', {});
          set({ candidates: lobby.candidates, lobbyUnreachable: lobby.unreachable });
        } catch (error) {
          pushMessage('error', `Could not list sessions: ${describeFailure(error)}`);
        }
      },
      closeLobby() {
        ui({ lobbyOpen: false });
      },
      async openCandidate(candidateId) {
        try {
          const { persona } = await bridge.invoke('seats.open', { candidateId });
          pushMessage('info', `${persona.name} walked into the lobby.`);
          set((state) => ({ candidates: state.candidates?.map((entry) => (entry.id === candidateId ? { ...entry, opened: true, openedBy: persona.name } : entry)) ?? null }));
          return true;
        } catch (error) {
          pushMessage('error', `Could not open that session: ${describeFailure(error)}`);
          return false;
        }
      },
      async openJobs() {
        ui({ jobsOpen: true });
        try {
          get().actions.receiveJobs(await bridge.invoke('jobs.list', { all: true }));
        } catch (error) {
          pushMessage('error', `Could not read the jobs: ${describeFailure(error)}`);
        }
      },
      closeJobs() {
        replay.collapseReplay('board');
        ui({ jobsOpen: false, jobSelected: null });
      },
      toggleJobs() {
        if (get().ui.jobsOpen) get().actions.closeJobs();
        else void get().actions.openJobs();
      },
      setJobsFilter(filter) {
        ui({ jobsFilter: filter });
      },
      selectJob(key) {
        const { ui: current, jobs } = get();
        replay.collapseReplay('board');
        if (key === null || key === current.jobSelected) return ui({ jobSelected: null });
        ui({ jobSelected: key });
        // The replay (and with it the files touched) is read only while the job is expanded.
        const job = jobs?.jobs.find((entry) => jobRowKey(entry) === key);
        if (job?.replayable && job.nativeId !== null) void replay.openReplay(job.nativeId, job.seatId, 'board');
      },
      pushMessage,
      dismissMessage(id) {
        set((state) => ({ ui: { ...state.ui, messages: state.ui.messages.filter((message) => message.id !== id) } }));
      },
      setReducedMotion(reduced) {
        ui({ reducedMotion: reduced });
      },
      dispose() {
        unsubscribe?.();
        unsubscribe = null;
        replay.collapseReplay();
        disposeHistory();
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
      },
    };

    return {
      fleet: null,
      roles: null,
      candidates: null,
      lobbyUnreachable: [],
      jobs: null,
      jobsClockOffsetMs: 0,
      ui: { focused: null, tray: null, picker: null, backlog: null, lobbyOpen: false, stationMenu: null, launch: null, profile: null, jobsOpen: false, jobsFilter: {}, jobSelected: null, pending: {}, messages: [], reducedMotion: false, error: null, toast: null },
      replay: null,
      history: INITIAL_HISTORY,
      counters: { replayRequests: 0, fleetReads: 0, fleetPatches: 0 },
      dispatches: [],
      cardDrag: null,
      actions,
    };
  });
  return store;
}
