import { describe, expect, it } from 'vitest';
import { DrawPlan, mergeRegions } from './drawPlan';
import type { Rect } from './layout';

describe('mergeRegions', () => {
  it('merges overlapping and nearly touching regions into their bounding box, and keeps distant ones apart', () => {
    const regions: Rect[] = [
      { x: 0, y: 0, width: 10, height: 10 },
      { x: 5, y: 5, width: 10, height: 10 },
      { x: 100, y: 100, width: 10, height: 10 },
      { x: 20, y: 0, width: 5, height: 5 },
    ];
    const count = mergeRegions(regions, regions.length);
    expect(count).toBe(2);
    expect(regions.slice(0, count)).toEqual(expect.arrayContaining([{ x: 0, y: 0, width: 25, height: 15 }, { x: 100, y: 100, width: 10, height: 10 }]));
  });

  it('leaves regions past the count alone', () => {
    const regions: Rect[] = [
      { x: 0, y: 0, width: 10, height: 10 },
      { x: 0, y: 0, width: 10, height: 10 },
    ];
    expect(mergeRegions(regions, 1)).toBe(1);
    expect(regions[1]).toEqual({ x: 0, y: 0, width: 10, height: 10 });
  });
});

describe('DrawPlan', () => {
  it('starts full, then is empty after a reset, and collects regions until the next reset', () => {
    const plan = new DrawPlan();
    expect(plan.full).toBe(true);
    plan.region(1, 2, 3, 4);
    expect(plan.regionCount).toBe(0);
    plan.reset();
    expect(plan.empty).toBe(true);
    plan.region(1, 2, 3, 4);
    plan.region(5, 6, 7, 8);
    expect(plan.regionCount).toBe(2);
    expect(plan.regions[1]).toEqual({ x: 5, y: 6, width: 7, height: 8 });
    plan.markFull();
    plan.region(9, 9, 9, 9);
    expect(plan.regionCount).toBe(2);
    plan.reset();
    expect(plan.empty).toBe(true);
  });
});
