/** The subagent badge: one rounded pill with the running count, hidden at 0 and "?" when unknown (never 0 for unknown). */
import { Container } from 'pixi.js';
import type { LabelAtlas } from './labelAtlas';
import { badgePicture } from './labelPictures';
import { LabelSprite } from './LabelSprite';
import type { Rect } from './layout';
import { badgeText } from './model';

/** Extra pixels around the badge that still count as a click on it, so it is easy to hit. */
const HIT_MARGIN = 2;

/** The area a click opens the tray from, around a badge's own rectangle (world pixels). */
export function badgeHitBox(badge: Rect): Rect {
  return { x: badge.x - HIT_MARGIN, y: badge.y - HIT_MARGIN, width: badge.width + HIT_MARGIN * 2, height: badge.height + HIT_MARGIN * 2 };
}

/** A badge above the right of an agent's head (its place is the work place's badge box). */
export class BadgeView extends Container {
  private readonly pill: LabelSprite;
  private text: string | null = null;
  /** Width of the visible badge in pixels (0 when hidden). */
  badgeWidth = 0;

  constructor(labels: LabelAtlas) {
    super();
    this.pill = new LabelSprite(labels);
    this.addChild(this.pill);
  }

  /** Whether a count shows (none at 0: a blank picture, not a hidden view, which would rebuild the scene's draw). */
  get shown(): boolean {
    return this.badgeWidth > 0;
  }

  /** Shows the running count, or "?" for unknown; changes the picture only when the text changed. */
  update(subagents: number | null): void {
    const text = badgeText(subagents);
    if (text === this.text) return;
    this.text = text;
    if (text === null) {
      this.badgeWidth = 0;
      this.pill.clear();
      return;
    }
    this.pill.show(badgePicture(text));
    this.badgeWidth = this.pill.pictureWidth;
  }
}
