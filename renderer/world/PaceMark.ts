/**
 * The near-auto-compact mark (issue 41): a small red "!" tag beside a character whose context is at least the
 * budget's `contextWarnPercent` full. Original pixel art drawn in code once, then only shown or hidden. The threshold
 * is the owner's setting (see nearCompact.ts).
 */
import { Graphics } from 'pixi.js';

const RED = 0xd9443a;
const INK = 0x2a1f2a;
const PAPER = 0xfff4e0;
/** Right of the head, clear of the drift tag on the left. */
const TAG = { x: 10, y: -27 } as const;

/** The mark; `percent` null hides it. */
export class PaceMark extends Graphics {
  /** The percent shown (null: hidden), for the page hook. */
  percent: number | null = null;
  private drawn = false;

  constructor() {
    super();
    this.visible = false;
  }

  /** Shows the mark for a context this full, or hides it for null. */
  update(percent: number | null): void {
    if (percent === this.percent) return;
    this.percent = percent;
    this.visible = percent !== null;
    if (percent === null || this.drawn) return;
    this.drawn = true;
    const { x, y } = TAG;
    // A 5×8 tag: an exclamation mark on red, outlined in ink.
    this.rect(x, y, 5, 8).fill(INK);
    this.rect(x + 1, y + 1, 3, 6).fill(RED);
    this.rect(x + 2, y + 2, 1, 2).fill(PAPER);
    this.rect(x + 2, y + 5, 1, 1).fill(PAPER);
  }
}
