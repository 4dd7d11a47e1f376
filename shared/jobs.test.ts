import { describe, expect, it } from 'vitest';
import { filterJobs, runningByHarness, sortJobs, type Job } from './jobs';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const ago = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

function job(alias: string, overrides: Partial<Job> = {}): Job {
  return {
    alias,
    nativeId: alias,
    seatId: 'claude:s',
    personaId: 'p',
    persona: 'Ada',
    role: 'builder',
    harness: 'claude',
    type: 'Explore',
    label: alias,
    kind: 'foreground',
    state: 'running',
    startedAt: ago(1),
    replayable: true,
    ...overrides,
  };
}

describe('rule J3: longest-running first, running before ended', () => {
  it('orders by elapsed time, ended jobs by how long they ran', () => {
    const jobs = [
      job('short', { startedAt: ago(2) }),
      job('done-long', { state: 'ended', startedAt: ago(50), endedAt: ago(20) }),
      job('long', { startedAt: ago(15) }),
      job('done-short', { state: 'ended', startedAt: ago(10), endedAt: ago(9) }),
    ];
    expect(sortJobs(jobs, NOW).map((entry) => entry.alias)).toEqual(['long', 'short', 'done-long', 'done-short']);
  });

  it('breaks ties stably by start and alias', () => {
    const jobs = [job('b', { startedAt: ago(5) }), job('a', { startedAt: ago(5) })];
    expect(sortJobs(jobs, NOW).map((entry) => entry.alias)).toEqual(['a', 'b']);
    expect(sortJobs([...jobs].reverse(), NOW).map((entry) => entry.alias)).toEqual(['a', 'b']);
  });
});

describe('rule J4: filters by harness, role and state', () => {
  const jobs = [
    job('c1'),
    job('x1', { harness: 'codex', role: 'Sound Designer' }),
    job('o1', { harness: 'opencode', role: null, state: 'ended' }),
  ];

  it('keeps everything with no filter', () => {
    expect(filterJobs(jobs, {}).map((entry) => entry.alias)).toEqual(['c1', 'x1', 'o1']);
  });

  it('filters by each field and combines them', () => {
    expect(filterJobs(jobs, { harness: 'codex' }).map((entry) => entry.alias)).toEqual(['x1']);
    expect(filterJobs(jobs, { role: 'sound designer' }).map((entry) => entry.alias)).toEqual(['x1']);
    expect(filterJobs(jobs, { role: '' }).map((entry) => entry.alias)).toEqual(['o1']);
    expect(filterJobs(jobs, { state: 'running' }).map((entry) => entry.alias)).toEqual(['c1', 'x1']);
    expect(filterJobs(jobs, { harness: 'claude', state: 'ended' })).toEqual([]);
  });

  it('counts running jobs per harness', () => {
    expect(runningByHarness(jobs)).toEqual({ claude: 1, codex: 1, opencode: 0 });
  });
});
