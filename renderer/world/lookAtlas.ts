/**
 * Pre-composited character looks on the GPU: pages of pixel buffers, each holding a grid of look strips (see looks.ts).
 * A look is composited the first time an agent wears it; every character on a page shares one texture source, so
 * characters still batch together. Uploads wait for the next draw: a sync that dresses two hundred agents uploads
 * each touched page once, not two hundred times.
 */
import { BufferImageSource, Rectangle, Texture } from 'pixi.js';
import type { Appearance } from '../../shared/schemas';
import { drawLook, LOOK_FRAMES, LOOK_GAP, lookKey, SlotCache, stripSize, type LookArt, type LookFrame, type PixelImage } from './looks';

/** Strips across and down one page: 12 × 37 = 444 looks on a 1020 × 999 texture. */
const PAGE_COLUMNS = 12;
const PAGE_ROWS = 37;

interface Page {
  image: PixelImage;
  source: BufferImageSource;
  /** Rows (pixels) changed since the last upload; empty while the GPU copy is current. */
  dirtyTop: number;
  dirtyBottom: number;
}

/** A look an agent wears: one texture per animation frame. Hand it back with LookAtlas.release. */
export interface WornLook {
  readonly key: number;
  readonly frames: Readonly<Record<LookFrame, Texture>>;
}

/** The cache of composited looks, bounded by its pages (a page is added only when every slot is worn). */
export class LookAtlas {
  private readonly pages: Page[] = [];
  private readonly cache = new SlotCache(0);
  /** Frame textures by slot, made once per slot and reused when the slot gets another look. */
  private readonly slotFrames: Record<LookFrame, Texture>[] = [];
  private readonly strip: { width: number; height: number };

  constructor(private readonly art: LookArt) {
    this.strip = stripSize(art);
  }

  /** Takes a reference to a look, compositing it if it is not cached. */
  acquire(look: Appearance): WornLook {
    const key = lookKey(look);
    let taken = this.cache.acquire(key);
    if (!taken) {
      this.addPage();
      taken = this.cache.acquire(key)!;
    }
    if (taken.fresh) this.draw(look, taken.slot);
    return { key, frames: this.framesOf(taken.slot) };
  }

  /** Gives back a look taken by acquire; it stays cached until its slot is needed. */
  release(worn: WornLook): void {
    this.cache.release(worn.key);
  }

  /** How many pages (textures) the atlas holds. */
  get pageCount(): number {
    return this.pages.length;
  }

  private addPage(): void {
    const width = PAGE_COLUMNS * this.strip.width;
    const height = PAGE_ROWS * this.strip.height;
    const data = new Uint8Array(width * height * 4);
    // The pixels are premultiplied already; nearest sampling keeps the pixel art crisp at any zoom.
    const source = new BufferImageSource({ resource: data, width, height, format: 'rgba8unorm', alphaMode: 'premultiplied-alpha', scaleMode: 'nearest' });
    this.pages.push({ image: { width, height, data }, source, dirtyTop: height, dirtyBottom: 0 });
    this.cache.grow(PAGE_COLUMNS * PAGE_ROWS);
  }

  private place(slot: number): { page: Page; left: number; top: number } {
    const perPage = PAGE_COLUMNS * PAGE_ROWS;
    const page = this.pages[Math.floor(slot / perPage)];
    const index = slot % perPage;
    return { page, left: (index % PAGE_COLUMNS) * this.strip.width, top: Math.floor(index / PAGE_COLUMNS) * this.strip.height };
  }

  private draw(look: Appearance, slot: number): void {
    const { page, left, top } = this.place(slot);
    drawLook(this.art, look, page.image, left, top);
    page.dirtyTop = Math.min(page.dirtyTop, top);
    page.dirtyBottom = Math.max(page.dirtyBottom, top + this.strip.height);
  }

  /** Sends the rows drawn since the last upload to the GPU; the scene calls it before each draw. */
  upload(): void {
    for (const page of this.pages) {
      if (page.dirtyBottom <= page.dirtyTop) continue;
      // Only the changed rows travel: texel indices of whole rows.
      page.source.update(page.dirtyTop * page.image.width, page.dirtyBottom * page.image.width);
      page.dirtyTop = page.image.height;
      page.dirtyBottom = 0;
    }
  }

  private framesOf(slot: number): Record<LookFrame, Texture> {
    const known = this.slotFrames[slot];
    if (known) return known;
    const { page, left, top } = this.place(slot);
    const frames = {} as Record<LookFrame, Texture>;
    LOOK_FRAMES.forEach((frame, index) => {
      const x = left + index * (this.art.width + LOOK_GAP);
      frames[frame] = new Texture({ source: page.source, frame: new Rectangle(x, top, this.art.width, this.art.height) });
    });
    this.slotFrames[slot] = frames;
    return frames;
  }
}
