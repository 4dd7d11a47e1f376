// Budget warnings (issue 41, rules P1–P3): once per seat crossing the context mark, once per plan window.
import { describe, expect, it } from 'vitest';
import { NotificationSchema } from '../../../shared/contract';
import type { SeatWindow } from '../../../shared/limits';
import type { Seat } from '../../../shared/schemas';
import { activity, persona, seat } from '../history/testing/records';
import { decidePaceNotes, projectedPercent, type PaceMarks } from './paceRules';

const NOW = Date.parse('2026-12-07T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const budget = { contextWarnPercent: 90, windowWarnPercent: 90, on: true };
const HOUR = 3_600_000;

const withFill = (fill: number): Seat => ({ ...seat('claude:a', 'p1', activity('working', iso(NOW))), usage: { context: { used: fill * 200_000, window: 200_000, fill }, totals: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, partial: false } });
const codexSeat = (window: SeatWindow): Seat => ({
  ...seat('codex:b', 'p2', activity('working', iso(NOW))),
  harness: 'codex',
  usage: { context: null, totals: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, partial: false, limits: { windows: [window], limited: null, skipped: 0 } },
});
const people = [persona('p1', 'Ada'), persona('p2', 'Bo')];

describe('budget warnings', () => {
  it('P1: "context 92 % — near auto-compact" once when a seat crosses the mark; again only after it fell below and rose', () => {
    let marks: PaceMarks | null = decidePaceNotes(null, { seats: [withFill(0.5)], personas: people }, budget, NOW, false).marks;
    const crossed = decidePaceNotes(marks, { seats: [withFill(0.925)], personas: people }, budget, NOW, false);
    expect(crossed.notes).toEqual([{ seatId: 'claude:a', personaId: 'p1', title: 'Ada', body: 'context 92 % — near auto-compact', budget: { kind: 'context', key: 'claude:a' }, certain: true, sound: false }]);
    expect(NotificationSchema.parse(crossed.notes[0])).toBeTruthy();
    marks = crossed.marks;
    const still = decidePaceNotes(marks, { seats: [withFill(0.95)], personas: people }, budget, NOW, false);
    expect(still.notes).toEqual([]);
    const compacted = decidePaceNotes(still.marks, { seats: [withFill(0.3)], personas: people }, budget, NOW, false);
    expect(decidePaceNotes(compacted.marks, { seats: [withFill(0.91)], personas: people }, budget, NOW, false).notes).toHaveLength(1);
    // Already past the mark at the first census: the baseline, no notification; nothing at all while budget is off.
    expect(decidePaceNotes(null, { seats: [withFill(0.99)], personas: people }, budget, NOW, false).notes).toEqual([]);
    expect(decidePaceNotes(marks, { seats: [withFill(0.3)], personas: people }, budget, NOW, false).notes).toEqual([]);
    expect(decidePaceNotes(compacted.marks, { seats: [withFill(0.99)], personas: people }, { ...budget, on: false }, NOW, false).notes).toEqual([]);
  });

  it('P2: a window at 90 % notifies once; the next window (a new reset time) notifies afresh; a window that reset says nothing', () => {
    const window = (used: number, resetsAt: number): SeatWindow => ({ window: 'primary', minutes: 300, usedPercent: used, resetsAt: iso(resetsAt), recordedAt: iso(NOW - 60_000) });
    const first = decidePaceNotes(null, { seats: [codexSeat(window(91, NOW + HOUR))], personas: people }, budget, NOW, false);
    expect(first.notes).toHaveLength(1);
    expect(first.notes[0]).toMatchObject({ title: 'Plan window', personaId: 'p2', budget: { kind: 'window' } });
    expect(first.notes[0].body).toMatch(/^Codex 5 h window 91 % used — resets \d\d:\d\d$/);
    const again = decidePaceNotes(first.marks, { seats: [codexSeat(window(96, NOW + HOUR))], personas: people }, budget, NOW, false);
    expect(again.notes).toEqual([]);
    expect(decidePaceNotes(again.marks, { seats: [codexSeat(window(92, NOW + 6 * HOUR))], personas: people }, budget, NOW, false).notes).toHaveLength(1);
    expect(decidePaceNotes(null, { seats: [codexSeat(window(99, NOW - 1))], personas: people }, budget, NOW, false).notes).toEqual([]);
  });

  it('P3: a window projected to run out before its reset notifies; too early to tell, or no length, does not', () => {
    // 3 of 5 hours gone (reset in 2 h) at 70 %: 70 × 5 / 3 ≈ 117 % by the reset.
    const fast: SeatWindow = { window: 'primary', minutes: 300, usedPercent: 70, resetsAt: iso(NOW + 2 * HOUR), recordedAt: iso(NOW) };
    expect(projectedPercent({ harness: 'codex', seatId: 'codex:b', ...fast }, NOW)).toBeCloseTo(116.67, 1);
    const notes = decidePaceNotes(null, { seats: [codexSeat(fast)], personas: people }, budget, NOW, false).notes;
    expect(notes).toHaveLength(1);
    expect(notes[0].body).toContain('projected to run out before it resets');
    const early: SeatWindow = { ...fast, usedPercent: 8, resetsAt: iso(NOW + 4.9 * HOUR) };
    expect(projectedPercent({ harness: 'codex', seatId: 'codex:b', ...early }, NOW)).toBeNull();
    expect(decidePaceNotes(null, { seats: [codexSeat({ ...fast, minutes: null })], personas: people }, budget, NOW, false).notes).toEqual([]);
  });
});
