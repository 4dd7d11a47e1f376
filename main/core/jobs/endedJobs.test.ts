import { describe, expect, it } from 'vitest';
import type { Job } from '../../../shared/jobs';
import { EndedJobs } from './endedJobs';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const minutes = (count: number) => new Date(NOW - count * 60_000).toISOString();

function job(nativeId: string, state: Job['state'], endedMinutesAgo: number | null, seatId = 'seat-1'): Job {
  return {
    alias: null, nativeId, seatId, personaId: 'p1', persona: 'Pip', role: null, harness: 'claude', type: 'explorer', label: nativeId,
    kind: 'foreground', state, startedAt: minutes((endedMinutesAgo ?? 0) + 5), ...(endedMinutesAgo === null ? {} : { endedAt: minutes(endedMinutesAgo) }), replayable: true,
  } as Job;
}
const seat = (id = 'seat-1', known = true) => ({ id, subagents: known ? ({ running: 0, recent: [] } as never) : undefined });

describe('rule J2b: ended jobs stay their 30 minutes after the summary stops listing them', () => {
  it('keeps an ended job pushed out of the eight most recent until its window closes', () => {
    const ended = new EndedJobs();
    const a = job('a', 'ended', 2);
    expect(ended.merge([job('b', 'running', null), a], [seat()], NOW).map((entry) => entry.nativeId)).toEqual(['b', 'a']);
    // The summary lists newer jobs now; "a" is no longer among them.
    expect(ended.merge([job('c', 'running', null)], [seat()], NOW).map((entry) => entry.nativeId)).toEqual(['c', 'a']);
    // 29 minutes later its 30 minutes are over.
    expect(ended.merge([], [seat()], NOW + 29 * 60_000).map((entry) => entry.nativeId)).toEqual([]);
  });

  it('forgets the jobs of a seat that went or became unknown, and lets a listed entry win', () => {
    const ended = new EndedJobs();
    ended.merge([job('a', 'ended', 1)], [seat()], NOW);
    expect(ended.merge([], [seat('seat-1', false)], NOW)).toEqual([]);
    ended.merge([job('a', 'ended', 1)], [seat()], NOW);
    const relisted = { ...job('a', 'ended', 1), label: 'renamed' };
    expect(ended.merge([relisted], [seat()], NOW)).toEqual([relisted]);
    expect(ended.merge([], [], NOW)).toEqual([]);
  });

  it('never remembers a running job: one that leaves the summary still runs and is counted as unlisted', () => {
    const ended = new EndedJobs();
    ended.merge([job('a', 'running', null)], [seat()], NOW);
    expect(ended.merge([], [seat()], NOW)).toEqual([]);
  });
});
