/** The subagent badge: one rounded pill with the running count, hidden at 0 and "?" when unknown (never 0 for unknown). */
import { Container, Graphics } from 'pixi.js';
import { badgeText } from './model';
import { GLYPH_HEIGHT, PixelText, pixelTextWidth } from './PixelText';
import type { Sprites } from './sprites';
import type { Rect } from './layout';

/** Height of the badge in pixels: the 7 px font with a pixel of outline and a pixel of padding on each side. */
export const BADGE_HEIGHT = GLYPH_HEIGHT + 4;
/** Extra pixels around the badge that still count as a click on it, so it is easy to hit. */
const HIT_MARGIN = 2;
const RUNNING = 0xe2573d;
const RUNNING_LIGHT = 0xf08a6a;
const UNKNOWN = 0x8c8fa3;
const UNKNOWN_LIGHT = 0xb4b7c8;
const OUTLINE = 0x2a1f2a;

/** Width of the badge for a text: at least as wide as it is tall, so "1" is a round dot, not a sliver. */
export function badgeWidth(text: string): number {
  return Math.max(BADGE_HEIGHT, pixelTextWidth(text) + 6);
}

/** The area a click opens the tray from, around a badge's own rectangle (world pixels). */
export function badgeHitBox(badge: Rect): Rect {
  return { x: badge.x - HIT_MARGIN, y: badge.y - HIT_MARGIN, width: badge.width + HIT_MARGIN * 2, height: badge.height + HIT_MARGIN * 2 };
}

/** Paints a pill with pixel-stepped round ends: `inset` pixels in from the box. */
function pill(target: Graphics, width: number, height: number, inset: number, colour: number): void {
  const x = inset;
  const y = inset;
  const w = width - inset * 2;
  const h = height - inset * 2;
  target.rect(x + 2, y, w - 4, h).fill(colour);
  target.rect(x + 1, y + 1, w - 2, h - 2).fill(colour);
  target.rect(x, y + 2, w, h - 4).fill(colour);
}

/** A badge above the right of an agent's head (its place is the work place's badge box). */
export class BadgeView extends Container {
  private readonly plate = new Graphics();
  private readonly text: PixelText;
  private shown: string | null = null;
  /** Width of the visible badge in pixels (0 when hidden). */
  badgeWidth = 0;

  constructor(sprites: Sprites) {
    super();
    this.text = new PixelText(sprites);
    this.text.y = 2;
    this.addChild(this.plate, this.text);
    this.visible = false;
  }

  /** Shows the running count, or "?" for unknown; redraws only when the text changed. */
  update(subagents: number | null): void {
    const text = badgeText(subagents);
    if (text === this.shown) return;
    this.shown = text;
    this.visible = text !== null;
    if (text === null) {
      this.badgeWidth = 0;
      return;
    }
    const unknown = text === '?';
    const width = badgeWidth(text);
    this.badgeWidth = width;
    this.plate.clear();
    pill(this.plate, width, BADGE_HEIGHT, 0, OUTLINE);
    pill(this.plate, width, BADGE_HEIGHT, 1, unknown ? UNKNOWN : RUNNING);
    // A lighter top edge gives the pill a little volume.
    this.plate.rect(3, 1, width - 6, 1).fill(unknown ? UNKNOWN_LIGHT : RUNNING_LIGHT);
    this.text.setText(text, 0xffffff);
    this.text.x = Math.floor((width - pixelTextWidth(text)) / 2);
    // One cached texture (one quad a frame) until the count changes.
    if (this.isCachedAsTexture) this.updateCacheTexture();
    else this.cacheAsTexture({ scaleMode: 'nearest', resolution: 1, antialias: false });
  }
}
