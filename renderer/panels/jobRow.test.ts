// The board row's texts: elapsed time, state or outcome, the reminder mark.
import { describe, expect, it } from 'vitest';
import { elapsedText, jobStateText, jobTokensText, jobTokensTitle, reminderText } from './jobRow';

describe('job row texts', () => {
  it('elapsed time in seconds, minutes, hours', () => {
    expect([elapsedText(0), elapsedText(59_999), elapsedText(192_000), elapsedText(7_500_000)]).toEqual(['0 s', '59 s', '3 min 12 s', '2 h 5 min']);
  });

  it('state: running, or ended with its outcome (unknown and estimated said so)', () => {
    expect(jobStateText({ state: 'running' })).toBe('running');
    expect(jobStateText({ state: 'ended', outcome: 'failed' })).toBe('ended: failed');
    expect(jobStateText({ state: 'ended', outcome: 'unknown' })).toBe('ended: outcome unknown');
    expect(jobStateText({ state: 'ended', outcome: 'idle', endedAtEstimated: true })).toBe('ended: idle (estimated)');
  });

  it('reminder mark: none, once, or how many times', () => {
    expect([reminderText({}), reminderText({ reminder: { count: 1, lastAt: 'x' } }), reminderText({ reminder: { count: 3, lastAt: 'x' } })]).toEqual(['', 'reminded', 'reminded ×3']);
  });

  it('tokens: "?" when unknown, a compact figure, "≥" while partial; its title has the cost or says there is none', () => {
    const totals = { input: 1_000_000, output: 234_000, cacheRead: 0, cacheWrite: 0 };
    expect(jobTokensText(undefined)).toBe('?');
    expect(jobTokensText({ totals, partial: false })).toBe('1.2M tok');
    expect(jobTokensText({ totals, partial: true })).toBe('≥1.2M tok');
    expect(jobTokensTitle({ totals, partial: false, cost: { usd: 0.5, estimated: false } })).toBe('cost $0.50');
    expect(jobTokensTitle({ totals, partial: false })).toBe('no price for this model');
    expect(jobTokensTitle(undefined)).toMatch(/^Tokens unknown/);
  });
});
