/** The subagent badge: one pill with the running count, hidden at 0 and "?" when unknown (never 0 for unknown). */
import { Container, Graphics } from 'pixi.js';
import { badgeText } from './model';
import { PixelText, pixelTextWidth } from './PixelText';
import type { Sprites } from './sprites';

/** Height of the badge in pixels. */
export const BADGE_HEIGHT = 9;

/** A badge above an agent's head. */
export class BadgeView extends Container {
  private readonly plate = new Graphics();
  private readonly text: PixelText;
  private shown: string | null = null;
  /** Width of the visible badge in pixels (0 when hidden). */
  badgeWidth = 0;

  constructor(sprites: Sprites) {
    super();
    this.text = new PixelText(sprites);
    this.text.position.set(2, 2);
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
    this.badgeWidth = pixelTextWidth(text) + 4;
    this.plate.clear();
    this.plate.rect(0, 0, this.badgeWidth, BADGE_HEIGHT).fill(0x2a1f2a);
    this.plate.rect(1, 1, this.badgeWidth - 2, BADGE_HEIGHT - 2).fill(unknown ? 0x8c8fa3 : 0xe2573d);
    this.text.setText(text, 0xffffff);
  }
}
