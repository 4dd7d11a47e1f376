import { describe, expect, it } from 'vitest';
import { overlaps, placeBeside } from './placement';

const viewport = { width: 1280, height: 800 };
const panel = { width: 420, height: 500 };

describe('tray placement', () => {
  it('goes to the right of an agent when there is room, never over it', () => {
    const agent = { x: 200, y: 300, width: 32, height: 80 };
    const spot = placeBeside(agent, panel, viewport);
    expect(spot).toMatchObject({ left: 244, panX: 0, panY: 0 });
    expect(overlaps({ x: spot.left, y: spot.top, ...panel }, agent)).toBe(false);
  });

  it('goes to the left of an agent near the right edge', () => {
    const agent = { x: 1100, y: 300, width: 32, height: 80 };
    const spot = placeBeside(agent, panel, viewport);
    expect(spot.left + panel.width).toBeLessThanOrEqual(1100);
    expect(spot.panX).toBe(0);
  });

  it('avoids the focused entry of the keyboard list by taking the other side', () => {
    const agent = { x: 600, y: 300, width: 32, height: 80 };
    const avoid = [{ x: 700, y: 100, width: 200, height: 40 }];
    const spot = placeBeside(agent, panel, viewport, avoid);
    expect(overlaps({ x: spot.left, y: spot.top, ...panel }, avoid[0])).toBe(false);
    expect(spot.left + panel.width).toBeLessThanOrEqual(600);
  });

  it('pans the world when neither side has room, and the panel then clears the moved agent', () => {
    const narrow = { width: 600, height: 800 };
    const agent = { x: 280, y: 300, width: 32, height: 80 };
    const spot = placeBeside(agent, panel, narrow);
    expect(spot.panX).not.toBe(0);
    const moved = { ...agent, x: agent.x + spot.panX };
    expect(overlaps({ x: spot.left, y: spot.top, ...panel }, moved)).toBe(false);
    expect(moved.x).toBeGreaterThanOrEqual(0);
  });
});
