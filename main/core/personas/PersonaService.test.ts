import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appearanceFor } from '../../../shared/appearance';
import type { SeatAddress } from '../../../shared/schemas';
import { ServiceError } from '../../kit/errors';
import { PERSONA_NAMES } from './names';
import { PersonaService } from './PersonaService';

const seatA: SeatAddress = { harness: 'claude', home: '/home/owner/.claude', sessionId: 'session-a', cwd: '/work/a' };
const seatB: SeatAddress = { harness: 'codex', home: '/home/owner/.codex', sessionId: 'session-b' };

let folder: string;
let file: string;
const services: PersonaService[] = [];

/** A clock that advances one second per reading, so updatedAt orders changes. */
function steppingClock(start = Date.parse('2025-03-01T10:00:00.000Z')): () => Date {
  let tick = 0;
  return () => new Date(start + 1000 * tick++);
}

function open(options: Partial<ConstructorParameters<typeof PersonaService>[0]> = {}): PersonaService {
  const service = new PersonaService({ file, now: steppingClock(), ...options });
  services.push(service);
  return service;
}

async function refusal(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  if (!(error instanceof ServiceError)) throw new Error(`expected a ServiceError, got ${String(error)}`);
  return error;
}

async function readFileJson(): Promise<{ schemaVersion: number; revision: number; personas: Array<Record<string, unknown>> }> {
  return JSON.parse(await fs.readFile(file, 'utf8'));
}

beforeEach(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'pixelfleet-personas-'));
  file = path.join(folder, 'home', 'personas.json');
});

afterEach(async () => {
  for (const service of services.splice(0)) service.dispose();
  await fs.rm(folder, { recursive: true, force: true });
});

describe('hire', () => {
  it('creates a persona with a generated name, a stable id and the look of its id, and saves it', async () => {
    const service = open({ pick: () => 0 });
    const persona = await service.hire();
    expect(persona.id).toMatch(/^p_[a-z2-7]{10}$/);
    expect(persona.name).toBe(PERSONA_NAMES[0]);
    expect(persona.appearance).toEqual(appearanceFor(persona.id));
    expect(persona.role).toBeUndefined();
    expect(persona.seat).toBeUndefined();
    expect(persona.createdAt).toBe(persona.updatedAt);
    const stored = await readFileJson();
    expect(stored).toMatchObject({ schemaVersion: 2, revision: 1 });
    expect(stored.personas).toEqual([persona]);
    // A second generated name is not the first one again.
    expect((await service.hire()).name).not.toBe(persona.name);
  });

  it('hires with a name, a role (folded) and a seat', async () => {
    const service = open();
    const persona = await service.hire({ name: '  Grace   Hopper ', role: 'Planner', seat: seatA });
    expect(persona).toMatchObject({ name: 'Grace Hopper', role: 'planner', seat: seatA });
  });

  it('refuses an invalid role, name or seat and writes nothing', async () => {
    const service = open();
    const role = await refusal(service.hire({ name: 'Ada', role: 'a'.repeat(25) }));
    expect(role).toMatchObject({ code: 'invalid_role', message: 'A role is at most 24 characters (this one has 25).' });
    expect(await refusal(service.hire({ name: '   ' }))).toMatchObject({ code: 'invalid_request' });
    const seat = await refusal(service.hire({ seat: { harness: 'vim', home: '/x', sessionId: 's' } as unknown as SeatAddress }));
    expect(seat).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('seat.harness') });
    await expect(fs.access(file)).rejects.toThrow();
    expect(await service.list()).toEqual([]);
  });

  it('refuses a seat another persona already works in', async () => {
    const service = open();
    await service.hire({ name: 'Ada', seat: seatA });
    const error = await refusal(service.hire({ name: 'Bo', seat: { ...seatA, home: '/other/.claude', cwd: '/elsewhere' } }));
    expect(error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('already belongs to Ada') });
    expect((await service.list()).map((persona) => persona.name)).toEqual(['Ada']);
    // The same session id in another harness is another seat.
    expect((await service.hire({ name: 'Cy', seat: { ...seatA, harness: 'codex' } })).seat?.harness).toBe('codex');
  });
});

describe('setRole, moveSeat and rename', () => {
  it('sets, folds and clears a role without touching the look or the seat', async () => {
    const service = open();
    const ada = await service.hire({ name: 'Ada', seat: seatA });
    const builder = await service.setRole(ada.id, 'BUILDER');
    expect(builder).toMatchObject({ role: 'builder', appearance: ada.appearance, seat: seatA, createdAt: ada.createdAt });
    expect(builder.updatedAt > ada.updatedAt).toBe(true);
    const custom = await service.setRole(ada.id, 'Sound\tDesigner');
    expect(custom.role).toBe('Sound Designer');
    const cleared = await service.setRole(ada.id, null);
    expect('role' in cleared).toBe(false);
    expect((await readFileJson()).personas[0]).not.toHaveProperty('role');
  });

  it('refuses an invalid role with the broken rule and an unknown persona, changing nothing', async () => {
    const service = open();
    const ada = await service.hire({ name: 'Ada', role: 'tester' });
    const before = await fs.readFile(file, 'utf8');
    expect(await refusal(service.setRole(ada.id, '-lead'))).toMatchObject({
      code: 'invalid_role',
      message: 'A role starts with a letter or digit (this one starts with "-").',
    });
    expect(await refusal(service.setRole('p_missing000', 'tester'))).toMatchObject({
      code: 'not_found',
      message: 'No persona with id "p_missing000".',
    });
    expect(await fs.readFile(file, 'utf8')).toBe(before);
  });

  it('does not write when the role is already the one asked for', async () => {
    const service = open();
    const ada = await service.hire({ name: 'Ada', role: 'tester' });
    await service.setRole(ada.id, 'Tester');
    expect((await readFileJson()).revision).toBe(1);
  });

  it('keeps the role when the persona moves to another seat or to none', async () => {
    const service = open();
    const ada = await service.hire({ name: 'Ada', role: 'Sound Designer', seat: seatA });
    const moved = await service.moveSeat(ada.id, seatB);
    expect(moved).toMatchObject({ role: 'Sound Designer', seat: seatB, appearance: ada.appearance });
    const seatless = await service.moveSeat(ada.id, null);
    expect(seatless.role).toBe('Sound Designer');
    expect(seatless.seat).toBeUndefined();
    const bo = await service.hire({ name: 'Bo', seat: seatA });
    expect(await refusal(service.moveSeat(ada.id, seatA))).toMatchObject({ code: 'invalid_request' });
    expect((await service.find(bo.id))?.seat).toEqual(seatA);
  });

  it('renames, refusing empty and over-long names', async () => {
    const service = open();
    const ada = await service.hire({ name: 'Ada' });
    expect((await service.rename(ada.id, ' Ada  Lovelace ')).name).toBe('Ada Lovelace');
    expect(await refusal(service.rename(ada.id, ''))).toMatchObject({ code: 'invalid_request' });
    expect(await refusal(service.rename(ada.id, 'x'.repeat(49)))).toMatchObject({
      code: 'invalid_request',
      message: 'A name is at most 48 characters (this one has 49).',
    });
    expect(await refusal(service.rename('p_nobody0000', 'Bo'))).toMatchObject({ code: 'not_found' });
  });
});

describe('find and rolesList', () => {
  it('finds by id, then by name case-insensitively, and refuses an ambiguous name', async () => {
    const service = open();
    const ada = await service.hire({ name: 'Ada' });
    const first = await service.hire({ name: 'Bo' });
    await service.hire({ name: 'bo' });
    expect(await service.find(ada.id)).toEqual(ada);
    expect(await service.find('ADA')).toEqual(ada);
    expect(await service.find('nobody')).toBeUndefined();
    const error = await refusal(service.find('Bo'));
    expect(error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining(first.id) });
  });

  it('lists built-ins first and labels a custom role with its most recently updated holder', async () => {
    const service = open();
    const ada = await service.hire({ name: 'Ada', role: 'sound designer' });
    await service.hire({ name: 'Bo', role: 'SOUND DESIGNER' });
    await service.hire({ name: 'Cy', role: 'builder' });
    await service.setRole(ada.id, 'Sound Designer');
    const list = await service.rolesList();
    expect(list.map((entry) => entry.role)).toEqual(['planner', 'designer', 'builder', 'tester', 'reviewer', 'researcher', 'Sound Designer']);
    expect(list[2].count).toBe(1);
    expect(list[6]).toEqual({ role: 'Sound Designer', builtIn: false, count: 2 });
  });
});

describe('changes from another process', () => {
  it('shows up in list() and refresh(), and onChange fires for both kinds of change', async () => {
    const app = open();
    const cli = open();
    let changes = 0;
    app.onChange(() => {
      changes += 1;
    });
    const ada = await app.hire({ name: 'Ada' });
    expect(changes).toBe(1);
    expect(await app.refresh()).toBe(false);

    await cli.setRole(ada.id, 'reviewer');
    expect(await app.refresh()).toBe(true);
    expect(changes).toBe(2);
    expect((await app.find(ada.id))?.role).toBe('reviewer');

    await cli.hire({ name: 'Bo' });
    expect((await app.list()).map((persona) => persona.name)).toEqual(['Ada', 'Bo']);
    expect(changes).toBe(3);
    expect(await app.refresh()).toBe(false);
  });

  it('re-applies a change to the fresh store instead of overwriting the other writer', async () => {
    const app = open();
    const cli = open();
    const ada = await app.hire({ name: 'Ada' });
    await cli.list();
    await app.hire({ name: 'Bo' });
    // cli still caches a store without Bo; its change must be applied on top of Bo, not replace him.
    await cli.setRole(ada.id, 'planner');
    const stored = await readFileJson();
    expect(stored.revision).toBe(3);
    expect(stored.personas.map((persona) => [persona.name, persona.role ?? null])).toEqual([['Ada', 'planner'], ['Bo', null]]);
  });
});
