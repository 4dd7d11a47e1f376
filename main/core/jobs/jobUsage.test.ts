// Issue 26: a job carries its subagent entry's own usage (its transcript's totals), and none when the entry has none.
import { describe, expect, it } from 'vitest';
import type { Seat } from '../../../shared/schemas';
import { deriveJobs } from './deriveJobs';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const usage = { totals: { input: 1_500, output: 10, cacheRead: 0, cacheWrite: 0 }, partial: false, cost: { usd: 0.00155, estimated: true } };

describe('job usage', () => {
  it('copies the entry\'s usage onto its job', () => {
    const seat = {
      id: 'claude:s1',
      harness: 'claude',
      personaId: 'p_a',
      address: { harness: 'claude', home: '/h', sessionId: 's1' },
      activity: { state: 'idle', certain: true, since: null },
      subagents: {
        running: 2,
        recent: [
          { nativeId: 't1', label: 'Survey', kind: 'Explore', background: false, state: 'running', startedAt: new Date(NOW - 60_000).toISOString(), replayable: true, usage },
          { nativeId: 't2', label: 'Plan', kind: 'Plan', background: false, state: 'running', startedAt: new Date(NOW - 30_000).toISOString(), replayable: true },
        ],
      },
    } as Seat;
    const personas = [{ id: 'p_a', name: 'Ada', appearance: { body: 0, hair: 0, palette: 0, accessory: 0 }, createdAt: '', updatedAt: '' }];
    const { jobs } = deriveJobs({ seats: [seat], personas }, new Map(), NOW);
    expect(jobs.find((job) => job.nativeId === 't1')?.usage).toEqual(usage);
    expect(jobs.find((job) => job.nativeId === 't2')).not.toHaveProperty('usage');
  });
});
