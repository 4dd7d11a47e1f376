/** The speech bubble over a character: one per needs-you reason, a "z" when idle; its picture changes only with its kind. */
import { Container } from 'pixi.js';
import type { Activity } from '../../shared/schemas';
import { BUBBLE_STYLE, bubbleKind, type BubbleKind } from './bubbles';
import type { LabelAtlas } from './labelAtlas';
import { bubblePicture } from './labelPictures';
import { LabelSprite } from './LabelSprite';

/** Where the bubble sits relative to the feet: above the left of the head, inside the agent's box (badge is right). */
export const BUBBLE_OFFSET = { x: -17, y: -38 } as const;

/** A bubble view. */
export class BubbleView extends Container {
  private readonly picture: LabelSprite;
  /** The kind shown (for the page hook and tests). */
  kind: BubbleKind = null;

  constructor(labels: LabelAtlas) {
    super();
    this.picture = new LabelSprite(labels);
    this.addChild(this.picture);
    this.position.set(BUBBLE_OFFSET.x, BUBBLE_OFFSET.y);
  }

  /** Shows the bubble for an activity; does nothing when the kind is unchanged. */
  update(activity: Activity): void {
    const kind = bubbleKind(activity);
    if (kind === this.kind) return;
    this.kind = kind;
    // No bubble is a blank picture, not a hidden view: a visibility change would rebuild the whole scene's draw.
    if (kind === null) {
      this.picture.clear();
      return;
    }
    this.picture.show(bubblePicture(kind));
    this.alpha = BUBBLE_STYLE[kind].alpha;
  }
}
