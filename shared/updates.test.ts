import { describe, expect, it } from 'vitest';
import { createRandom } from '../main/dev/demo/random';
import type { Job, JobBoard } from './jobs';
import { z } from 'zod';
import { applyList, applyRecord, diffList, diffRecord, listPatchSchema } from './patch';
import type { FleetSnapshot, Persona, Seat } from './schemas';
import { applyFleetPatch, applyJobsPatch, diffFleet, diffJobs, FleetPatchSchema, JobsPatchSchema } from './updates';

function persona(id: string, role?: string): Persona {
  return { id, name: `Agent ${id}`, appearance: { body: 1, hair: 2, palette: 3, accessory: 0 }, ...(role ? { role } : {}), createdAt: '2026-12-01T00:00:00.000Z', updatedAt: '2026-12-01T00:00:00.000Z' };
}

function seat(id: string, personaId: string, state: 'working' | 'idle', running: number): Seat {
  return {
    id,
    harness: 'claude',
    personaId,
    address: { harness: 'claude', home: '/home/owner/.claude', sessionId: `session-${id}` },
    activity: { state, certain: true, since: '2026-12-01T10:00:00.000Z' },
    subagents: { running, recent: [] },
  };
}

function snapshot(cursor: number, count: number): FleetSnapshot {
  const personas = Array.from({ length: count }, (_, index) => persona(`p${index}`, index % 2 === 0 ? 'builder' : undefined));
  return {
    cursor,
    personas,
    seats: personas.map((entry, index) => seat(`s${index}`, entry.id, 'idle', 0)),
    stations: [{ role: 'builder', builtIn: true, count: Math.ceil(count / 2), backlog: { items: [] } }],
    ownerHome: '/home/owner',
  };
}

/** A next snapshot with random edits: changed seats, roles, removals, additions, a reorder, optional fields. */
function mutate(previous: FleetSnapshot, next: () => number, serial: number): FleetSnapshot {
  let seats = previous.seats.map((entry) => (next() < 0.2 ? seat(entry.id, entry.personaId, next() < 0.5 ? 'working' : 'idle', Math.floor(next() * 4)) : entry));
  let personas = previous.personas.map((entry) => (next() < 0.05 ? persona(entry.id, next() < 0.5 ? 'tester' : undefined) : entry));
  if (next() < 0.3 && personas.length > 1) {
    const gone = personas[Math.floor(next() * personas.length)].id;
    personas = personas.filter((entry) => entry.id !== gone);
    seats = seats.filter((entry) => entry.personaId !== gone);
  }
  if (next() < 0.3) {
    const id = `new${serial}`;
    personas = [...personas, persona(id, 'reviewer')];
    seats = [...seats, seat(`s-${id}`, id, 'working', 1)];
  }
  if (next() < 0.2 && seats.length > 2) seats = [seats[seats.length - 1], ...seats.slice(0, -1)];
  const result: FleetSnapshot = { ...previous, cursor: previous.cursor + 1, seats, personas };
  if (next() < 0.2) result.stations = [...previous.stations, { role: `guild ${serial}`, builtIn: false, count: 0, backlog: { items: [] } }];
  if (next() < 0.2) result.notices = next() < 0.5 ? [{ id: `n${serial}`, level: 'warning', message: 'A setting was ignored.' }] : undefined;
  if (next() < 0.1) result.ownerHome = undefined;
  if (result.notices === undefined) delete result.notices;
  if (result.ownerHome === undefined) delete result.ownerHome;
  return result;
}

describe('fleet changes', () => {
  it('turn each snapshot into the next exactly, through 300 random edits, keeping unchanged records', () => {
    // Seeded, so a failing case can be replayed.
    const next = createRandom(17);
    let held = snapshot(1, 40);
    let truth = held;
    for (let serial = 0; serial < 300; serial++) {
      const following = mutate(truth, next, serial);
      const patch = diffFleet(truth, following);
      expect(patch).not.toBeNull();
      // What crosses the boundary is the validated, serialised patch.
      const sent = FleetPatchSchema.parse(JSON.parse(JSON.stringify(patch)));
      const applied = applyFleetPatch(held, sent);
      expect(applied).not.toBeNull();
      expect(applied).toEqual(following);
      for (const entry of applied!.seats) {
        const before = held.seats.find((candidate) => candidate.id === entry.id);
        const after = following.seats.find((candidate) => candidate.id === entry.id);
        // A seat that did not change is the very object held before.
        if (before && after === truth.seats.find((candidate) => candidate.id === entry.id)) expect(entry).toBe(before);
      }
      held = applied!;
      truth = following;
    }
  });

  it('send only what changed: one changed seat of 200 is one seat', () => {
    const previous = snapshot(4, 200);
    const changed = { ...previous, cursor: 5, seats: previous.seats.map((entry, index) => (index === 120 ? seat(entry.id, entry.personaId, 'working', 2) : entry)) };
    const patch = diffFleet(previous, changed)!;
    expect(patch).toEqual({ from: 4, cursor: 5, seats: { set: [changed.seats[120]] } });
    expect(JSON.stringify(patch).length * 50).toBeLessThan(JSON.stringify(changed).length);
  });

  it('do not apply onto another snapshot, nor when their order does not fit', () => {
    const previous = snapshot(4, 3);
    const following = { ...previous, cursor: 5, seats: [...previous.seats].reverse() };
    const patch = diffFleet(previous, following)!;
    expect(patch.seats?.order).toEqual(['s2', 's1', 's0']);
    expect(applyFleetPatch({ ...previous, cursor: 3 }, patch)).toBeNull();
    expect(applyFleetPatch({ ...previous, seats: previous.seats.slice(1) }, patch)).toBeNull();
  });

  it('are not made for snapshots whose ids repeat (the whole snapshot is sent instead)', () => {
    const previous = snapshot(1, 2);
    const broken = { ...previous, cursor: 2, seats: [previous.seats[0], previous.seats[0]] };
    expect(diffFleet(previous, broken)).toBeNull();
  });

  it('say that an optional field is gone with null', () => {
    const previous = { ...snapshot(1, 1), notices: [{ id: 'n', level: 'info' as const, message: 'hi' }] };
    const { notices: _gone, ...rest } = previous;
    const patch = diffFleet(previous, { ...rest, cursor: 2 })!;
    expect(patch.notices).toBeNull();
    expect(applyFleetPatch(previous, patch)).not.toHaveProperty('notices');
  });
});

describe('lists and records', () => {
  it('of records changed in place carry only those records', () => {
    const key = (entry: { id: string; n: number }) => entry.id;
    const list = [{ id: 'a', n: 1 }, { id: 'b', n: 1 }, { id: 'c', n: 1 }];
    const next = [list[0], { id: 'b', n: 2 }, { id: 'c', n: 1 }];
    const patch = diffList(list, next, key);
    expect(patch).toEqual({ set: [{ id: 'b', n: 2 }] });
    expect(applyList(list, patch, key)).toEqual(next);
    expect(diffList(list, [{ id: 'a', n: 1 }, { id: 'b', n: 1 }, { id: 'c', n: 1 }], key)).toBeUndefined();
  });

  it('apply an order-only change, and nothing when nothing changed', () => {
    const key = (entry: { id: string }) => entry.id;
    const list = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    expect(diffList(list, list, key)).toBeUndefined();
    const moved = [list[2], list[0], list[1]];
    const patch = diffList(list, moved, key);
    expect(patch).toEqual({ order: ['c', 'a', 'b'] });
    const applied = applyList(list, patch, key)!;
    expect(applied).toEqual(moved);
    expect(applied[0]).toBe(list[2]);
  });

  it('send the few keys that moved instead of the whole order: a key added in the middle, one moved to the end', () => {
    const key = (entry: { id: string }) => entry.id;
    const list = Array.from({ length: 40 }, (_, index) => ({ id: `k${index}` }));
    const inserted = [...list.slice(0, 10), { id: 'new' }, ...list.slice(10)];
    const patch = diffList(list, inserted, key)!;
    expect(patch).toEqual({ set: [{ id: 'new' }], moves: [['new', 'k9']] });
    expect(applyList(list, patch, key)).toEqual(inserted);
    const ended = [...list.slice(0, 5), ...list.slice(6), list[5]];
    expect(diffList(list, ended, key)).toEqual({ moves: [['k5', 'k39']] });
    const first = [list[39], ...list.slice(0, 39)];
    expect(diffList(list, first, key)).toEqual({ moves: [['k39', null]] });
    expect(applyList(list, diffList(list, first, key), key)).toEqual(first);
    // A reshuffle moves most keys: the whole order is shorter.
    expect(diffList(list, [...list].reverse(), key)?.order).toHaveLength(40);
    // Moves naming a key the list lacks do not fit: the caller reads the whole list again.
    expect(applyList(list, { moves: [['nope', null]] }, key)).toBeNull();
    expect(applyList(list, { moves: [['k1', 'nope']] }, key)).toBeNull();
  });

  it('turn any list into any other through set, removed and moves or order, over 500 seeded random edits', () => {
    const random = createRandom(29);
    const key = (entry: { id: string; v: number }) => entry.id;
    const schema = listPatchSchema(z.object({ id: z.string(), v: z.number() }));
    let serial = 0;
    let list = Array.from({ length: 30 }, () => ({ id: `k${serial++}`, v: 0 }));
    for (let round = 0; round < 500; round++) {
      const next = list.filter(() => random() > 0.05).map((entry) => (random() < 0.1 ? { ...entry, v: entry.v + 1 } : entry));
      for (let add = Math.floor(random() * 3); add > 0; add--) next.splice(Math.floor(random() * (next.length + 1)), 0, { id: `k${serial++}`, v: 0 });
      for (let move = Math.floor(random() * 4); move > 0 && next.length > 1; move--) {
        const [taken] = next.splice(Math.floor(random() * next.length), 1);
        next.splice(Math.floor(random() * (next.length + 1)), 0, taken);
      }
      const patch = diffList(list, next, key);
      const sent = patch === undefined ? undefined : schema.parse(JSON.parse(JSON.stringify(patch)));
      expect(applyList(list, sent, key)).toEqual(next);
      list = next;
    }
  });

  it('diff string records by added, changed and removed keys', () => {
    const before = { a: '1', b: '2', c: '3' };
    const after = { a: '1', b: '20', d: '4' };
    const patch = diffRecord(before, after);
    expect(patch).toEqual({ set: { b: '20', d: '4' }, removed: ['c'] });
    expect(applyRecord(before, patch)).toEqual(after);
    expect(diffRecord(after, { ...after })).toBeUndefined();
  });
});

function job(id: string, state: 'running' | 'ended'): Job {
  return { alias: `explore-${id}`, nativeId: id, seatId: 's1', personaId: 'p1', persona: 'Ada', role: 'builder', harness: 'claude', type: 'Explore', label: `Scan ${id}`, kind: 'background', state, startedAt: '2026-12-01T10:00:00.000Z', replayable: true };
}

describe('jobs board changes', () => {
  it('carry changed jobs and aliases onto the board of the revision they name', () => {
    const previous: JobBoard = { jobs: [job('a', 'running'), job('b', 'running')], aliases: { 's1|a': 'explore-a', 's1|b': 'explore-b' }, unlisted: [], at: '2026-12-01T10:05:00.000Z', cursor: 7, revision: 3 };
    const next: JobBoard = { jobs: [job('b', 'running'), job('a', 'ended'), job('c', 'running')], aliases: { ...previous.aliases, 's1|c': 'explore-c' }, unlisted: [{ seatId: 's2', running: 2 }], at: '2026-12-01T10:05:01.000Z', cursor: 8, revision: 4 };
    const patch = JobsPatchSchema.parse(JSON.parse(JSON.stringify(diffJobs(previous, next))));
    expect(patch.jobs?.set?.map((entry) => entry.nativeId)).toEqual(['a', 'c']);
    expect(patch.aliases).toEqual({ set: { 's1|c': 'explore-c' } });
    const applied = applyJobsPatch(previous, patch)!;
    expect(applied).toEqual(next);
    expect(applied.jobs[0]).toBe(previous.jobs[1]);
    expect(applyJobsPatch({ ...previous, revision: 2 }, patch)).toBeNull();
  });

  it('of a board that only follows a new fleet cursor are a few bytes', () => {
    const previous: JobBoard = { jobs: Array.from({ length: 100 }, (_, index) => job(`j${index}`, 'running')), aliases: {}, unlisted: [], at: '2026-12-01T10:05:00.000Z', cursor: 7, revision: 3 };
    const patch = diffJobs(previous, { ...previous, at: '2026-12-01T10:05:01.000Z', cursor: 8, revision: 4 })!;
    expect(patch).toEqual({ from: 3, revision: 4, at: '2026-12-01T10:05:01.000Z', cursor: 8 });
  });
});
