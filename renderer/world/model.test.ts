import { describe, expect, it } from 'vitest';
import type { FleetSnapshot, Persona, Seat } from '../../shared/schemas';
import { AgentModelCache, badgeText, drawnAlike, selectWorld } from './model';
import { reconcile } from './reconcile';

const appearance = { body: 1, hair: 2, palette: 3, accessory: 0 };
function persona(id: string, role?: string): Persona {
  return { id, name: id.toUpperCase(), appearance, ...(role ? { role } : {}), createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z' };
}
function seat(personaId: string, running?: number): Seat {
  return {
    id: `seat-${personaId}`,
    harness: 'claude',
    personaId,
    address: { harness: 'claude', home: '/h', sessionId: personaId },
    activity: { state: 'working', certain: true, since: null },
    ...(running === undefined ? {} : { subagents: { running, recent: [] } }),
  };
}
function snapshot(cursor: number, personas: Persona[], seats: Seat[]): FleetSnapshot {
  return {
    cursor,
    personas,
    seats,
    stations: [{ role: 'Sound Designer', builtIn: false, count: 1, backlog: { items: [], error: 'GitHub said 401' } }],
  };
}
const noUi = { focused: null, tray: null, picker: null, backlog: null, lobbyOpen: false, stationMenu: null, launch: null, profile: null, jobsOpen: false, jobsFilter: {}, jobSelected: null, pending: {}, messages: [], reducedMotion: false, error: null, toast: null };

describe('selectWorld', () => {
  it('gives each agent its context bar, and keeps its record when a seat changes only in what the world does not draw', () => {
    const cache = new AgentModelCache();
    const people = [persona('a', 'builder')];
    const withUsage = (used: number, input: number): Seat => ({ ...seat('a', 1), usage: { context: { used, window: 200_000, fill: used / 200_000 }, totals: { input, output: 0, cacheRead: 0, cacheWrite: 0 }, partial: true } });
    const first = selectWorld({ fleet: snapshot(1, people, [withUsage(100_000, 10)]), ui: noUi }, cache);
    expect(first.agents[0].context).toEqual({ level: 'calm', percent: 50 });
    // Totals grew (the background pass read on) and the activity object is new with equal values: same record.
    const totalsOnly = selectWorld({ fleet: snapshot(2, people, [withUsage(100_000, 5000)]), ui: noUi }, cache);
    expect(totalsOnly.agents[0]).toBe(first.agents[0]);
    const fuller = selectWorld({ fleet: snapshot(3, people, [withUsage(170_000, 5000)]), ui: noUi }, cache);
    expect(fuller.agents[0]).not.toBe(first.agents[0]);
    expect(fuller.agents[0].context).toEqual({ level: 'warning', percent: 85 });
    const gone = selectWorld({ fleet: snapshot(4, people, [seat('a', 1)]), ui: noUi }, cache);
    expect(gone.agents[0].context).toEqual({ level: 'unknown', percent: null });
    // An agent without a seat has no usage: unknown, never an empty bar.
    expect(selectWorld({ fleet: snapshot(5, [persona('b')], []), ui: noUi }).agents[0].context.level).toBe('unknown');
  });

  it('keeps an agent\'s very record while its persona, seat, pending role and team are unchanged', () => {
    const cache = new AgentModelCache();
    const people = [persona('a', 'builder'), persona('b', 'tester')];
    const seats = [seat('a', 1), seat('b', 0)];
    const first = selectWorld({ fleet: snapshot(1, people, seats), ui: noUi }, cache);
    // The next snapshot changes only b's seat (as a change applied onto the snapshot before would).
    const second = selectWorld({ fleet: snapshot(2, people, [seats[0], seat('b', 2)]), ui: noUi }, cache);
    expect(second.agents[0]).toBe(first.agents[0]);
    expect(second.agents[1]).not.toBe(first.agents[1]);
    expect(second.agents[1].subagents).toBe(2);
    const pending = selectWorld({ fleet: snapshot(3, people, [seats[0], seat('b', 2)]), ui: { ...noUi, pending: { a: { role: 'planner', previous: 'builder' } } } }, cache);
    expect(pending.agents[0]).not.toBe(first.agents[0]);
    expect(pending.agents[0].stationKey).toBe('planner');
    const gone = selectWorld({ fleet: snapshot(4, [people[1]], [seat('b', 2)]), ui: noUi }, cache);
    expect(gone.agents.map((agent) => agent.id)).toEqual(['b']);
    expect(cache.entries.has('a')).toBe(false);
  });

  it('shows the six built-ins in order, custom stations, then the lobby, and places agents by role key', () => {
    const world = selectWorld({ fleet: snapshot(1, [persona('a', 'Builder'), persona('b', 'sound designer'), persona('c')], []), ui: noUi });
    expect(world.stations.map((station) => station.key)).toEqual(['planner', 'designer', 'builder', 'tester', 'reviewer', 'researcher', 'sound designer', '']);
    expect(world.stations.find((station) => station.key === 'sound designer')?.backlogError).toBe('GitHub said 401');
    expect(world.agents.map((agent) => agent.stationKey)).toEqual(['builder', 'sound designer', '']);
  });

  it('shows a pending role at once, with a station for a new custom role', () => {
    const ui = { ...noUi, pending: { a: { role: 'Lighting', previous: 'builder' } } };
    const world = selectWorld({ fleet: snapshot(1, [persona('a', 'builder')], []), ui });
    expect(world.agents[0]).toMatchObject({ stationKey: 'lighting', pending: true });
    expect(world.stations.some((station) => station.key === 'lighting')).toBe(true);
  });

  it('keeps unknown subagents unknown: "?" for an absent summary or no seat, hidden at zero', () => {
    const world = selectWorld({ fleet: snapshot(1, [persona('a'), persona('b'), persona('c')], [seat('a', 0), seat('b')]), ui: noUi });
    expect(world.agents.map((agent) => badgeText(agent.subagents))).toEqual([null, '?', '?']);
    expect(badgeText(3)).toBe('3');
  });
});

describe('reconcile', () => {
  it('keeps unchanged records identical and reports added, changed and removed ones', () => {
    const first = selectWorld({ fleet: snapshot(1, [persona('a'), persona('b')], [seat('a', 1), seat('b', 1)]), ui: noUi }).agents;
    const firstPass = reconcile(new Map(), first, (agent) => agent.id);
    expect(firstPass.added.map((agent) => agent.id)).toEqual(['a', 'b']);
    const previous = new Map(firstPass.records.map((agent) => [agent.id, agent]));
    const next = selectWorld({ fleet: snapshot(2, [persona('a'), persona('c')], [seat('a', 2), seat('c', 0)]), ui: noUi }).agents;
    const second = reconcile(previous, next, (agent) => agent.id);
    expect(second.changed.map((agent) => agent.id)).toEqual(['a']);
    expect(second.added.map((agent) => agent.id)).toEqual(['c']);
    expect(second.removed).toEqual(['b']);
    const same = reconcile(new Map(second.records.map((agent) => [agent.id, agent])), selectWorld({ fleet: snapshot(3, [persona('a'), persona('c')], [seat('a', 2), seat('c', 0)]), ui: noUi }).agents, (agent) => agent.id);
    expect(same.changed).toEqual([]);
    expect(same.records[0]).toBe(second.records[0]);
  });
});

describe('drawnAlike', () => {
  const agentOf = (change: (seat: Seat) => Seat) => selectWorld({ fleet: snapshot(1, [persona('a')], [change(seat('a', 2))]), ui: noUi }).agents[0];
  const base = agentOf((one) => one);

  it('holds when only what the world does not draw changed: a tool label, when the state began, usage below the next percent', () => {
    const labelled = agentOf((one) => ({ ...one, activity: { state: 'working', certain: true, since: '2026-12-08T00:00:00Z', label: 'Read · a.ts' } }));
    expect(labelled).not.toBe(base);
    expect(drawnAlike(base, labelled)).toBe(true);
    const recent = agentOf((one) => ({ ...one, subagents: { running: 2, recent: [{ nativeId: 'n1', label: 'x', kind: 'Explore', background: false, state: 'running', startedAt: '2026-12-08T00:00:00Z', replayable: true }] } }));
    expect(drawnAlike(base, recent)).toBe(true);
  });

  it('fails for every change the world draws: badge, state, bubble, name, context bar, marks', () => {
    expect(drawnAlike(base, agentOf((one) => ({ ...one, subagents: { running: 3, recent: [] } })))).toBe(false);
    expect(drawnAlike(base, agentOf((one) => ({ ...one, activity: { state: 'idle', certain: true, since: null } })))).toBe(false);
    expect(drawnAlike(base, agentOf((one) => ({ ...one, activity: { state: 'needs-you', why: 'question', certain: true, since: null } })))).toBe(false);
    const asking = agentOf((one) => ({ ...one, activity: { state: 'needs-you', why: 'question', certain: true, since: null } }));
    expect(drawnAlike(asking, agentOf((one) => ({ ...one, activity: { state: 'needs-you', why: 'approval', certain: true, since: null } })))).toBe(false);
    expect(drawnAlike(base, { ...base, name: 'Renamed' })).toBe(false);
    expect(drawnAlike(base, { ...base, context: { ...base.context, percent: (base.context.percent ?? 0) + 1 } })).toBe(false);
    expect(drawnAlike(base, { ...base, drift: ['new-kind'] })).toBe(false);
    expect(drawnAlike({ ...base, drift: ['one'] }, { ...base, drift: ['two'] })).toBe(true);
    expect(drawnAlike(base, { ...base, nearCompact: 92 })).toBe(false);
    expect(drawnAlike({ ...base, nearCompact: 92 }, { ...base, nearCompact: 95 })).toBe(true);
    expect(drawnAlike(base, { ...base, appearance: { ...base.appearance, hair: 5 } })).toBe(false);
    expect(drawnAlike(base, { ...base, unreachable: true })).toBe(false);
  });
});
