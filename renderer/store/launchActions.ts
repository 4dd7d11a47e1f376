/**
 * Hire and launch in the store: the station menu (which station, where), the launch panel's state (options from
 * main, launching, the outcome or a refusal), and the attach command of an agent's session. Errors are shown where
 * the owner acted: a refused launch stays in the panel with its reason, and nothing else changes.
 */
import type { Bridge } from '../bridge';
import type { AppState, LaunchActions, LaunchState, Message } from './appState';
import { roleText } from '../../shared/usagePhrases';

interface LaunchDependencies {
  bridge: Bridge;
  get: () => AppState;
  set: (patch: Partial<AppState> | ((state: AppState) => Partial<AppState>)) => void;
  pushMessage: (level: Message['level'], text: string) => void;
  describe: (error: unknown) => string;
}

/** Builds the launch actions over the store's bridge. */
export function createLaunchActions({ bridge, get, set, pushMessage, describe }: LaunchDependencies): LaunchActions {
  const ui = (patch: Partial<AppState['ui']>) => set((state) => ({ ui: { ...state.ui, ...patch } }));
  const patchLaunch = (patch: Partial<LaunchState>) => {
    const current = get().ui.launch;
    if (current) ui({ launch: { ...current, ...patch } });
  };
  return {
    openStationMenu(stationKey, at) {
      ui({ stationMenu: { stationKey, x: at.x, y: at.y } });
    },
    closeStationMenu() {
      ui({ stationMenu: null });
    },
    async openLaunch(stationKey, role, item) {
      ui({ stationMenu: null, launch: { stationKey, role, status: 'loading', options: null, error: null, result: null, item: item ?? null, prompt: null } });
      try {
        const [options, prompt] = await Promise.all([
          bridge.invoke('launch.options', {}),
          item ? bridge.invoke('work.dispatchPrompt', { itemId: item.id, source: item.source }).then((answer) => answer.prompt) : Promise.resolve(null),
        ]);
        if (get().ui.launch?.stationKey === stationKey) patchLaunch({ status: 'ready', options, prompt });
      } catch (error) {
        patchLaunch({ status: 'ready', error: `Could not ask what can be launched: ${describe(error)}` });
      }
    },
    closeLaunch() {
      ui({ launch: null });
    },
    async launch(request, worktree) {
      const current = get().ui.launch;
      if (!current || current.status === 'launching') return false;
      patchLaunch({ status: 'launching', error: null, result: null });
      try {
        const item = current.item ?? null;
        const result = item
          ? (await bridge.invoke('work.dispatch', { itemId: item.id, source: item.source, ...request, role: current.role, ...(worktree ? { worktree } : {}) })).launch!
          : await bridge.invoke('agents.launch', { ...request, role: current.role });
        if (result.seated) {
          ui({ launch: null });
          pushMessage('info', `${result.persona.name} was hired as ${roleText(current.role)} and walks in. ${result.note ?? ''}`.trim());
          return true;
        }
        patchLaunch({ status: 'done', result });
        return false;
      } catch (error) {
        patchLaunch({ status: 'ready', error: describe(error) });
        return false;
      }
    },
    async attachInfo(personaId) {
      try {
        return await bridge.invoke('agents.attach', { personaId });
      } catch {
        return null;
      }
    },
    async openTerminal(personaId) {
      try {
        const { opened, reason } = await bridge.invoke('agents.openTerminal', { personaId });
        if (!opened) pushMessage('error', reason ?? 'The terminal could not be opened.');
      } catch (error) {
        pushMessage('error', `The terminal could not be opened: ${describe(error)}`);
      }
    },
  };
}
