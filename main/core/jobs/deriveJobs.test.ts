import { describe, expect, it } from 'vitest';
import type { FleetSnapshot, Seat, SubagentEntry } from '../../../shared/schemas';
import { aliasRequestsOf, deriveJobs } from './deriveJobs';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const ago = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

function entry(nativeId: string | null, overrides: Partial<SubagentEntry> = {}): SubagentEntry {
  return { nativeId, label: `job ${nativeId}`, kind: 'Explore', background: false, state: 'running', startedAt: ago(1), replayable: true, ...overrides };
}

function seat(id: string, personaId: string, running: number | null, recent: SubagentEntry[]): Seat {
  return {
    id,
    harness: id.startsWith('codex') ? 'codex' : 'claude',
    personaId,
    address: { harness: id.startsWith('codex') ? 'codex' : 'claude', home: '/h', sessionId: id.split(':')[1] },
    activity: { state: 'idle', certain: true, since: null },
    ...(running === null ? { unknownReason: 'unreadable' } : { subagents: { running, recent } }),
  } as Seat;
}

const personas = [
  { id: 'p_a', name: 'Ada', role: 'builder', appearance: { body: 0, hair: 0, palette: 0, accessory: 0 }, createdAt: '', updatedAt: '' },
  { id: 'p_b', name: 'Bo', appearance: { body: 0, hair: 0, palette: 0, accessory: 0 }, createdAt: '', updatedAt: '' },
];

function snapshot(seats: Seat[]): Pick<FleetSnapshot, 'seats' | 'personas'> {
  return { seats, personas };
}

describe('rule J1: every running subagent of every known seat is a job', () => {
  it('lists running entries with their parent, alias and kind; a "?" seat has none', () => {
    const { jobs } = deriveJobs(
      snapshot([
        seat('claude:s1', 'p_a', 2, [entry('t1', { background: true, startedAt: ago(3) }), entry('t2')]),
        seat('codex:s2', 'p_b', 1, [entry('c1', { kind: null })]),
        seat('claude:s3', 'p_b', null, []),
      ]),
      new Map([['claude:s1|t1', 'explore-1']]),
      NOW,
    );
    expect(jobs.map((job) => [job.nativeId, job.alias, job.persona, job.role, job.harness, job.kind])).toEqual([
      ['t1', 'explore-1', 'Ada', 'builder', 'claude', 'background'],
      ['t2', null, 'Ada', 'builder', 'claude', 'foreground'],
      ['c1', null, 'Bo', null, 'codex', 'foreground'],
    ]);
  });
});

describe('rule J2: ended subagents stay 30 minutes', () => {
  it('keeps one that ended 29 minutes ago and drops one that ended 31 minutes ago', () => {
    const { jobs } = deriveJobs(
      snapshot([
        seat('claude:s1', 'p_a', 0, [
          entry('fresh', { state: 'ended', endedAt: ago(29), outcome: 'completed' }),
          entry('stale', { state: 'ended', endedAt: ago(31), outcome: 'completed' }),
          entry('noend', { state: 'ended', startedAt: ago(40) }),
        ]),
      ]),
      new Map(),
      NOW,
    );
    expect(jobs.map((job) => job.nativeId)).toEqual(['fresh']);
    expect(jobs[0]).toMatchObject({ state: 'ended', outcome: 'completed', endedAt: ago(29) });
  });
});

describe('rule J5: running subagents counted but not listed are reported, not invented', () => {
  it('reports the difference between the count and the listed running entries', () => {
    const { jobs, unlisted } = deriveJobs(snapshot([seat('claude:s1', 'p_a', 5, [entry('t1'), entry('t2')])]), new Map(), NOW);
    expect(jobs).toHaveLength(2);
    expect(unlisted).toEqual([{ seatId: 'claude:s1', running: 3, harness: 'claude', persona: 'Ada', role: 'builder' }]);
  });
});

describe('alias requests', () => {
  it('ask for every listed entry with a native id, ended ones included', () => {
    const requests = aliasRequestsOf([seat('claude:s1', 'p_a', 1, [entry('t1'), entry(null), entry('t0', { state: 'ended', endedAt: ago(90), kind: 'Plan' })])]);
    expect(requests).toEqual([
      { key: 'claude:s1|t1', type: 'Explore' },
      { key: 'claude:s1|t0', type: 'Plan' },
    ]);
  });
});
