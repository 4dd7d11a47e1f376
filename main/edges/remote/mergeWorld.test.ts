import { describe, expect, it } from 'vitest';
import type { JobBoard } from '../../../shared/jobs';
import type { FleetSnapshot, Persona, Seat } from '../../../shared/schemas';
import { mergeBoard, mergeFleet, SeatViews, type RemoteState } from './mergeWorld';
import { remoteId, splitRemoteId } from './namespace';

const at = '2026-01-01T10:00:00.000Z';
const appearance = { body: 0, hair: 0, palette: 0, accessory: 0 };
const persona = (id: string, role?: string): Persona => ({ id, name: id, appearance, ...(role ? { role } : {}), createdAt: at, updatedAt: at });
const seat = (id: string, personaId: string): Seat => ({
  id,
  harness: 'claude',
  personaId,
  address: { harness: 'claude', home: '/remote/home', sessionId: id, path: '/remote/home/x.jsonl' },
  activity: { state: 'working', certain: true, since: at },
  subagents: { running: 2, recent: [] },
});
const station = (role: string, count: number) => ({ role, builtIn: true, count, backlog: { items: [] } });
const local: FleetSnapshot = { cursor: 7, seats: [seat('claude:l1', 'p_local')], personas: [persona('p_local', 'builder')], stations: [station('builder', 1)] };
const remoteSnapshot: FleetSnapshot = { cursor: 3, seats: [seat('claude:r1', 'p_far')], personas: [persona('p_far', 'builder'), persona('p_new', 'tester')], stations: [station('builder', 1), station('tester', 1)] };
const reachable: RemoteState = { name: 'box', snapshot: remoteSnapshot, board: null, unreachableSince: null, reason: null };

describe('one world from many machines', () => {
  it('namespaces every remote id by host, so no local id can collide', () => {
    expect(remoteId('box', 'claude:r1')).toBe('@box:claude:r1');
    expect(splitRemoteId('@box:claude:r1')).toEqual({ host: 'box', id: 'claude:r1' });
    expect(splitRemoteId('claude:l1')).toBeNull();
    expect(splitRemoteId('p_abc')).toBeNull();
  });

  it('puts remote seats and personas beside local ones, with their host, and sums station counts', () => {
    const merged = mergeFleet(local, [reachable], 12, new SeatViews());
    expect(merged.cursor).toBe(12);
    expect(merged.seats.map((entry) => [entry.id, entry.personaId, entry.host])).toEqual([
      ['claude:l1', 'p_local', undefined],
      ['@box:claude:r1', '@box:p_far', 'box'],
    ]);
    expect(merged.personas.map((entry) => [entry.id, entry.host])).toEqual([
      ['p_local', undefined],
      ['@box:p_far', 'box'],
      ['@box:p_new', 'box'],
    ]);
    expect(merged.stations.map((entry) => [entry.role, entry.count])).toEqual([
      ['builder', 2],
      ['tester', 1],
    ]);
    expect(merged.seats[1].address.path).toBe('/remote/home/x.jsonl');
  });

  it('greys an unreachable remote’s seats: kept, subagents unknown (never 0), with the time it went away', () => {
    const down: RemoteState = { ...reachable, unreachableSince: at, reason: 'ssh: connect to host box port 22: Connection refused' };
    const merged = mergeFleet(local, [down], 13, new SeatViews());
    const far = merged.seats.find((entry) => entry.host === 'box')!;
    expect(far.subagents).toBeUndefined();
    expect(far.activity).toEqual({ state: 'unknown', certain: false, since: null });
    expect(far.unreachableSince).toBe(at);
    expect(far.unknownReason).toMatch(/^box unreachable since \d\d:\d\d$/);
    expect(merged.personas).toHaveLength(3);
    expect(merged.notices?.find((notice) => notice.id === 'remote-unreachable:box')?.message).toMatch(/^box unreachable since \d\d:\d\d: ssh: connect/);
  });

  it('keeps an unchanged remote seat’s shown object between merges', () => {
    const views = new SeatViews();
    const first = mergeFleet(local, [reachable], 1, views);
    const second = mergeFleet(local, [reachable], 2, views);
    expect(second.seats[1]).toBe(first.seats[1]);
  });

  it('merges a reachable remote’s jobs, namespaced, and lists none of an unreachable one', () => {
    const job = { alias: 'explore-1', nativeId: 'toolu_1', seatId: 'claude:r1', personaId: 'p_far', persona: 'p_far', role: 'builder', harness: 'claude' as const, type: 'Explore', label: 'Look', kind: 'foreground' as const, state: 'running' as const, startedAt: at, replayable: true };
    const board: JobBoard = { jobs: [job], aliases: { 'claude:r1|toolu_1': 'explore-1' }, unlisted: [{ seatId: 'claude:r1', running: 3 }], at, revision: 4 };
    const localBoard: JobBoard = { jobs: [], aliases: {}, unlisted: [], at, revision: 9 };
    const merged = mergeBoard(localBoard, [{ ...reachable, board }], 2, 5);
    expect(merged.jobs).toEqual([{ ...job, seatId: '@box:claude:r1', personaId: '@box:p_far', host: 'box' }]);
    expect(merged.aliases).toEqual({ '@box:claude:r1|toolu_1': 'explore-1' });
    expect(merged.unlisted).toEqual([{ seatId: '@box:claude:r1', running: 3, host: 'box' }]);
    expect(merged.revision).toBe(2);
    expect(mergeBoard(localBoard, [{ ...reachable, board, unreachableSince: at }], 3, 5).jobs).toEqual([]);
  });

  it('gives the local board as it is, with the hub’s cursor and revision, when no remote lists a board', () => {
    const job = (nativeId: string, startedAt: string, state: 'running' | 'ended') => ({ alias: null, nativeId, seatId: 'claude:l1', personaId: 'p_local', persona: 'p_local', role: 'builder', harness: 'claude' as const, type: 'Explore', label: nativeId, kind: 'foreground' as const, state, startedAt, ...(state === 'ended' ? { endedAt: at } : {}), replayable: true });
    // In rule J3's order at `at`, as the jobs service gives it: running first, the longest-running first.
    const jobs = [job('older', '2026-01-01T09:00:00.000Z', 'running'), job('newer', '2026-01-01T09:30:00.000Z', 'running'), job('done', '2026-01-01T09:50:00.000Z', 'ended')];
    const localBoard: JobBoard = { jobs, aliases: {}, unlisted: [{ seatId: 'claude:l1', running: 1 }], at, cursor: 7, revision: 9 };
    for (const remotes of [[], [reachable], [{ ...reachable, board: { jobs: [], aliases: {}, unlisted: [], at, revision: 1 }, unreachableSince: at }]]) {
      const merged = mergeBoard(localBoard, remotes, 3, 8);
      expect(merged).toEqual({ ...localBoard, cursor: 8, revision: 3 });
      expect(merged.jobs).toBe(localBoard.jobs);
    }
  });
});
