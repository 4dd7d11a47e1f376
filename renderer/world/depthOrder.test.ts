import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DepthOrder, type Layered } from './depthOrder';

const REACH = { x: 40, y: 58 };

/** A settled thing with its feet at (x, y) and a walker from (walkerX, 60) filed in a fresh order. */
function twoThings(x: number, y: number, walkerX: number) {
  const order = new DepthOrder(REACH);
  const other: Layered = { zIndex: y };
  const walker: Layered = { zIndex: 60 };
  order.begin();
  order.add(other, x, y);
  order.add(walker, walkerX, 60);
  return { order, other, walker };
}

describe('DepthOrder', () => {
  it('keeps a walker’s zIndex while nothing it overlaps changes order, and fixes it when it passes a neighbour', () => {
    const { order, other: seated, walker } = twoThings(200, 100, 205);
    // Still above the seated agent's feet: the old zIndex orders it right, nothing changes (no scene rebuild).
    expect(order.settle(walker, 205, 80)).toBe(false);
    expect(walker.zIndex).toBe(60);
    // Past its feet: it must now draw in front.
    expect(order.settle(walker, 205, 104)).toBe(true);
    expect(walker.zIndex).toBe(104);
    expect(walker.zIndex).toBeGreaterThan(seated.zIndex);
  });

  it('leaves order alone against things far away (their order never shows)', () => {
    const { order, walker } = twoThings(600, 100, 200);
    expect(order.settle(walker, 200, 140)).toBe(false);
    expect(walker.zIndex).toBe(60);
  });

  it('after any walk, every two overlapping things draw in their feet’s order once the walkers checked again (fuzzed)', () => {
    const point = fc.record({ x: fc.integer({ min: 0, max: 300 }), y: fc.integer({ min: 0, max: 300 }) });
    fc.assert(
      fc.property(fc.array(point, { minLength: 2, maxLength: 12 }), fc.array(fc.array(point, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 6 }), (start, walks) => {
        // Everything starts settled at its feet; the first few walk, one step per frame, all walkers per frame.
        const things = start.map((feet) => ({ item: { zIndex: feet.y } as Layered, feet: { ...feet } }));
        const order = new DepthOrder(REACH);
        const frames = Math.max(...walks.map((walk) => walk.length));
        for (let frame = 0; frame < frames; frame += 1) {
          order.begin();
          for (const thing of things) order.add(thing.item, thing.feet.x, thing.feet.y);
          walks.forEach((walk, index) => {
            const thing = things[index % things.length];
            const step = walk[frame];
            if (!step) return;
            thing.feet = { ...step };
            order.settle(thing.item, step.x, step.y);
          });
        }
        // Walkers that stand still and check again (as the world's next steps do) settle every pair within a few frames.
        for (let frame = 0; frame < 4; frame += 1) {
          order.begin();
          for (const thing of things) order.add(thing.item, thing.feet.x, thing.feet.y);
          walks.forEach((_, index) => order.settle(things[index % things.length].item, things[index % things.length].feet.x, things[index % things.length].feet.y));
        }
        for (const a of things)
          for (const b of things) {
            if (a === b || a.feet.y === b.feet.y) continue;
            if (Math.abs(a.feet.x - b.feet.x) >= REACH.x || Math.abs(a.feet.y - b.feet.y) >= REACH.y) continue;
            expect(a.feet.y > b.feet.y ? a.item.zIndex > b.item.zIndex : a.item.zIndex < b.item.zIndex).toBe(true);
          }
      }),
      { numRuns: 300 },
    );
  });
});
