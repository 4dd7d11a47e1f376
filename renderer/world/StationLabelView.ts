/**
 * A station's text: the sign (its role) and the count written on its backlog board. Drawn in the scene over the
 * backdrop, at a whole text scale whatever the zoom (`textScale`), so the pixel font never garbles at half steps.
 */
import { Container, Graphics } from 'pixi.js';
import { textScale } from './camera';
import { signRoom, type StationLayout } from './layout';
import type { StationModel } from './model';
import { PixelText, pixelTextWidth, shortenToWidth } from './PixelText';
import type { Sprites } from './sprites';

const INK = 0x2a1f2a;
const ALERT = 0xd9485f;
/** Left of the sign's text: after the role icon. */
const TEXT_AFTER_ICON = 14;

/** The sign and the board count of one station. */
export class StationLabelView extends Container {
  /** The sign: plate and text. */
  readonly sign = new Container();
  private readonly plate = new Graphics();
  private readonly text: PixelText;
  /** The count on the board. */
  readonly count: PixelText;
  private record: StationModel | null = null;
  private placed: StationLayout | null = null;
  private zoom = 0;

  constructor(sprites: Sprites) {
    super();
    this.text = new PixelText(sprites);
    this.count = new PixelText(sprites);
    this.sign.addChild(this.plate, this.text);
    this.addChild(this.sign, this.count);
  }

  /** Applies a record, a layout and a zoom; redraws only what changed. */
  update(record: StationModel, placed: StationLayout, zoom: number): void {
    if (record === this.record && placed === this.placed && zoom === this.zoom) return;
    const scale = textScale(zoom) / zoom;
    const label = record.lobby ? 'unassigned' : record.label;
    const room = Math.floor(signRoom(placed, zoom) / textScale(zoom)) - 6;
    this.text.setText(shortenToWidth(label, room), INK);
    const width = this.text.textWidth + 6;
    this.plate.clear();
    this.plate.rect(0, 0, width, 11).fill(0x6b4226);
    this.plate.rect(1, 1, width - 2, 9).fill(0xfff1c9);
    this.text.position.set(3, 2);
    this.sign.position.set(placed.sign.x + (record.lobby ? 0 : TEXT_AFTER_ICON), placed.sign.y);
    this.sign.scale.set(scale);
    this.sign.visible = this.text.textWidth > 0;
    this.count.visible = !record.lobby;
    if (!record.lobby) {
      const text = record.backlogError ? '!' : String(record.backlogCount);
      this.count.setText(text, record.backlogError ? ALERT : INK);
      // Centred on the board's paper (columns 4–25, rows 7–20 of the board sprite).
      this.count.scale.set(scale);
      this.count.position.set(placed.board.x + 15 - (pixelTextWidth(text) * scale) / 2, placed.board.y + 14 - 3.5 * scale);
    }
    this.record = record;
    this.placed = placed;
    this.zoom = zoom;
  }

}
