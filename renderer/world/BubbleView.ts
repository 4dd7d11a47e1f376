/** The speech bubble over a character: one per needs-you reason, a "z" when idle; redrawn only when its kind changes. */
import { Container, Graphics } from 'pixi.js';
import type { Activity } from '../../shared/schemas';
import { BUBBLE_GLYPHS, BUBBLE_STYLE, bubbleKind, type BubbleKind } from './bubbles';

/** Where the bubble sits relative to the feet: above the left of the head, inside the agent's box (badge is right). */
export const BUBBLE_OFFSET = { x: -17, y: -38 } as const;
const OUTLINE = 0x2a1f2a;
const HEIGHT = 9;

/** A bubble view. */
export class BubbleView extends Container {
  private readonly graphics = new Graphics();
  /** The kind shown (for the page hook and tests). */
  kind: BubbleKind = null;

  constructor() {
    super();
    this.addChild(this.graphics);
    this.position.set(BUBBLE_OFFSET.x, BUBBLE_OFFSET.y);
    this.visible = false;
  }

  /** Shows the bubble for an activity; does nothing when the kind is unchanged. */
  update(activity: Activity): void {
    const kind = bubbleKind(activity);
    if (kind === this.kind) return;
    this.kind = kind;
    this.graphics.clear();
    this.visible = kind !== null;
    if (kind === null) return;
    const style = BUBBLE_STYLE[kind];
    const glyphs = [...style.glyphs];
    const width = glyphs.length * 4 + 3;
    const g = this.graphics;
    // Outline, body with cut corners, and a tail towards the head.
    g.rect(1, 0, width - 2, HEIGHT).fill(OUTLINE);
    g.rect(0, 1, width, HEIGHT - 2).fill(OUTLINE);
    g.rect(2, 1, width - 4, HEIGHT - 2).fill(style.fill);
    g.rect(1, 2, width - 2, HEIGHT - 4).fill(style.fill);
    g.rect(width - 4, HEIGHT, 2, 1).fill(OUTLINE);
    g.rect(width - 3, HEIGHT + 1, 1, 1).fill(OUTLINE);
    glyphs.forEach((glyph, index) => {
      const rows = BUBBLE_GLYPHS[glyph] ?? BUBBLE_GLYPHS['?'];
      rows.forEach((row, y) => {
        [...row].forEach((cell, x) => {
          if (cell === '#') g.rect(2 + index * 4 + x, 2 + y, 1, 1).fill(style.ink);
        });
      });
    });
    this.alpha = style.alpha;
  }
}
