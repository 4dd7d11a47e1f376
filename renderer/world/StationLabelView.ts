/**
 * A station's text: the sign (its role) and the count written on its backlog board. Drawn in the scene over the
 * backdrop, at a whole text scale whatever the zoom (`textScale`), so the pixel font never garbles at half steps.
 * Each is one picture from the label atlas.
 */
import { Container } from 'pixi.js';
import { textScale } from './camera';
import type { LabelAtlas } from './labelAtlas';
import { signPicture, textPicture } from './labelPictures';
import { LabelSprite } from './LabelSprite';
import { signRoom, type StationLayout } from './layout';
import type { StationModel } from './model';
import { GLYPH_HEIGHT, pixelTextWidth, shortenToWidth } from './pixelFont';

const INK = 0x2a1f2a;
const ALERT = 0xd9485f;
/** Left of the sign's text: after the role icon. */
const TEXT_AFTER_ICON = 14;

/** The sign and the board count of one station. */
export class StationLabelView extends Container {
  /** The sign: plate and text. */
  readonly sign = new Container();
  private readonly plate: LabelSprite;
  /** The count on the board. */
  readonly count: LabelSprite;
  private record: StationModel | null = null;
  private placed: StationLayout | null = null;
  private zoom = 0;

  constructor(labels: LabelAtlas) {
    super();
    this.plate = new LabelSprite(labels);
    this.count = new LabelSprite(labels);
    this.sign.addChild(this.plate);
    this.addChild(this.sign, this.count);
  }

  /** Applies a record, a layout and a zoom; says whether anything changed (then it must be drawn again). */
  update(record: StationModel, placed: StationLayout, zoom: number): boolean {
    if (record === this.record && placed === this.placed && zoom === this.zoom) return false;
    const scale = textScale(zoom) / zoom;
    const label = record.lobby ? 'unassigned' : record.label;
    const room = Math.floor(signRoom(placed, zoom) / textScale(zoom)) - 6;
    const text = shortenToWidth(label, room);
    this.sign.visible = pixelTextWidth(text) > 0;
    if (this.sign.visible) this.plate.show(signPicture(text));
    else this.plate.clear();
    this.sign.position.set(placed.sign.x + (record.lobby ? 0 : TEXT_AFTER_ICON), placed.sign.y);
    this.sign.scale.set(scale);
    this.count.visible = !record.lobby;
    if (!record.lobby) {
      const text = record.backlogError ? '!' : String(record.backlogCount);
      this.count.show(textPicture(text, record.backlogError ? ALERT : INK));
      // Centred on the board's paper (columns 4–25, rows 7–20 of the board sprite).
      this.count.scale.set(scale);
      this.count.position.set(placed.board.x + 15 - (pixelTextWidth(text) * scale) / 2, placed.board.y + 14 - (GLYPH_HEIGHT / 2) * scale);
    }
    this.record = record;
    this.placed = placed;
    this.zoom = zoom;
    return true;
  }
}
