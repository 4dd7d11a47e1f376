import { describe, expect, it } from 'vitest';
import type { DigestEntry } from '../../shared/history';
import { digestLine, digestSummary, orderDigest, waitPhrase } from './digest';

const entry = (kind: DigestEntry['kind'], personaId: string, at: string, more: Partial<DigestEntry> = {}): DigestEntry => ({ kind, personaId, seatId: `seat-${personaId}`, name: personaId.toUpperCase(), role: null, at, ...more });

describe('the away digest', () => {
  it('orders still waiting first, then waits that ended, longest first, then the rest by kind, newest first', () => {
    const entries = [
      entry('error', 'e', '2026-12-05T08:10:00Z', { label: 'Bash' }),
      entry('turn-done', 't1', '2026-12-05T08:05:00Z', { count: 2 }),
      entry('waited', 'w1', '2026-12-05T08:00:00Z', { why: 'question', waitedMs: 60_000 }),
      entry('launch', 'l', '2026-12-05T08:20:00Z', { harness: 'claude' }),
      entry('waiting', 's1', '2026-12-05T08:30:00Z', { why: 'approval', waitedMs: 120_000 }),
      entry('turn-done', 't2', '2026-12-05T08:15:00Z'),
      entry('job-ended', 'j', '2026-12-05T08:12:00Z', { alias: 'explore-1', outcome: 'completed' }),
      entry('waited', 'w2', '2026-12-05T07:50:00Z', { why: 'plan', waitedMs: 600_000 }),
      entry('waiting', 's2', '2026-12-05T08:01:00Z', { why: 'question', waitedMs: 1_800_000 }),
    ];
    expect(orderDigest(entries).map((item) => item.personaId)).toEqual(['s2', 's1', 'w2', 'w1', 't2', 't1', 'j', 'l', 'e']);
    // A copy: the answer as main sent it is left as it was.
    expect(entries[0].personaId).toBe('e');
  });

  it('says how long in whole units', () => {
    expect(waitPhrase(45_000)).toBe('45 s');
    expect(waitPhrase(23 * 60_000 + 59_000)).toBe('23 min');
    expect(waitPhrase(2 * 3_600_000)).toBe('2 h');
    expect(waitPhrase(65 * 60_000)).toBe('1 h 5 min');
    expect(waitPhrase(27 * 3_600_000)).toBe('1 d 3 h');
  });

  it('words each kind of line with its labels', () => {
    expect(digestLine(entry('waiting', 'bo', 'x', { why: 'question', waitedMs: 1_380_000, label: 'AskUserQuestion' }))).toMatchObject({ text: 'BO is still waiting (23 min)', detail: 'has a question · AskUserQuestion' });
    expect(digestLine(entry('waited', 'bo', 'x', { why: 'plan', waitedMs: 300_000 })).text).toBe('BO waited 5 min for you');
    expect(digestLine(entry('turn-done', 'bo', 'x', { count: 3, role: 'reviewer' }))).toMatchObject({ text: 'BO finished 3 turns', detail: 'as Reviewer' });
    expect(digestLine(entry('turn-done', 'bo', 'x')).text).toBe('BO finished a turn');
    expect(digestLine(entry('job-ended', 'bo', 'x', { alias: 'explore-2', type: 'Explore', outcome: 'failed', label: 'Scan the tree' }))).toMatchObject({ text: "BO's job explore-2 ended", detail: 'Explore · failed · Scan the tree' });
    expect(digestLine(entry('launch', 'bo', 'x', { harness: 'codex', role: 'builder' }))).toMatchObject({ text: 'BO was launched', detail: 'Codex · as Builder' });
    expect(digestLine(entry('error', 'bo', 'x'))).toMatchObject({ text: 'BO stopped on an error', detail: '' });
  });

  it('sums the kinds in the heading and leaves out those with none', () => {
    expect(digestSummary([entry('waiting', 'a', 'x'), entry('waited', 'b', 'x'), entry('turn-done', 'c', 'x', { count: 4 }), entry('job-ended', 'd', 'x')])).toBe('2 waits for you · 4 turns finished · 1 job ended');
    expect(digestSummary([entry('launch', 'a', 'x'), entry('launch', 'b', 'x'), entry('error', 'c', 'x')])).toBe('2 launches · 1 error');
    expect(digestSummary([])).toBe('');
  });
});
