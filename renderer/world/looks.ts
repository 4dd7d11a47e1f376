/**
 * A character's look pre-composited: its four sheet layers (skin, tinted shirt, tinted hair, accessory) flattened into
 * one strip holding every animation frame, so the scene draws one quad per character instead of four. Pure pixels and
 * slot bookkeeping; the GPU side is in lookAtlas.ts.
 */
import type { Appearance } from '../../shared/schemas';

/** Shirt colours by palette index. */
export const SHIRTS = [0xe05a5a, 0x4a90d9, 0x5bbf6a, 0xe0b03a, 0x9a6ad9, 0x3ab8b0, 0xe07ab0, 0x8f98a8];
/** Hair colours; a persona's is picked from its hair style and palette. */
export const HAIRS = [0x3a2a1a, 0xd9b050, 0xa04a20, 0x202020, 0xe0e0e0, 0x7a4a2a, 0xc05080, 0x4060c0];
/** The animation frames of a strip, left to right (the sheet's own frame names). */
export const LOOK_FRAMES = ['stand', 'rest', 'work0', 'work1', 'work2', 'work3', 'walk0', 'walk1'] as const;
/** One animation frame's name. */
export type LookFrame = (typeof LOOK_FRAMES)[number];
/** Transparent pixels between frames, so a fractional zoom cannot sample the neighbouring frame. */
export const LOOK_GAP = 1;

/** RGBA pixels, row by row, four bytes a pixel. */
export interface PixelImage {
  width: number;
  height: number;
  data: Uint8Array | Uint8ClampedArray;
}

/** A rectangle on the sprite sheet, in pixels. */
export interface SheetRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Everything needed to composite a look from the sheet. */
export interface LookArt {
  /** The sprite sheet's pixels, straight (not premultiplied) alpha. */
  sheet: PixelImage;
  /** Where a named frame sits on the sheet; throws for an unknown name. */
  frameOf: (name: string) => SheetRect;
  /** Character frame size in pixels. */
  width: number;
  height: number;
  /** How far (px) hair and accessories move down for each body shape. */
  headOffset: readonly number[];
}

/** A number that names a look: equal looks share one strip. */
export function lookKey(look: Appearance): number {
  return ((look.body * 8 + look.hair) * 8 + look.palette) * 6 + look.accessory;
}

/** The hair colour of a look. */
export function hairColour(look: Appearance): number {
  return HAIRS[(look.hair * 3 + look.palette) % HAIRS.length];
}

/** Size in pixels of one look's strip, gaps included (a gap after each frame and below the row). */
export function stripSize(art: Pick<LookArt, 'width' | 'height'>): { width: number; height: number } {
  return { width: LOOK_FRAMES.length * (art.width + LOOK_GAP), height: art.height + LOOK_GAP };
}

/**
 * Draws one sheet frame over the target, multiplied by `tint` (as the GPU tints a sprite) and blended source-over.
 * The target holds premultiplied alpha; rows that fall outside the frame box are clipped.
 */
function layer(art: LookArt, target: PixelImage, name: string, tint: number, left: number, top: number, shift: number): void {
  const rect = art.frameOf(name);
  const { sheet } = art;
  const red = ((tint >> 16) & 0xff) / 255;
  const green = ((tint >> 8) & 0xff) / 255;
  const blue = (tint & 0xff) / 255;
  const rows = Math.min(rect.h, art.height - shift);
  const columns = Math.min(rect.w, art.width);
  for (let row = 0; row < rows; row += 1) {
    for (let column = 0; column < columns; column += 1) {
      const from = ((rect.y + row) * sheet.width + rect.x + column) * 4;
      const alpha = sheet.data[from + 3] / 255;
      if (alpha === 0) continue;
      const to = ((top + row + shift) * target.width + left + column) * 4;
      const keep = 1 - alpha;
      const data = target.data;
      data[to] = Math.round(sheet.data[from] * red * alpha + data[to] * keep);
      data[to + 1] = Math.round(sheet.data[from + 1] * green * alpha + data[to + 1] * keep);
      data[to + 2] = Math.round(sheet.data[from + 2] * blue * alpha + data[to + 2] * keep);
      data[to + 3] = Math.round(alpha * 255 + data[to + 3] * keep);
    }
  }
}

/**
 * Composites a look's strip into `target` with its top-left corner at (left, top): each frame of LOOK_FRAMES in
 * turn, the layers in the order the scene used to stack them. The whole strip box (gaps too) is cleared first, so a
 * reused slot keeps nothing of its previous look. Output is premultiplied alpha.
 */
export function drawLook(art: LookArt, look: Appearance, target: PixelImage, left: number, top: number): void {
  const size = stripSize(art);
  for (let row = 0; row < size.height; row += 1) {
    const start = ((top + row) * target.width + left) * 4;
    target.data.fill(0, start, start + size.width * 4);
  }
  const headOffset = art.headOffset[look.body] ?? 0;
  LOOK_FRAMES.forEach((frame, index) => {
    const x = left + index * (art.width + LOOK_GAP);
    layer(art, target, `skin_${look.body}_${frame}`, 0xffffff, x, top, 0);
    layer(art, target, `clothes_${look.body}_${frame}`, SHIRTS[look.palette] ?? SHIRTS[0], x, top, 0);
    layer(art, target, `hair_${look.hair}`, hairColour(look), x, top, headOffset);
    if (look.accessory > 0) layer(art, target, `accessory_${look.accessory}`, 0xffffff, x, top, headOffset);
  });
}

/**
 * Which slot holds which look: a bounded cache with reference counts. A look in use keeps its slot; a look no agent
 * wears any more stays cached (it may come back) until its slot is needed, least recently released first.
 */
export class SlotCache<Key = number> {
  private readonly slots = new Map<Key, { slot: number; users: number }>();
  /** Looks nobody wears, oldest release first (Map keeps insertion order). */
  private readonly idle = new Map<Key, number>();
  private nextFree = 0;

  constructor(private capacityValue: number) {}

  /** How many slots there are. */
  get capacity(): number {
    return this.capacityValue;
  }

  /** Adds slots (a new atlas page). */
  grow(slots: number): void {
    this.capacityValue += slots;
  }

  /**
   * Takes a reference to a look's slot. `fresh` says the slot must be (re)drawn; null means every slot is in use.
   */
  acquire(key: Key): { slot: number; fresh: boolean } | null {
    const held = this.slots.get(key);
    if (held) {
      held.users += 1;
      this.idle.delete(key);
      return { slot: held.slot, fresh: false };
    }
    let slot: number;
    if (this.nextFree < this.capacityValue) {
      slot = this.nextFree;
      this.nextFree += 1;
    } else {
      const oldest = this.idle.keys().next();
      if (oldest.done) return null;
      slot = this.slots.get(oldest.value)!.slot;
      this.idle.delete(oldest.value);
      this.slots.delete(oldest.value);
    }
    this.slots.set(key, { slot, users: 1 });
    return { slot, fresh: true };
  }

  /** Drops a reference taken by acquire; the look stays cached until its slot is reused. */
  release(key: Key): void {
    const held = this.slots.get(key);
    if (!held || held.users === 0) throw new Error(`${String(key)} was released more often than acquired.`);
    held.users -= 1;
    if (held.users === 0) this.idle.set(key, held.slot);
  }

  /** The slot a look is cached in, if any. */
  slotOf(key: Key): number | undefined {
    return this.slots.get(key)?.slot;
  }
}
