// Fault isolation on the jobs board (issue 36): a job breaking the contract is left off, the rest of the board stays.
import { describe, expect, it } from 'vitest';
import type { Job } from '../../../shared/jobs';
import { guardJobs } from './jobGuard';

const job = (nativeId: string, over: Partial<Job> = {}): Job => ({ alias: null, nativeId, seatId: 'claude:s', personaId: 'p', persona: 'Ada', role: null, harness: 'claude', type: null, label: 'look', kind: 'foreground', state: 'running', startedAt: '2026-01-01T00:00:00.000Z', replayable: true, ...over });

describe('jobs board guard', () => {
  it('keeps the same array when every job passes', () => {
    const jobs = [job('a'), job('b')];
    expect(guardJobs(jobs)).toBe(jobs);
  });

  it('leaves out a job whose usage breaks the contract, logs it once, keeps the others', () => {
    const logs: string[] = [];
    const bad = job('bad', { usage: { totals: { input: 1e15, output: 0, cacheRead: 0, cacheWrite: 0 }, partial: false } });
    const jobs = [job('a'), bad, job('b')];
    expect(guardJobs(jobs, (line) => logs.push(line)).map((entry) => entry.nativeId)).toEqual(['a', 'b']);
    guardJobs(jobs, (line) => logs.push(line));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain('usage.totals.input');
  });
});
