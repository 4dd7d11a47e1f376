import { describe, expect, it } from 'vitest';
import { ACTIVITY_LABEL_MAX, ActivitySchema } from '../../../../shared/schemas';
import { capLabel, evaluateActivity, needs, working } from './activityBasis';

describe('capLabel', () => {
  it('folds whitespace and keeps a label within the limit whole', () => {
    expect(capLabel('  Edit ·\n World.ts  ')).toBe('Edit · World.ts');
    expect(capLabel('x'.repeat(ACTIVITY_LABEL_MAX))).toBe('x'.repeat(ACTIVITY_LABEL_MAX));
  });

  it('cuts a long label to the limit in UTF-16 units, as the contract counts, ending in an ellipsis', () => {
    const cut = capLabel('y'.repeat(200));
    expect(cut.length).toBe(ACTIVITY_LABEL_MAX);
    expect(cut.endsWith('…')).toBe(true);
  });

  it('never splits a surrogate pair, and a label of emoji passes the contract', () => {
    const cut = capLabel('🚀'.repeat(ACTIVITY_LABEL_MAX));
    expect(cut.length).toBeLessThanOrEqual(ACTIVITY_LABEL_MAX);
    expect([...cut.slice(0, -1)].every((char) => char === '🚀')).toBe(true);
    expect(ActivitySchema.safeParse(working(null, '🚀'.repeat(ACTIVITY_LABEL_MAX))).success).toBe(true);
    expect(ActivitySchema.safeParse(needs('question', true, null, 'é🚀'.repeat(60))).success).toBe(true);
  });
});

describe('implausible times (issue 36)', () => {
  const now = Date.UTC(2026, 5, 1, 12);
  it.each([['nope'], ['9999-12-31T00:00:00.000Z'], ['1970-01-01T00:00:00.000Z'], [new Date(now + 3 * 86_400_000).toISOString()]])('since %s is unknown', (since) => {
    expect(evaluateActivity({ current: { state: 'working', certain: true, since } }, now).since).toBeNull();
  });
  it.each([['nope'], ['9999-12-31T00:00:00.000Z'], ['1970-01-01T00:00:00.000Z']])('a turn-done at %s still idles: measured from the seat’s last write', (since) => {
    const basis = { current: needs('turn-done', true, since) };
    // Written a minute ago: the owner has not moved on yet; its time is unknown, never "for 0 s".
    expect(evaluateActivity(basis, now, now - 60_000)).toEqual({ state: 'needs-you', why: 'turn-done', certain: true, since: null });
    // Written 31 minutes ago: idle by rule 7, as a turn-done with a good time would be.
    expect(evaluateActivity(basis, now, now - 31 * 60_000)).toEqual({ state: 'idle', certain: true, since: null });
    // No time at all to measure from: idle, since unknown, not certain.
    expect(evaluateActivity(basis, now, null)).toEqual({ state: 'idle', certain: false, since: null });
    expect(evaluateActivity(basis, now)).toEqual({ state: 'idle', certain: false, since: null });
  });
  it('a turn-done reached through the quiet step with a garbage time idles too', () => {
    const basis = { current: working(null), later: { atMs: 5_000, activity: needs('turn-done', false, 'nope') } };
    expect(evaluateActivity(basis, now, now - 40 * 60_000).state).toBe('idle');
  });
  it('a plausible since is kept as it is', () => {
    const since = new Date(now - 60_000).toISOString();
    expect(evaluateActivity({ current: { state: 'working', certain: true, since } }, now).since).toBe(since);
  });
});
