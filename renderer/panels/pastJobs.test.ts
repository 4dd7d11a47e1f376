import { describe, expect, it } from 'vitest';
import type { Job } from '../../shared/jobs';
import { jobsAsOf } from './pastJobs';

const at = (hh: number, mm: number) => Date.UTC(2026, 0, 1, hh, mm);
const iso = (ms: number) => new Date(ms).toISOString();
function job(nativeId: string, started: number, ended?: number): Job {
  return {
    alias: nativeId, nativeId, seatId: 's', personaId: 'p', persona: 'Pip', role: null, harness: 'claude', type: 'explorer', label: nativeId, kind: 'foreground',
    state: ended === undefined ? 'running' : 'ended', startedAt: iso(started), ...(ended === undefined ? {} : { endedAt: iso(ended), outcome: 'completed' as const }), replayable: true,
  } as Job;
}

describe('the jobs board as of a past moment', () => {
  it('lists only the jobs started by then, each as it was then', () => {
    const board = { jobs: [job('later', at(2, 15)), job('ran-through', at(2, 0), at(2, 30)), job('ended-before', at(1, 50), at(2, 5)), job('long-gone', at(1, 0), at(1, 20))] };
    const past = jobsAsOf(board, at(2, 9));
    expect(past.jobs.map((entry) => [entry.nativeId, entry.state])).toEqual([['ran-through', 'running'], ['ended-before', 'ended']]);
    expect(past.jobs[0].endedAt).toBeUndefined();
    expect(past.jobs[0].outcome).toBeUndefined();
    expect(past.unlisted).toEqual([]);
  });
});
