/**
 * Label pictures on the GPU: shared pages of pixels holding every name plate, badge, sign, count and bubble in rows
 * of fixed-width slots. Equal labels share a slot; a label nobody shows stays cached until its slot is needed. One
 * texture source for all labels keeps them in the same draw call as the characters, and a changed label uploads only
 * the rows it touched, before the next draw.
 */
import { BufferImageSource, Rectangle, Texture } from 'pixi.js';
import type { LabelPicture } from './labelPictures';
import { SlotCache, type PixelImage } from './looks';
import type { GlyphArt } from './pixelFont';

/** Width and height of a page in pixels. */
const PAGE_SIZE = 1024;
/** Height of a row of slots: the tallest label (11 px) and a transparent pixel, so nearest sampling never bleeds. */
const ROW_HEIGHT = 12;
/** Slot widths: a label takes the narrowest that holds it (and a transparent column after it). */
const SLOT_WIDTHS = [16, 32, 64, 128, 256, 512, PAGE_SIZE - 1];

interface Page {
  image: PixelImage;
  source: BufferImageSource;
  rows: number;
  /** Rows (pixels) changed since the last upload; empty while the GPU copy is current. */
  dirtyTop: number;
  dirtyBottom: number;
}

interface SlotClass {
  width: number;
  perRow: number;
  rows: { page: Page; top: number }[];
  cache: SlotCache<string>;
  textures: Texture[];
}

/** A label shown by a view: hand it back with LabelAtlas.release when the view shows another or goes. */
export interface HeldLabel {
  readonly key: string;
  readonly texture: Texture;
  readonly width: number;
  readonly height: number;
}

/** The atlas of label pictures. */
export class LabelAtlas {
  private readonly pages: Page[] = [];
  private blankTexture: Texture | null = null;
  private readonly classes: SlotClass[] = SLOT_WIDTHS.map((width) => ({ width, perRow: Math.floor(PAGE_SIZE / (width + 1)), rows: [], cache: new SlotCache<string>(0), textures: [] }));

  constructor(private readonly art: GlyphArt) {}

  /** Takes a reference to a label's picture, painting it if it is not cached. Wider than a page is clipped. */
  acquire(picture: LabelPicture): HeldLabel {
    const slots = this.classOf(picture.width);
    let taken = slots.cache.acquire(picture.key);
    if (!taken) {
      this.addRow(slots);
      taken = slots.cache.acquire(picture.key)!;
    }
    if (taken.fresh) this.paint(slots, taken.slot, picture);
    const texture = slots.textures[taken.slot];
    return { key: picture.key, texture, width: picture.width, height: picture.height };
  }

  /** Gives back a label taken by acquire; it stays cached until its slot is needed. */
  release(held: HeldLabel): void {
    this.classOf(held.width).cache.release(held.key);
  }

  /** How many pages (textures) the atlas holds. */
  get pageCount(): number {
    return this.pages.length;
  }

  private classOf(width: number): SlotClass {
    return this.classes.find((slots) => slots.width >= width) ?? this.classes[this.classes.length - 1];
  }

  /**
   * A transparent pixel of the first page: what a label sprite shows while it shows nothing. Being of the same source
   * as the labels, showing it (or a label again) changes no batch, where a hidden sprite or another source would make
   * Pixi rebuild the whole scene's draw instructions. No row reaches the page's last pixel, so it stays transparent.
   * A view showing it stays visible while it shows nothing: the page hook's label readout (readout.ts) skips it.
   */
  get blank(): Texture {
    this.blankTexture ??= new Texture({ source: (this.pages[0] ?? this.addPage()).source, frame: new Rectangle(PAGE_SIZE - 1, PAGE_SIZE - 1, 1, 1) });
    return this.blankTexture;
  }

  private addPage(): Page {
    const data = new Uint8Array(PAGE_SIZE * PAGE_SIZE * 4);
    // Premultiplied pixels, sampled nearest so the pixel font stays crisp at every whole scale.
    const source = new BufferImageSource({ resource: data, width: PAGE_SIZE, height: PAGE_SIZE, format: 'rgba8unorm', alphaMode: 'premultiplied-alpha', scaleMode: 'nearest' });
    const page = { image: { width: PAGE_SIZE, height: PAGE_SIZE, data }, source, rows: 0, dirtyTop: PAGE_SIZE, dirtyBottom: 0 };
    this.pages.push(page);
    return page;
  }

  private addRow(slots: SlotClass): void {
    let page = this.pages[this.pages.length - 1];
    if (!page || (page.rows + 1) * ROW_HEIGHT > PAGE_SIZE) page = this.addPage();
    slots.rows.push({ page, top: page.rows * ROW_HEIGHT });
    page.rows += 1;
    slots.cache.grow(slots.perRow);
  }

  private paint(slots: SlotClass, slot: number, picture: LabelPicture): void {
    const { page, top } = slots.rows[Math.floor(slot / slots.perRow)];
    const left = (slot % slots.perRow) * (slots.width + 1);
    const width = Math.min(picture.width, slots.width);
    const height = Math.min(picture.height, ROW_HEIGHT - 1);
    for (let row = top; row < top + ROW_HEIGHT; row += 1) {
      const start = (row * PAGE_SIZE + left) * 4;
      page.image.data.fill(0, start, start + slots.width * 4);
    }
    // Paint into a view of the slot, so a picture can never spill into its neighbours.
    const box: PixelImage = { width: slots.width, height: ROW_HEIGHT - 1, data: new Uint8Array(slots.width * (ROW_HEIGHT - 1) * 4) };
    picture.paint(this.art, box, 0, 0);
    for (let row = 0; row < height; row += 1) {
      page.image.data.set(box.data.subarray(row * slots.width * 4, (row * slots.width + width) * 4), ((top + row) * PAGE_SIZE + left) * 4);
    }
    slots.textures[slot]?.destroy(false);
    slots.textures[slot] = new Texture({ source: page.source, frame: new Rectangle(left, top, width, height) });
    page.dirtyTop = Math.min(page.dirtyTop, top);
    page.dirtyBottom = Math.max(page.dirtyBottom, top + ROW_HEIGHT);
  }

  /** Sends the rows painted since the last upload to the GPU; the scene calls it before each draw. */
  upload(): void {
    for (const page of this.pages) {
      if (page.dirtyBottom <= page.dirtyTop) continue;
      page.source.update(page.dirtyTop * PAGE_SIZE, page.dirtyBottom * PAGE_SIZE);
      page.dirtyTop = PAGE_SIZE;
      page.dirtyBottom = 0;
    }
  }
}
