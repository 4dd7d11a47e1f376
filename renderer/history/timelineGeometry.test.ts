import { describe, expect, it } from 'vitest';
import type { HistoryBucket } from '../../shared/history';
import { clockLabel, jobColumns, MIN_TICK_GAP_PX, msAt, needsYouStrips, pastBanner, scaleOf, ticks, xOf } from './timelineGeometry';

const HOUR = 3_600_000;
const from = Date.parse('2026-12-05T08:00:00.000Z');
const scale = scaleOf({ from: new Date(from).toISOString(), to: new Date(from + 2 * HOUR).toISOString() }, 800);

describe('the timeline geometry', () => {
  it('maps the span onto the bar and back, clamped to its ends', () => {
    expect(xOf(scale, from)).toBe(0);
    expect(xOf(scale, from + HOUR)).toBe(400);
    expect(xOf(scale, from - HOUR)).toBe(0);
    expect(xOf(scale, from + 5 * HOUR)).toBe(800);
    expect(msAt(scale, 400)).toBe(from + HOUR);
    expect(msAt(scale, -20)).toBe(from);
    expect(msAt(scale, 900)).toBe(from + 2 * HOUR);
    expect(msAt(scale, xOf(scale, from + 1234567))).toBe(from + 1234567);
  });

  it('treats a span not yet recorded as the one moment now', () => {
    const empty = scaleOf({ from: null, to: '2026-12-05T08:00:00.000Z' }, 300);
    expect(empty.fromMs).toBe(empty.toMs);
    expect(xOf(empty, from)).toBe(300);
    expect(msAt(empty, 10)).toBe(from);
    expect(ticks(empty)).toEqual([]);
  });

  it('merges overlapping waits into one strip and runs an open wait to the end', () => {
    const iso = (minutes: number) => new Date(from + minutes * 60_000).toISOString();
    const strips = needsYouStrips(scale, [
      { from: iso(60), to: iso(75) },
      { from: iso(10), to: iso(20) },
      { from: iso(15), to: iso(30) },
      { from: iso(100), to: null },
      { from: iso(-50), to: iso(-40) },
    ]);
    expect(strips).toEqual([
      { x: xOf(scale, from + 10 * 60_000), width: xOf(scale, from + 30 * 60_000) - xOf(scale, from + 10 * 60_000) },
      { x: 400, width: 100 },
      { x: xOf(scale, from + 100 * 60_000), width: 800 - xOf(scale, from + 100 * 60_000) },
    ]);
  });

  it('gives a one-second wait a visible strip', () => {
    const [strip] = needsYouStrips(scale, [{ from: new Date(from + HOUR).toISOString(), to: new Date(from + HOUR + 1000).toISOString() }]);
    expect(strip.width).toBeGreaterThanOrEqual(1);
  });

  it('draws job counts as columns scaled to the busiest bucket, and nothing for quiet buckets', () => {
    const bucket = (minutes: number, running: number, started = 0): HistoryBucket => ({ at: new Date(from + minutes * 60_000).toISOString(), started, ended: 0, running, needsYou: 0 });
    const columns = jobColumns(scale, [bucket(0, 0), bucket(30, 4), bucket(60, 1), bucket(90, 0, 2)], 30 * 60_000, 20);
    expect(columns).toEqual([
      { x: 200, width: 200, height: 20 },
      { x: 400, width: 200, height: 5 },
      { x: 600, width: 200, height: 10 },
    ]);
    expect(jobColumns(scale, [bucket(0, 0)], 60_000, 20)).toEqual([]);
  });

  it('puts ticks on whole clock intervals at least the minimum gap apart', () => {
    const marks = ticks(scale, 0);
    expect(marks.length).toBeGreaterThan(1);
    for (let index = 1; index < marks.length; index += 1) expect(marks[index].x - marks[index - 1].x).toBeGreaterThanOrEqual(MIN_TICK_GAP_PX);
    // 800 px for two hours: 15 minutes is 100 px, the first interval with room.
    expect(marks[1].x - marks[0].x).toBe(100);
    expect(marks[0].x).toBe(0);
  });

  it('labels times by the local clock, and the banner with the day when not today', () => {
    const at = new Date(2026, 11, 5, 14, 32, 10).getTime();
    expect(clockLabel(at)).toBe('14:32');
    expect(pastBanner(at, new Date(2026, 11, 5, 16, 0).getTime())).toBe('PAST · 14:32');
    expect(pastBanner(at, new Date(2026, 11, 7, 9, 0).getTime())).toMatch(/^PAST · \S+ 14:32$/);
  });
});
