/**
 * The drift mark (issue 29): a tiny amber warning tag beside a character whose records carry kinds its reader does
 * not know, from a harness version newer than the tested range. Original pixel art drawn in code, redrawn only when
 * the marked kinds change; it lies inside the agent's work place, so the world redraws it with the agent's region.
 */
import { Graphics } from 'pixi.js';

const AMBER = 0xf2a03d;
const INK = 0x2a1f2a;
/** Where the tag sits relative to the feet: left of the head, clear of the team pennant on the right. */
const TAG = { x: -16, y: -27 } as const;

/** The mark; `kinds` null hides it. */
export class DriftMark extends Graphics {
  /** The kinds the mark stands for (null: not shown), for the page hook. */
  kinds: string[] | null = null;
  private drawn = false;

  constructor() {
    super();
    this.visible = false;
  }

  /** Shows the mark for these unknown kinds, or hides it for null; nothing is drawn again when they did not change. */
  update(kinds: string[] | null): void {
    if (sameKinds(this.kinds, kinds)) return;
    this.kinds = kinds;
    this.visible = kinds !== null;
    // The tag looks the same whatever the kinds: drawn once, then only shown or hidden.
    if (kinds === null || this.drawn) return;
    this.drawn = true;
    const { x, y } = TAG;
    // A 6×7 tag with a wavy line (the format shifted) and a dot below it, outlined in ink.
    this.rect(x, y, 6, 7).fill(INK);
    this.rect(x + 1, y + 1, 4, 5).fill(AMBER);
    this.rect(x + 1, y + 2, 1, 1).fill(INK);
    this.rect(x + 2, y + 1, 1, 1).fill(INK);
    this.rect(x + 3, y + 2, 1, 1).fill(INK);
    this.rect(x + 4, y + 1, 1, 1).fill(INK);
    this.rect(x + 2, y + 4, 2, 1).fill(INK);
  }
}

function sameKinds(left: string[] | null, right: string[] | null): boolean {
  if (left === null || right === null) return left === right;
  return left.length === right.length && left.every((kind, index) => kind === right[index]);
}
