import { describe, expect, it } from 'vitest';
import { drawLook, hairColour, LOOK_FRAMES, lookKey, SHIRTS, SlotCache, stripSize, type LookArt, type PixelImage, type SheetRect } from './looks';

/** A tiny sheet: every frame 2×3 px, one solid colour each, laid out in a row; names decide the colour. */
function tinySheet(headOffset: number[] = [0, 0, 0, 1]): LookArt {
  const names: string[] = [];
  for (let body = 0; body < 4; body += 1) for (const frame of LOOK_FRAMES) names.push(`skin_${body}_${frame}`, `clothes_${body}_${frame}`);
  for (let hair = 0; hair < 8; hair += 1) names.push(`hair_${hair}`);
  for (let accessory = 1; accessory < 6; accessory += 1) names.push(`accessory_${accessory}`);
  const width = names.length * 2;
  const data = new Uint8ClampedArray(width * 3 * 4);
  const rects = new Map<string, SheetRect>();
  names.forEach((name, index) => {
    rects.set(name, { x: index * 2, y: 0, w: 2, h: 3 });
    // skin: only the bottom row; clothes: only the middle row; hair: only the top row; accessory: the top-left pixel.
    const rows = name.startsWith('skin') ? [2] : name.startsWith('clothes') ? [1] : name.startsWith('hair') ? [0] : [];
    const colour = name.startsWith('skin') ? [200, 150, 100 + index % 50] : [255, 255, 255];
    const pixels: [number, number][] = name.startsWith('accessory') ? [[0, 0]] : rows.flatMap((row) => [[0, row], [1, row]] as [number, number][]);
    for (const [column, row] of pixels) data.set([...colour, 255], (row * width + index * 2 + column) * 4);
  });
  return {
    sheet: { width, height: 3, data },
    frameOf: (name) => {
      const rect = rects.get(name);
      if (!rect) throw new Error(`no frame ${name}`);
      return rect;
    },
    width: 2,
    height: 3,
    headOffset,
  };
}

function pixel(image: PixelImage, x: number, y: number): number[] {
  const at = (y * image.width + x) * 4;
  return [...image.data.slice(at, at + 4)];
}

function rgb(colour: number): number[] {
  return [(colour >> 16) & 0xff, (colour >> 8) & 0xff, colour & 0xff, 255];
}

describe('drawLook', () => {
  it('stacks skin, tinted shirt, tinted hair and accessory into every frame of the strip', () => {
    const art = tinySheet();
    const size = stripSize(art);
    expect(size).toEqual({ width: LOOK_FRAMES.length * 3, height: 4 });
    const target: PixelImage = { width: size.width, height: size.height, data: new Uint8Array(size.width * size.height * 4) };
    const look = { body: 1, hair: 2, palette: 3, accessory: 4 };
    drawLook(art, look, target, 0, 0);
    LOOK_FRAMES.forEach((frame, index) => {
      const left = index * 3;
      // Accessory (untinted white) over tinted hair at the top-left, hair colour beside it.
      expect(pixel(target, left, 0)).toEqual([255, 255, 255, 255]);
      expect(pixel(target, left + 1, 0)).toEqual(rgb(hairColour(look)));
      expect(pixel(target, left, 1)).toEqual(rgb(SHIRTS[3]));
      const skin = art.frameOf(`skin_1_${frame}`);
      expect(pixel(target, left + 1, 2)).toEqual([...art.sheet.data.slice((2 * art.sheet.width + skin.x) * 4, (2 * art.sheet.width + skin.x) * 4 + 4)]);
      // The gap column and the gap row stay transparent.
      expect(pixel(target, left + 2, 1)).toEqual([0, 0, 0, 0]);
      expect(pixel(target, left, 3)).toEqual([0, 0, 0, 0]);
    });
  });

  it('moves hair down by the body head offset, clips it at the frame and leaves out accessory 0', () => {
    const art = tinySheet();
    const target: PixelImage = { width: LOOK_FRAMES.length * 3, height: 4, data: new Uint8Array(LOOK_FRAMES.length * 3 * 4 * 4) };
    const look = { body: 3, hair: 0, palette: 0, accessory: 0 };
    drawLook(art, look, target, 0, 0);
    expect(pixel(target, 0, 0)).toEqual([0, 0, 0, 0]);
    // Hair (shifted into row 1) covers the shirt there.
    expect(pixel(target, 0, 1)).toEqual(rgb(hairColour(look)));
    expect(pixel(target, 0, 3)).toEqual([0, 0, 0, 0]);
  });

  it('clears a reused slot of its previous look, at an offset inside a larger page', () => {
    const art = tinySheet();
    const page: PixelImage = { width: 40, height: 10, data: new Uint8Array(40 * 10 * 4) };
    drawLook(art, { body: 0, hair: 1, palette: 1, accessory: 5 }, page, 20, 5);
    // Body 3 moves the hair a row down, so the top row must come out empty rather than keep the old hair.
    drawLook(art, { body: 3, hair: 1, palette: 1, accessory: 0 }, page, 20, 5);
    expect(pixel(page, 20, 5)).toEqual([0, 0, 0, 0]);
    expect(pixel(page, 20, 6)).toEqual(rgb(hairColour({ body: 3, hair: 1, palette: 1, accessory: 0 })));
    expect(pixel(page, 19, 5)).toEqual([0, 0, 0, 0]);
    expect(pixel(page, 20, 4)).toEqual([0, 0, 0, 0]);
  });

  it('throws for a frame the sheet does not have', () => {
    const art = tinySheet();
    const target: PixelImage = { width: LOOK_FRAMES.length * 3, height: 4, data: new Uint8Array(LOOK_FRAMES.length * 3 * 4 * 4) };
    expect(() => drawLook(art, { body: 0, hair: 9, palette: 0, accessory: 0 }, target, 0, 0)).toThrow('no frame hair_9');
  });
});

describe('lookKey', () => {
  it('gives every possible look its own key', () => {
    const keys = new Set<number>();
    for (let body = 0; body < 4; body += 1)
      for (let hair = 0; hair < 8; hair += 1)
        for (let palette = 0; palette < 8; palette += 1) for (let accessory = 0; accessory < 6; accessory += 1) keys.add(lookKey({ body, hair, palette, accessory }));
    expect(keys.size).toBe(4 * 8 * 8 * 6);
  });
});

describe('SlotCache', () => {
  it('shares a slot between wearers of one look and draws it only the first time', () => {
    const cache = new SlotCache(2);
    expect(cache.acquire(7)).toEqual({ slot: 0, fresh: true });
    expect(cache.acquire(7)).toEqual({ slot: 0, fresh: false });
    expect(cache.acquire(9)).toEqual({ slot: 1, fresh: true });
  });

  it('keeps released looks until their slot is needed, then evicts the least recently released', () => {
    const cache = new SlotCache(2);
    cache.acquire(1);
    cache.acquire(2);
    cache.release(2);
    cache.release(1);
    // Look 2 comes back from the cache without a redraw.
    expect(cache.acquire(2)).toEqual({ slot: 1, fresh: false });
    cache.release(2);
    // A new look takes the slot of look 1 (released before look 2's latest release).
    expect(cache.acquire(3)).toEqual({ slot: 0, fresh: true });
    expect(cache.slotOf(1)).toBeUndefined();
    expect(cache.slotOf(2)).toBe(1);
  });

  it('never evicts a look in use: it reports a full cache, and grows on request', () => {
    const cache = new SlotCache(1);
    cache.acquire(1);
    expect(cache.acquire(2)).toBeNull();
    cache.grow(1);
    expect(cache.capacity).toBe(2);
    expect(cache.acquire(2)).toEqual({ slot: 1, fresh: true });
    expect(cache.slotOf(1)).toBe(0);
  });

  it('rejects a release without an acquire', () => {
    const cache = new SlotCache(1);
    expect(() => cache.release(4)).toThrow('released more often than acquired');
    cache.acquire(4);
    cache.release(4);
    expect(() => cache.release(4)).toThrow('released more often than acquired');
  });
});
