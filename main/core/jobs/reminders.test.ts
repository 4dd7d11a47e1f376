import { describe, expect, it } from 'vitest';
import type { Job } from '../../../shared/jobs';
import { ReminderClock } from './reminders';

const START = Date.parse('2026-03-01T10:00:00.000Z');
const minute = 60_000;

function job(overrides: Partial<Job> = {}): Job {
  return {
    alias: 'explore-1',
    nativeId: 'toolu_1',
    seatId: 'claude:s1',
    personaId: 'p_1',
    persona: 'Ada',
    role: 'builder',
    harness: 'claude',
    type: 'Explore',
    label: 'Survey icon sizes',
    kind: 'background',
    state: 'running',
    startedAt: new Date(START).toISOString(),
    replayable: true,
    ...overrides,
  };
}

/** A fake clock: the reminder clock is evaluated at the minutes given, as the service's timer would. */
function run(clock: ReminderClock, jobs: (at: number) => Job[], minutes: number[]) {
  return minutes.map((at) => clock.evaluate(jobs(at), START + at * minute));
}

describe('rule R1: a long background job reminds after backgroundMinutes, then every everyMinutes', () => {
  it('reminds at 10 minutes, then at 40 and 70, once each', () => {
    const clock = new ReminderClock({ backgroundMinutes: 10, everyMinutes: 30, on: true });
    const results = run(clock, () => [job()], [0, 9.9, 10, 11, 39.9, 40, 41, 70]);
    expect(results.map((result) => result.notices.map((notice) => notice.kind))).toEqual([
      [], [], ['job-reminder'], [], [], ['job-reminder'], [], ['job-reminder'],
    ]);
    expect(results[3].jobs[0].reminder).toEqual({ count: 1, lastAt: new Date(START + 10 * minute).toISOString() });
    expect(results[7].jobs[0].reminder?.count).toBe(3);
    expect(results[0].jobs[0].reminder).toBeUndefined();
    expect(results[0].nextDueAt).toBe(START + 10 * minute);
    expect(results[2].nextDueAt).toBe(START + 40 * minute);
    expect(results[2].notices[0]).toMatchObject({ seatId: 'claude:s1', personaId: 'p_1', alias: 'explore-1', title: 'explore-1 is still running' });
    expect(results[2].notices[0].body).toContain('10 min');
  });

  it('raises one reminder, not a burst, when the clock jumps past several due times', () => {
    const clock = new ReminderClock({ backgroundMinutes: 10, everyMinutes: 30, on: true });
    const [jump] = run(clock, () => [job()], [95]);
    expect(jump.notices).toHaveLength(1);
    expect(jump.nextDueAt).toBe(START + 125 * minute);
  });

  it('follows the settings', () => {
    const clock = new ReminderClock({ backgroundMinutes: 2, everyMinutes: 5, on: true });
    const results = run(clock, () => [job()], [1, 2, 6, 7]);
    expect(results.map((result) => result.notices.length)).toEqual([0, 1, 0, 1]);
  });
});

describe('rule R2: foreground jobs do not remind', () => {
  it('stays quiet for a foreground job however long it runs', () => {
    const clock = new ReminderClock({ backgroundMinutes: 10, everyMinutes: 30, on: true });
    const results = run(clock, () => [job({ kind: 'foreground' })], [10, 60, 600]);
    expect(results.flatMap((result) => result.notices)).toEqual([]);
    expect(results.every((result) => result.nextDueAt === null)).toBe(true);
  });
});

describe('rule R3: a reminded job that ends says so once, with its outcome', () => {
  it('sends one finished notice and keeps its mark', () => {
    const clock = new ReminderClock({ backgroundMinutes: 10, everyMinutes: 30, on: true });
    const ended = job({ state: 'ended', endedAt: new Date(START + 12 * minute).toISOString(), outcome: 'completed' });
    const results = run(clock, (at) => [at < 12 ? job() : ended], [10, 12, 13]);
    expect(results.map((result) => result.notices.map((notice) => notice.kind))).toEqual([['job-reminder'], ['job-finished'], []]);
    expect(results[1].notices[0].body).toContain('completed');
    expect(results[2].jobs[0].reminder?.count).toBe(1);
  });

  it('sends nothing for a job that ended before any reminder', () => {
    const clock = new ReminderClock({ backgroundMinutes: 10, everyMinutes: 30, on: true });
    const ended = job({ state: 'ended', endedAt: new Date(START + 5 * minute).toISOString(), outcome: 'failed' });
    expect(run(clock, (at) => [at < 5 ? job() : ended], [1, 5, 20]).flatMap((result) => result.notices)).toEqual([]);
  });

  it('forgets a job that left the board without ending (its seat closed), with no notice', () => {
    const clock = new ReminderClock({ backgroundMinutes: 10, everyMinutes: 30, on: true });
    const results = run(clock, (at) => (at < 20 ? [job()] : []), [10, 20]);
    expect(results[1].notices).toEqual([]);
    // Back on the board (the seat reopened): it is a fresh reminder, counted from the job's own start.
    expect(clock.evaluate([job()], START + 21 * minute).notices.map((notice) => notice.id)).toEqual(['job-reminder:claude:s1|toolu_1:1']);
  });
});

describe('rule R4: reminders off', () => {
  it('never reminds', () => {
    const clock = new ReminderClock({ backgroundMinutes: 10, everyMinutes: 30, on: false });
    expect(run(clock, () => [job()], [10, 100]).flatMap((result) => result.notices)).toEqual([]);
  });
});
