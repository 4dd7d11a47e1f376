/**
 * What the next draw must bring up to date, collected while the scene changes: everything (a new layout, the camera,
 * a changed record), or regions where something moved or a seated character's frame advanced (drawn again with
 * everything in them). Reused from frame to frame: nothing is allocated per
 * frame once the pools have grown.
 */
import type { AgentView } from './AgentView';
import type { Rect } from './layout';

/** World pixels between two regions below which they are drawn as one (one pass instead of two). */
const MERGE_GAP = 8;

/**
 * Merges regions that overlap or nearly touch into their bounding boxes, in place; returns how many remain (first in
 * the array). A walker's or an envelope's place before and after a step always merge.
 */
export function mergeRegions(regions: Rect[], count: number): number {
  let remaining = count;
  let merged = true;
  while (merged) {
    merged = false;
    for (let first = 0; first < remaining && !merged; first += 1) {
      for (let second = first + 1; second < remaining; second += 1) {
        const a = regions[first];
        const b = regions[second];
        if (a.x > b.x + b.width + MERGE_GAP || b.x > a.x + a.width + MERGE_GAP || a.y > b.y + b.height + MERGE_GAP || b.y > a.y + a.height + MERGE_GAP) continue;
        const right = Math.max(a.x + a.width, b.x + b.width);
        const bottom = Math.max(a.y + a.height, b.y + b.height);
        a.x = Math.min(a.x, b.x);
        a.y = Math.min(a.y, b.y);
        a.width = right - a.x;
        a.height = bottom - a.y;
        // The last region takes the merged one's place (the pool keeps its objects, only their order changes).
        regions[second] = regions[remaining - 1];
        regions[remaining - 1] = b;
        remaining -= 1;
        merged = true;
        break;
      }
    }
  }
  return remaining;
}

/** The plan of one draw. */
export class DrawPlan {
  /** Everything must be drawn again. */
  full = true;
  /** Regions in world pixels (the first `regionCount` of the pool). */
  readonly regions: Rect[] = [];
  regionCount = 0;

  /** True when nothing needs drawing. */
  get empty(): boolean {
    return !this.full && this.regionCount === 0;
  }

  /** Asks for everything to be drawn again. */
  markFull(): void {
    this.full = true;
  }

  /**
   * A seated character changed frame: its box is drawn again as a region, the whole scene clipped to it, since a
   * neighbour's bubble, plate or badge may reach into the box. Every pose's frame lies inside the body box.
   */
  seat(view: AgentView): void {
    const box = view.bodyBox;
    this.region(view.position.x + box.x, view.position.y + box.y, box.width, box.height);
  }

  /** Something moved within a world rectangle (call for where it was and where it is). */
  region(x: number, y: number, width: number, height: number): void {
    if (this.full) return;
    let rect = this.regions[this.regionCount];
    if (!rect) {
      rect = { x, y, width, height };
      this.regions.push(rect);
    }
    rect.x = x;
    rect.y = y;
    rect.width = width;
    rect.height = height;
    this.regionCount += 1;
  }

  /** Starts the next frame's plan (after a draw). */
  reset(): void {
    this.full = false;
    this.regionCount = 0;
  }
}
