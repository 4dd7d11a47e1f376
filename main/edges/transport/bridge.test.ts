/** The renderer's bridge over an in-memory transport pair wired to the real router (no Electron, no socket). */
import { describe, expect, it } from 'vitest';
import { BridgeError, createBridgeFromTransport, type RawTransport } from '../../../renderer/bridge';
import type { Answer } from '../../../shared/contract';
import { ServiceError } from '../../kit/errors';
import { createRouter, type Handlers } from './router';

function memoryPair(handlers: Partial<Handlers>) {
  const listeners = new Set<(event: string, payload: unknown) => void>();
  const calls: string[] = [];
  const router = createRouter(handlers as Handlers);
  const transport: RawTransport = {
    async request(channel, payload) {
      calls.push(channel);
      return JSON.parse(JSON.stringify(await router.handle(channel, payload))) as Answer<unknown>;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {},
  };
  const push = (event: string, payload: unknown) => listeners.forEach((listener) => listener(event, payload));
  return { bridge: createBridgeFromTransport(transport, 'memory'), push, calls };
}

const persona = { id: 'p1', name: 'Ada', appearance: { body: 0, hair: 0, palette: 0, accessory: 0 }, createdAt: 'x', updatedAt: 'x' };

describe('bridge', () => {
  it('sends a valid request and returns the validated response', async () => {
    const { bridge } = memoryPair({ 'personas.setRole': async (request) => ({ ...persona, role: request.role ?? undefined }) });
    const result = await bridge.invoke('personas.setRole', { personaId: 'p1', role: 'builder' });
    expect(result.role).toBe('builder');
  });

  it('refuses an invalid request before sending it', async () => {
    const { bridge, calls } = memoryPair({});
    await expect(bridge.invoke('personas.setRole', { personaId: 'p1', role: 'x', extra: 1 } as never)).rejects.toThrow(/extra/);
    expect(calls).toEqual([]);
  });

  it('turns a service error into a BridgeError with its code', async () => {
    const { bridge } = memoryPair({
      'personas.setRole': async () => {
        throw new ServiceError('invalid_role', 'A role is at most 24 characters.');
      },
    });
    const error = await bridge.invoke('personas.setRole', { personaId: 'p1', role: 'x' }).catch((caught) => caught);
    expect(error).toBeInstanceOf(BridgeError);
    expect(error.code).toBe('invalid_role');
    expect(error.message).toBe('A role is at most 24 characters.');
  });

  it('reports a handler that answers outside the contract as an error, not as data', async () => {
    const { bridge } = memoryPair({ 'roles.list': async () => [{ role: 'builder' }] as never });
    await expect(bridge.invoke('roles.list', {})).rejects.toMatchObject({ code: 'invalid_response' });
  });

  it('delivers valid events and drops invalid ones', async () => {
    const { bridge, push } = memoryPair({});
    const seen: number[] = [];
    const off = bridge.on('fleet.changed', ({ snapshot }) => seen.push(snapshot.cursor));
    push('fleet.changed', { snapshot: { cursor: 4, seats: [], personas: [], stations: [] } });
    push('fleet.changed', { snapshot: { cursor: 'x' } });
    push('other.event', { snapshot: { cursor: 5, seats: [], personas: [], stations: [] } });
    off();
    push('fleet.changed', { snapshot: { cursor: 6, seats: [], personas: [], stations: [] } });
    expect(seen).toEqual([4]);
  });

  it('answers an unknown channel with a clear error', async () => {
    const router = createRouter({} as Handlers);
    const answer = await router.handle('nope', {});
    expect(answer).toEqual({ ok: false, error: { code: 'unknown_channel', message: 'Unknown channel "nope".' } });
  });
});
