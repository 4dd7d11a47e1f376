/**
 * A station's text: the sign (its role) and the count written on its backlog board. Drawn in the scene over the
 * backdrop, each at a whole text scale whatever the zoom, so the pixel font never garbles at half steps: the count at
 * the names' scale (`textScale`, 2 at least), the sign at the scale at which it shows whole (`signFace`). Each is one picture from
 * the label atlas.
 */
import { Container } from 'pixi.js';
import { textScale } from './camera';
import type { LabelAtlas } from './labelAtlas';
import { LABEL_HEIGHT, signPicture, textPicture } from './labelPictures';
import { LabelSprite } from './LabelSprite';
import type { StationLayout } from './layout';
import type { StationModel } from './model';
import { GLYPH_HEIGHT, pixelTextWidth } from './pixelFont';
import { ICON_ROOM, LOBBY_SIGN, signFace, type SignInput } from './signs';
import { wholePixel } from './snap';

const INK = 0x2a1f2a;
const ALERT = 0xd9485f;
/** The board's paper, relative to the board sprite (columns 4–25, rows 7–20): the count is drawn on it. */
const PAPER = { x: 4, y: 7, width: 22, height: 14 } as const;

/**
 * The whole scale a board's count is drawn at: the names' (the scale the signs' letters reach), so a count stands in
 * proportion to its sign at every zoom (twice the names' made a 3× board's digit taller than its sign); 2 at least
 * where the paper holds it, since a digit 7 pixels tall does not read.
 */
export function boardCountScale(textWidth: number, zoom: number, names: number): number {
  for (let scale = Math.max(2, names); scale > names; scale -= 1) {
    if (textWidth * scale <= (PAPER.width - 2) * zoom && GLYPH_HEIGHT * scale <= (PAPER.height - 2) * zoom) return scale;
  }
  return names;
}

/** What a station's sign is to fit: its text and its place. */
export function signInput(record: StationModel, placed: StationLayout): SignInput {
  return { label: record.lobby ? LOBBY_SIGN : record.label, station: placed };
}

/** The sign and the board count of one station. */
export class StationLabelView extends Container {
  /** The sign: plate and text. */
  readonly sign = new Container();
  private readonly plate: LabelSprite;
  /** The count on the board. */
  readonly count: LabelSprite;
  /** The text the sign shows ("" when none), shortened with an ellipsis only when it fits at no scale. */
  shownText = '';
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
    const names = textScale(zoom);
    const face = signFace(signInput(record, placed), zoom);
    this.shownText = pixelTextWidth(face.text) > 0 ? face.text : '';
    this.sign.visible = this.shownText !== '';
    if (this.sign.visible) this.plate.show(signPicture(this.shownText));
    else this.plate.clear();
    // A sign drawn smaller than the names keeps its middle where a sign at the names' scale has it (whole screen pixels).
    const lowered = Math.floor((LABEL_HEIGHT * (names - face.scale)) / 2) / zoom;
    const left = placed.sign.x + (record.lobby || face.overIcon ? 0 : ICON_ROOM);
    // On whole screen pixels (the camera's offset is whole): a sign between two pixels loses strokes.
    this.sign.position.set(wholePixel(left, zoom), wholePixel(placed.sign.y, zoom) + lowered);
    this.sign.scale.set(face.scale / zoom);
    this.count.visible = !record.lobby;
    if (!record.lobby) {
      const text = record.backlogError ? '!' : record.backlogCount === null ? '?' : String(record.backlogCount);
      this.count.show(textPicture(text, record.backlogError ? ALERT : INK));
      // Centred on the board's paper, at the names' scale (2 at least, where the paper holds it).
      const countScale = boardCountScale(pixelTextWidth(text), zoom, names);
      const size = countScale / zoom;
      const width = pixelTextWidth(text) * size;
      this.count.scale.set(size);
      const middleX = placed.board.x + PAPER.x + PAPER.width / 2;
      const middleY = placed.board.y + PAPER.y + PAPER.height / 2;
      this.count.position.set(wholePixel(middleX - width / 2, zoom), wholePixel(middleY - (GLYPH_HEIGHT / 2) * size, zoom));
    }
    this.record = record;
    this.placed = placed;
    this.zoom = zoom;
    return true;
  }
}
