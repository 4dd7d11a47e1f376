// The board row's texts: elapsed time, state or outcome, the reminder mark.
import { describe, expect, it } from 'vitest';
import { elapsedText, jobStateText, reminderText } from './jobRow';

describe('job row texts', () => {
  it('elapsed time in seconds, minutes, hours', () => {
    expect([elapsedText(0), elapsedText(59_999), elapsedText(192_000), elapsedText(7_500_000)]).toEqual(['0s', '59s', '3m 12s', '2h 5m']);
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
});
