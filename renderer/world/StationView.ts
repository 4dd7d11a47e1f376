/** One station, drawn into the backdrop: its floor zone, role sign, workbench with the role's tool, and backlog board (or the lobby's door). */
import { Container, Graphics, Sprite, TilingSprite } from 'pixi.js';
import { BUILT_IN_ROLES } from '../../shared/roles';
import type { StationLayout } from './layout';
import type { StationModel } from './model';
import { PixelText, shortenToWidth } from './PixelText';
import type { Sprites } from './sprites';

/** Accent colours of station zones, by position. */
const ACCENTS = [0xe2773d, 0x4a90d9, 0x5bbf6a, 0xe0b03a, 0x9a6ad9, 0x3ab8b0, 0xe07ab0, 0xc98b52];
/** Widest sign text in pixels: the header's width less the board. */
const SIGN_WIDTH = 132;

/** Accent colour of the station at a position (zones here, hover and drop highlights in the world). */
export function accentOf(index: number): number {
  return ACCENTS[index % ACCENTS.length];
}

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

  constructor(
    private readonly sprites: Sprites,
    readonly accentIndex: number,
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

  /** Applies a changed record or layout; says whether anything was redrawn (the backdrop then needs a paint). */
  update(record: StationModel, placed: StationLayout): boolean {
    const recordChanged = record !== this.record;
    const layoutChanged = !this.placed || !sameLayout(this.placed, placed);
    this.record = record;
    this.placed = placed;
    if (recordChanged) {
      this.sign.setText(shortenToWidth(record.lobby ? 'unassigned' : record.label, SIGN_WIDTH), 0x2a1f2a);
      this.count.setText(record.backlogError ? '!' : String(record.backlogCount), record.backlogError ? 0xd9485f : 0x2a1f2a);
      if (!record.lobby) {
        const known = (BUILT_IN_ROLES as readonly string[]).includes(record.key);
        this.tool.texture = this.sprites.frame(`icon_${known ? record.key : 'custom'}`);
      }
    }
    if (recordChanged || layoutChanged) this.place(placed);
    return recordChanged || layoutChanged;
  }

  private drawZone(placed: StationLayout): void {
    const { rect } = placed;
    const accent = accentOf(this.accentIndex);
    this.zone.clear();
    this.zone.rect(rect.x, rect.y, rect.width, rect.height).fill({ color: accent, alpha: 0.16 });
    this.zone.rect(rect.x, rect.y, rect.width, rect.height).stroke({ color: accent, width: 2, alignment: 1 });
    // The header strip (sign, bench, board) is a shade darker than where the agents stand.
    this.zone.rect(rect.x + 2, rect.y + 2, rect.width - 4, 42).fill({ color: accent, alpha: 0.1 });
  }

  private place(placed: StationLayout): void {
    const { rect } = placed;
    this.drawZone(placed);
    const signWidth = this.sign.textWidth + 8;
    this.signPlate.clear();
    this.signPlate.rect(placed.sign.x, placed.sign.y, signWidth, 11).fill(0x6b4226);
    this.signPlate.rect(placed.sign.x + 1, placed.sign.y + 1, signWidth - 2, 9).fill(0xfff1c9);
    this.signPlate.rect(placed.sign.x + 1, placed.sign.y + 11, signWidth - 1, 1).fill({ color: 0x000000, alpha: 0.2 });
    this.sign.position.set(placed.sign.x + 4, placed.sign.y + 2);
    this.bench.position.set(placed.bench.x, placed.bench.y);
    this.tool.position.set(placed.bench.x + 40, placed.bench.y - 6);
    this.board.position.set(placed.board.x, placed.board.y);
    // The count is written on the board's paper (columns 4–25, rows 7–20 of the board sprite).
    this.count.position.set(placed.board.x + 15 - Math.floor(this.count.textWidth / 2), placed.board.y + 10);
    if (this.rug && this.door && this.plant && placed.door) {
      this.rug.position.set(rect.x + 2, rect.y + 2);
      this.rug.width = rect.width - 4;
      this.rug.height = rect.height - 4;
      this.door.position.set(placed.door.x, placed.door.y);
      this.plant.position.set(rect.x + rect.width - 18, rect.y + 6);
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
