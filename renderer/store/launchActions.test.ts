import { describe, expect, it } from 'vitest';
import { createBridgeFromTransport, type RawTransport } from '../bridge';
import type { Answer } from '../../shared/contract';
import type { LaunchOptions } from '../../shared/launch';
import type { Persona } from '../../shared/schemas';
import { createAppStore } from './createAppStore';

const persona: Persona = { id: 'p1', name: 'Ada', appearance: { body: 0, hair: 0, palette: 0, accessory: 0 }, role: 'tester', createdAt: 'x', updatedAt: 'x' };
const options: LaunchOptions = { unavailable: null, harnesses: [{ harness: 'claude', available: true, reason: null }], folders: ['/w'], suggestedName: 'Ada' };

/** A main that answers the launch channels from a script of outcomes. */
function storeWith(outcomes: Answer<unknown>[]) {
  const requests: { channel: string; payload: unknown }[] = [];
  const transport: RawTransport = {
    async request(channel, payload) {
      requests.push({ channel, payload });
      if (channel === 'launch.options') return { ok: true, value: options };
      if (channel === 'agents.attach') return { ok: true, value: { session: 'pf-ada', command: 'tmux attach -t pf-ada', terminal: false } };
      return outcomes.shift()!;
    },
    subscribe: () => () => {},
    close() {},
  };
  return { store: createAppStore({ bridge: createBridgeFromTransport(transport, 'memory'), messageMs: 0 }), requests };
}

const result = (seated: boolean) => ({ ok: true as const, value: { persona, tmuxSession: 'pf-ada', attach: 'tmux attach -t pf-ada', seated, reason: seated ? null : 'No new codex session appeared.', note: null } });

describe('launch in the store', () => {
  it('opens from a station menu with main options, sends the station role, and closes with a message once seated', async () => {
    const { store, requests } = storeWith([result(true)]);
    const { actions } = store.getState();
    actions.openStationMenu('tester', { x: 10, y: 20 });
    expect(store.getState().ui.stationMenu).toEqual({ stationKey: 'tester', x: 10, y: 20 });
    await actions.openLaunch('tester', 'Tester');
    expect(store.getState().ui.stationMenu).toBeNull();
    expect(store.getState().ui.launch).toMatchObject({ stationKey: 'tester', role: 'Tester', status: 'ready', options });
    expect(await actions.launch({ harness: 'claude', cwd: '/w', name: 'Ada' })).toBe(true);
    expect(requests.at(-1)).toEqual({ channel: 'agents.launch', payload: { harness: 'claude', cwd: '/w', name: 'Ada', role: 'Tester' } });
    expect(store.getState().ui.launch).toBeNull();
    expect(store.getState().ui.messages.map((message) => message.text)).toEqual(['Ada was hired as Tester and walks in.']);
  });

  it('keeps a refusal and an unseated outcome in the panel', async () => {
    const { store } = storeWith([{ ok: false, error: { code: 'invalid_request', message: 'The folder "/x" does not exist or is not a folder.' } }, result(false)]);
    const { actions } = store.getState();
    await actions.openLaunch('tester', 'tester');
    expect(await actions.launch({ harness: 'claude', cwd: '/x' })).toBe(false);
    expect(store.getState().ui.launch).toMatchObject({ status: 'ready', error: 'The folder "/x" does not exist or is not a folder.' });
    expect(await actions.launch({ harness: 'codex', cwd: '/w' })).toBe(false);
    expect(store.getState().ui.launch).toMatchObject({ status: 'done', error: null, result: { seated: false, reason: 'No new codex session appeared.' } });
    expect(await actions.attachInfo('p1')).toEqual({ session: 'pf-ada', command: 'tmux attach -t pf-ada', terminal: false });
    actions.closeLaunch();
    expect(store.getState().ui.launch).toBeNull();
  });
});
