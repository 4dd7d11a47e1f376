/**
 * The plank floor as one picture: the tiles drawn once into a canvas (grown when a floor needs more), and a floor of
 * any size shown as one sprite cut from its top-left corner. Each tile's variant depends on its position only
 * (`floorVariant`), so a smaller floor is exactly the corner of a larger one. Painting the backdrop then draws one
 * picture instead of a sprite per tile (a 1280×736 floor is 3,680 of them, most of a paint's cost).
 */
import { Rectangle, Texture } from 'pixi.js';

/** Pixels of a floor tile, each way. */
export const TILE = 16;

/** The floor tile variant at a tile position: a fixed scatter, so the planks do not look like wallpaper. */
export function floorVariant(column: number, row: number): number {
  const hash = Math.imul(column * 73856093 + 1, 0x9e3779b1) ^ Math.imul(row * 19349663 + 7, 0x85ebca6b);
  const value = (hash >>> 0) % 16;
  return value < 10 ? 0 : value < 13 ? 1 : value < 15 ? 2 : 3;
}

/** A named frame of the sprite sheet (its texture's source is the sheet's image). */
type FrameOf = (name: string) => Texture;

/** The planks picture of the floors shown so far. */
export class Planks {
  private whole: Texture | null = null;
  /** Tiles across and down the canvas holds. */
  private columns = 0;
  private rows = 0;
  private shown: Texture | null = null;

  constructor(private readonly frameOf: FrameOf) {}

  /** The floor of `columns` × `rows` tiles, as a texture cut from the planks picture (drawn again only to grow). */
  texture(columns: number, rows: number): Texture {
    this.shown?.destroy(false);
    this.shown = null;
    // No floor (no station laid out): no planks.
    if (columns <= 0 || rows <= 0) return Texture.EMPTY;
    if (!this.whole || columns > this.columns || rows > this.rows) this.grow(Math.max(columns, this.columns), Math.max(rows, this.rows));
    this.shown = new Texture({ source: this.whole!.source, frame: new Rectangle(0, 0, columns * TILE, rows * TILE) });
    return this.shown;
  }

  /** Draws the planks of a larger floor into a new canvas. */
  private grow(columns: number, rows: number): void {
    const canvas = document.createElement('canvas');
    canvas.width = columns * TILE;
    canvas.height = rows * TILE;
    const context = canvas.getContext('2d')!;
    context.imageSmoothingEnabled = false;
    const tiles = [0, 1, 2, 3].map((variant) => this.frameOf(`floor_${variant}`));
    for (let row = 0; row < rows; row += 1) {
      for (let column = 0; column < columns; column += 1) {
        const tile = tiles[floorVariant(column, row)];
        const { x, y, width, height } = tile.frame;
        context.drawImage(tile.source.resource as CanvasImageSource, x, y, width, height, column * TILE, row * TILE, TILE, TILE);
      }
    }
    this.whole?.destroy(true);
    this.whole = Texture.from(canvas);
    this.whole.source.scaleMode = 'nearest';
    this.columns = columns;
    this.rows = rows;
  }
}
