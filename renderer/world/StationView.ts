/** One station: its floor zone, role sign, workbench with the role's tool, and backlog board (or the lobby's door). */
import { Container, Graphics, Sprite, TilingSprite } from 'pixi.js';
import { BUILT_IN_ROLES } from '../../shared/roles';
import type { StationLayout } from './layout';
import type { StationModel } from './model';
import { PixelText, pixelTextWidth, shorten } from './PixelText';
import type { Sprites } from './sprites';

/** Accent colours of station zones, by position. */
const ACCENTS = [0xe2773d, 0x4a90d9, 0x5bbf6a, 0xe0b03a, 0x9a6ad9, 0x3ab8b0, 0xe07ab0, 0xc98b52];
const SIGN_LIMIT = 20;

/** A station on the floor. */
export class StationView extends Container {
  record: StationModel | null = null;
  private placed: StationLayout | null = null;
  private readonly zone = new Graphics();
  private readonly signPlate = new Graphics();
  private readonly sign: PixelText;
  private readonly bench: Sprite;
  private readonly tool = new Sprite();
  private readonly board: Sprite;
  private readonly count: PixelText;
  private readonly rug: TilingSprite | null = null;
  private readonly door: Sprite | null = null;
  private readonly plant: Sprite | null = null;
  private highlighted = false;

  constructor(
    private readonly sprites: Sprites,
    private readonly accentIndex: number,
    lobby: boolean,
  ) {
    super();
    this.sign = new PixelText(sprites);
    this.count = new PixelText(sprites);
    this.bench = new Sprite(sprites.frame('bench'));
    this.board = new Sprite(sprites.frame('board'));
    this.addChild(this.zone);
    if (lobby) {
      this.rug = new TilingSprite({ texture: sprites.tile('rug'), width: 16, height: 16 });
      this.rug.alpha = 0.35;
      this.door = new Sprite(sprites.frame('door'));
      this.plant = new Sprite(sprites.frame('plant'));
      this.addChild(this.rug, this.door, this.plant, this.signPlate, this.sign);
    } else {
      this.addChild(this.signPlate, this.sign, this.bench, this.tool, this.board, this.count);
    }
  }

  /** Applies a changed record or layout. */
  update(record: StationModel, placed: StationLayout): void {
    const recordChanged = record !== this.record;
    const layoutChanged = !this.placed || !sameLayout(this.placed, placed);
    this.record = record;
    this.placed = placed;
    if (recordChanged) {
      this.sign.setText(shorten(record.lobby ? 'unassigned' : record.label, SIGN_LIMIT), 0x2a1f2a);
      this.count.setText(record.backlogError ? '!' : String(record.backlogCount), record.backlogError ? 0xd9485f : 0x2a1f2a);
      if (!record.lobby) {
        const known = (BUILT_IN_ROLES as readonly string[]).includes(record.key);
        this.tool.texture = this.sprites.frame(`icon_${known ? record.key : 'custom'}`);
      }
    }
    if (recordChanged || layoutChanged) this.place(placed);
  }

  /** Marks the station as the drop target of a drag. */
  setHighlighted(highlighted: boolean): void {
    if (highlighted === this.highlighted || !this.placed) return;
    this.highlighted = highlighted;
    this.drawZone(this.placed);
  }

  private drawZone(placed: StationLayout): void {
    const { rect } = placed;
    const accent = ACCENTS[this.accentIndex % ACCENTS.length];
    this.zone.clear();
    this.zone.rect(rect.x, rect.y, rect.width, rect.height).fill({ color: accent, alpha: this.highlighted ? 0.3 : 0.12 });
    this.zone.rect(rect.x, rect.y, rect.width, rect.height).stroke({ color: this.highlighted ? 0xfff6dc : accent, width: 2, alignment: 1 });
  }

  private place(placed: StationLayout): void {
    const { rect } = placed;
    this.drawZone(placed);
    const signWidth = pixelTextWidth(shorten(this.record?.lobby ? 'unassigned' : (this.record?.label ?? ''), SIGN_LIMIT)) + 8;
    this.signPlate.clear();
    this.signPlate.rect(placed.sign.x, placed.sign.y, signWidth, 10).fill(0x6b4226);
    this.signPlate.rect(placed.sign.x + 1, placed.sign.y + 1, signWidth - 2, 8).fill(0xfff1c9);
    this.sign.position.set(placed.sign.x + 4, placed.sign.y + 3);
    this.bench.position.set(placed.bench.x, placed.bench.y);
    this.tool.position.set(placed.bench.x + 40, placed.bench.y - 7);
    this.board.position.set(placed.board.x, placed.board.y);
    this.count.position.set(placed.board.x + 11 - Math.floor(this.count.textWidth / 2), placed.board.y + placed.board.height + 2);
    if (this.rug && this.door && this.plant && placed.door) {
      this.rug.position.set(rect.x + 2, rect.y + 2);
      this.rug.width = rect.width - 4;
      this.rug.height = rect.height - 4;
      this.door.position.set(placed.door.x, placed.door.y);
      this.plant.position.set(rect.x + rect.width - 20, rect.y + 8);
    }
  }
}

function sameLayout(first: StationLayout, second: StationLayout): boolean {
  return (
    first.rect.x === second.rect.x &&
    first.rect.y === second.rect.y &&
    first.rect.width === second.rect.width &&
    first.rect.height === second.rect.height
  );
}
