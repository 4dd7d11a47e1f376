/**
 * A station's role profile in the store: the panel's state (the profile as main reads it, a save in progress, the
 * problems main found field by field) and the export beside it (a preview of the file, a write, or a refusal with its
 * reason). Errors stay in the panel where the owner acted; nothing else changes.
 */
import type { Bridge } from '../bridge';
import type { AppState, ProfileActions, ProfileExportState, ProfileState } from './appState';

interface ProfileDependencies {
  bridge: Bridge;
  get: () => AppState;
  set: (patch: Partial<AppState> | ((state: AppState) => Partial<AppState>)) => void;
  describe: (error: unknown) => string;
}

const IDLE_EXPORT: ProfileExportState = { status: 'idle', result: null, error: null };

/** Builds the profile actions over the store's bridge. */
export function createProfileActions({ bridge, get, set, describe }: ProfileDependencies): ProfileActions {
  const ui = (patch: Partial<AppState['ui']>) => set((state) => ({ ui: { ...state.ui, ...patch } }));
  // Every answer is applied only to the panel it was asked for: a panel closed or reopened meanwhile ignores it.
  const patchProfile = (stationKey: string, patch: Partial<ProfileState>) => {
    const current = get().ui.profile;
    if (current && current.stationKey === stationKey) ui({ profile: { ...current, ...patch } });
  };
  return {
    async openProfile(stationKey, role) {
      ui({ stationMenu: null, profile: { stationKey, role, status: 'loading', view: null, errors: [], error: null, saved: null, export: IDLE_EXPORT } });
      try {
        const view = await bridge.invoke('roles.profile', { role });
        patchProfile(stationKey, { status: 'ready', view });
      } catch (error) {
        patchProfile(stationKey, { status: 'ready', error: `Could not read the profile: ${describe(error)}` });
      }
    },
    closeProfile() {
      ui({ profile: null });
    },
    async saveProfile(profile) {
      const current = get().ui.profile;
      if (!current || current.status !== 'ready') return false;
      const { stationKey, role } = current;
      patchProfile(stationKey, { status: 'saving', errors: [], error: null, saved: null });
      try {
        const answer = await bridge.invoke('roles.saveProfile', { role, profile });
        if (!answer.saved) {
          patchProfile(stationKey, { status: 'ready', errors: answer.errors });
          return false;
        }
        patchProfile(stationKey, { status: 'ready', view: answer.view, saved: answer.view.path });
        return true;
      } catch (error) {
        patchProfile(stationKey, { status: 'ready', error: `The profile was not saved: ${describe(error)}` });
        return false;
      }
    },
    async exportProfile(request) {
      const current = get().ui.profile;
      if (!current || current.export.status === 'busy') return null;
      const { stationKey, role } = current;
      patchProfile(stationKey, { export: { status: 'busy', result: current.export.result, error: null } });
      try {
        const result = await bridge.invoke('roles.export', { ...request, role });
        patchProfile(stationKey, { export: { status: 'idle', result, error: null } });
        return result;
      } catch (error) {
        patchProfile(stationKey, { export: { status: 'idle', result: null, error: describe(error) } });
        return null;
      }
    },
  };
}
