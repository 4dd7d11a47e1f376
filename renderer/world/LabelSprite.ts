/** A sprite showing one label picture from the label atlas; it holds its picture's slot until it shows another or goes. */
import { Sprite, type DestroyOptions } from 'pixi.js';
import type { HeldLabel, LabelAtlas } from './labelAtlas';
import type { LabelPicture } from './labelPictures';

/** A label on screen. */
export class LabelSprite extends Sprite {
  private held: HeldLabel | null = null;

  constructor(private readonly atlas: LabelAtlas) {
    // The atlas's blank rather than no texture: showing a label then changes no batch (see LabelAtlas.blank).
    super(atlas.blank);
  }

  /** Shows a picture (painted into the atlas if it is not there yet); does nothing when it is already shown. */
  show(picture: LabelPicture): void {
    if (this.held?.key === picture.key) return;
    const next = this.atlas.acquire(picture);
    this.texture = next.texture;
    if (this.held) this.atlas.release(this.held);
    this.held = next;
  }

  /** Shows nothing and gives the picture back. */
  clear(): void {
    if (!this.held) return;
    this.texture = this.atlas.blank;
    this.atlas.release(this.held);
    this.held = null;
  }

  /** Width in pixels of the picture shown (0 when none). */
  get pictureWidth(): number {
    return this.held?.width ?? 0;
  }

  /** Gives the picture back along with the sprite. */
  override destroy(options?: DestroyOptions): void {
    this.clear();
    super.destroy(options);
  }
}
