import { describe, expect, it } from 'vitest';
import { appearanceFor } from '../../../shared/appearance';
import { decodeStore, encodeStore, migrateV1ToV2, PersonaStoreV1Schema } from './storeSchema';

const seat = { harness: 'claude', home: '/home/owner/.claude', sessionId: 's-1', cwd: '/work/app' };

function v2Persona(overrides: Record<string, unknown> = {}) {
  return {
    id: 'p_aaaaaaaaaa',
    name: 'Ada',
    appearance: { body: 1, hair: 2, palette: 3, accessory: 4 },
    role: 'builder',
    seat,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('decodeStore, version 2', () => {
  it('reads a current store and round-trips it through encodeStore', () => {
    const text = JSON.stringify({ schemaVersion: 2, revision: 7, personas: [v2Persona()] });
    const decoded = decodeStore(text);
    expect(decoded).toEqual({ kind: 'ok', store: { schemaVersion: 2, revision: 7, personas: [v2Persona()] } });
    if (decoded.kind !== 'ok') throw new Error('unreachable');
    expect(decodeStore(encodeStore(decoded.store))).toEqual(decoded);
  });

  it('reads a stored built-in in another casing back in its canonical form', () => {
    const decoded = decodeStore(JSON.stringify({ schemaVersion: 2, revision: 1, personas: [v2Persona({ role: 'Builder' })] }));
    expect(decoded.kind === 'ok' && decoded.store.personas[0].role).toBe('builder');
  });

  it('calls a store corrupt when it is not JSON, not an object, has no version, or breaks the schema', () => {
    expect(decodeStore('{"schemaVersion": 2, "revis')).toMatchObject({ kind: 'corrupt' });
    expect(decodeStore('[]')).toEqual({ kind: 'corrupt', reason: 'not a JSON object' });
    expect(decodeStore('{"personas": []}')).toMatchObject({ kind: 'corrupt', reason: expect.stringContaining('schemaVersion') });
    const badRole = decodeStore(JSON.stringify({ schemaVersion: 2, revision: 0, personas: [v2Persona({ role: '-x' })] }));
    expect(badRole).toMatchObject({ kind: 'corrupt', reason: expect.stringContaining('personas.0.role') });
    const badLook = decodeStore(JSON.stringify({ schemaVersion: 2, revision: 0, personas: [v2Persona({ appearance: { body: 9, hair: 0, palette: 0, accessory: 0 } })] }));
    expect(badLook).toMatchObject({ kind: 'corrupt', reason: expect.stringContaining('appearance.body') });
  });

  it('refuses two personas with one id', () => {
    const decoded = decodeStore(JSON.stringify({ schemaVersion: 2, revision: 0, personas: [v2Persona(), v2Persona({ name: 'Bo' })] }));
    expect(decoded).toMatchObject({ kind: 'corrupt', reason: expect.stringContaining('Duplicate persona id') });
  });

  it('reports a store from a newer version as newer, with its personas when they still read', () => {
    const decoded = decodeStore(JSON.stringify({ schemaVersion: 3, revision: 4, personas: [v2Persona({ mood: 'new field' })] }));
    expect(decoded).toMatchObject({ kind: 'newer', version: 3, store: { revision: 4, personas: [v2Persona()] } });
    expect(decodeStore(JSON.stringify({ schemaVersion: 9, shape: 'unknown' }))).toEqual({ kind: 'newer', version: 9, store: null });
  });
});

describe('migration from version 1', () => {
  const v1 = {
    schemaVersion: 1,
    personas: [
      {
        id: 'p_bbbbbbbbbb',
        name: 'Basil',
        appearance: { body: 0, hair: 5, palette: 6 },
        role: 'reviewer',
        seat,
        createdAt: '2024-06-01T00:00:00.000Z',
        updatedAt: '2024-06-02T00:00:00.000Z',
      },
      { id: 'p_cccccccccc', name: 'Clover', appearance: { body: 3, hair: 0, palette: 1 }, createdAt: 'x', updatedAt: 'x' },
    ],
  };

  it('adds revision 0 and an accessory from the id hash, keeping roles, seats and the rest of the look', () => {
    const decoded = decodeStore(JSON.stringify(v1));
    if (decoded.kind !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(decoded)}`);
    expect(decoded.migratedFrom).toBe(1);
    expect(decoded.store.schemaVersion).toBe(2);
    expect(decoded.store.revision).toBe(0);
    const [basil, clover] = decoded.store.personas;
    expect(basil).toEqual({ ...v1.personas[0], appearance: { body: 0, hair: 5, palette: 6, accessory: appearanceFor('p_bbbbbbbbbb').accessory } });
    expect(clover.role).toBeUndefined();
    expect(clover.appearance.accessory).toBe(appearanceFor('p_cccccccccc').accessory);
  });

  it('is a pure function of the version 1 store', () => {
    const parsed = PersonaStoreV1Schema.parse(v1);
    expect(migrateV1ToV2(parsed)).toEqual(migrateV1ToV2(parsed));
  });

  it('calls a version 1 store with a role outside the built-ins corrupt (version 1 never wrote one)', () => {
    const bad = { ...v1, personas: [{ ...v1.personas[0], role: 'Sound Designer' }] };
    expect(decodeStore(JSON.stringify(bad))).toMatchObject({ kind: 'corrupt', reason: expect.stringContaining('version 1') });
  });
});
