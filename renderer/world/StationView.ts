/** One station's still art, drawn into the backdrop: its floor zone, role icon, backlog board, compact desk when empty, or the lobby's door. */
import { Container, Graphics, Sprite, TilingSprite } from 'pixi.js';
import { BUILT_IN_ROLES } from '../../shared/roles';
import { HEADER_HEIGHT, LOBBY_HEADER_HEIGHT, type StationLayout } from './layout';
import type { StationModel } from './model';
import type { Sprites } from './sprites';

/** Accent colours of station zones, by position. */
const ACCENTS = [0xe2773d, 0x4a90d9, 0x5bbf6a, 0xe0b03a, 0x9a6ad9, 0x3ab8b0, 0xe07ab0, 0xc98b52];

/** The lobby's own accent: fixed, so its border does not change colour as stations come and go. */
export const LOBBY_ACCENT = 0xf0e0b0;

/** Accent colour of the station at a position (zones here, hover and drop highlights in the world). */
export function accentOf(index: number): number {
  return ACCENTS[index % ACCENTS.length];
}

/** The icon frame for a station's role: the built-in's own tool, a star for a custom role. */
export function iconOf(key: string): string {
  return `icon_${(BUILT_IN_ROLES as readonly string[]).includes(key) ? key : 'custom'}`;
}

/** A station on the floor. */
export class StationView extends Container {
  record: StationModel | null = null;
  private placed: StationLayout | null = null;
  private readonly zone = new Graphics();
  private readonly icon = new Sprite();
  private readonly bench: Sprite;
  private readonly board: Sprite;
  private readonly rug: TilingSprite | null = null;
  private readonly door: Sprite | null = null;
  private readonly plant: Sprite | null = null;

  /** The zone's colour: the lobby's own, else the one of the station's position. */
  readonly accent: number;

  constructor(
    private readonly sprites: Sprites,
    accentIndex: number,
    lobby: boolean,
  ) {
    super();
    this.accent = lobby ? LOBBY_ACCENT : accentOf(accentIndex);
    this.bench = new Sprite(sprites.frame('bench'));
    this.board = new Sprite(sprites.frame('board'));
    this.addChild(this.zone);
    if (lobby) {
      this.rug = new TilingSprite({ texture: sprites.tile('rug'), width: 16, height: 16 });
      this.rug.alpha = 0.35;
      this.door = new Sprite(sprites.frame('door'));
      this.plant = new Sprite(sprites.frame('plant'));
      this.addChild(this.rug, this.plant, this.door, this.bench);
    } else {
      this.addChild(this.icon, this.bench, this.board);
    }
  }

  /**
   * Applies a changed record or layout; says whether anything was redrawn (the backdrop then needs a paint). Only the
   * role (its icon) and the layout show here: a new backlog count is the label's, and repaints nothing of the floor.
   */
  update(record: StationModel, placed: StationLayout): boolean {
    const recordChanged = record.key !== this.record?.key || record.lobby !== this.record?.lobby;
    const layoutChanged = !this.placed || !sameLayout(this.placed, placed);
    this.record = record;
    this.placed = placed;
    if (recordChanged && !record.lobby) this.icon.texture = this.sprites.frame(iconOf(record.key));
    if (recordChanged || layoutChanged) this.place(placed, record.lobby);
    return recordChanged || layoutChanged;
  }

  private drawZone(placed: StationLayout, lobby: boolean): void {
    const { rect } = placed;
    const accent = this.accent;
    this.zone.clear();
    this.zone.rect(rect.x, rect.y, rect.width, rect.height).fill({ color: accent, alpha: 0.16 });
    this.zone.rect(rect.x, rect.y, rect.width, rect.height).stroke({ color: accent, width: 2, alignment: 1 });
    // The header strip (sign and board, or the door) is a shade darker than where the agents work.
    this.zone.rect(rect.x + 2, rect.y + 2, rect.width - 4, (lobby ? LOBBY_HEADER_HEIGHT : HEADER_HEIGHT) - 4).fill({ color: accent, alpha: 0.1 });
  }

  private place(placed: StationLayout, lobby: boolean): void {
    const { rect } = placed;
    this.drawZone(placed, lobby);
    this.icon.position.set(placed.sign.x, placed.sign.y + 2);
    this.board.position.set(placed.board.x, placed.board.y);
    this.bench.visible = placed.bench !== null;
    if (placed.bench) this.bench.position.set(placed.bench.x, placed.bench.y);
    if (this.rug && this.door && this.plant && placed.door) {
      this.rug.position.set(rect.x + 2, rect.y + 2);
      this.rug.width = rect.width - 4;
      this.rug.height = rect.height - 4;
      this.door.position.set(placed.door.x, placed.door.y);
      this.plant.position.set(placed.door.x - 16, rect.y + 6);
    }
  }
}

function sameLayout(first: StationLayout, second: StationLayout): boolean {
  return (
    first.rect.x === second.rect.x &&
    first.rect.y === second.rect.y &&
    first.rect.width === second.rect.width &&
    first.rect.height === second.rect.height &&
    (first.bench === null) === (second.bench === null)
  );
}
