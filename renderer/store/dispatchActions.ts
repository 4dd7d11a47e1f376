/**
 * Dispatch in the store (issue 40): the active dispatches as main sends them (for "→ Ada" on a backlog card and the
 * item on the agent's card), a backlog card being dragged, and giving an item to an agent that runs. Refusals are
 * messages; nothing else changes.
 */
import type { Bridge } from '../bridge';
import type { DispatchView } from '../../shared/dispatch';
import type { AppState, DispatchActions, Message } from './appState';

interface DispatchDependencies {
  bridge: Bridge;
  get: () => AppState;
  set: (patch: Partial<AppState> | ((state: AppState) => Partial<AppState>)) => void;
  pushMessage: (level: Message['level'], text: string) => void;
  describe: (error: unknown) => string;
}

/** The active dispatch of an item, if any. */
export function dispatchOfItem(dispatches: readonly DispatchView[], item: { source: string; id: string }): DispatchView | null {
  return dispatches.find((entry) => entry.source === item.source && entry.itemId === item.id) ?? null;
}

/** The active dispatches an agent holds, newest first. */
export function dispatchesOfAgent(dispatches: readonly DispatchView[], personaId: string): DispatchView[] {
  return dispatches.filter((entry) => entry.personaId === personaId).sort((first, second) => second.at.localeCompare(first.at));
}

/** Builds the dispatch actions over the store's bridge. */
export function createDispatchActions({ bridge, get, set, pushMessage, describe }: DispatchDependencies): DispatchActions {
  return {
    async loadDispatches() {
      try {
        const { dispatches } = await bridge.invoke('work.dispatches', {});
        set({ dispatches });
      } catch {
        // An older host has no dispatches: the cards show none.
      }
    },
    receiveDispatches(dispatches) {
      set({ dispatches });
    },
    startCardDrag(drag) {
      set({ cardDrag: drag });
    },
    endCardDrag() {
      if (get().cardDrag !== null) set({ cardDrag: null });
    },
    async giveItem(item, personaId) {
      const state = get();
      const persona = state.fleet?.personas.find((entry) => entry.id === personaId);
      if (!persona) return false;
      const cwd = state.fleet?.seats.find((seat) => seat.personaId === personaId)?.address.cwd ?? null;
      if (!cwd) {
        pushMessage('error', `${persona.name} has no known working folder, so ${JSON.stringify(item.title)} was not given to it.`);
        return false;
      }
      try {
        await bridge.invoke('work.dispatch', { itemId: item.id, source: item.source, personaId, cwd });
        pushMessage('info', `Gave ${JSON.stringify(item.title)} to ${persona.name}.`);
        return true;
      } catch (error) {
        pushMessage('error', `${JSON.stringify(item.title)} was not given to ${persona.name}: ${describe(error)}`);
        return false;
      }
    },
  };
}
