import { describe, expect, it } from 'vitest';
import { badgePicture, bubblePicture, platePicture } from './labelPictures';
import type { GlyphArt } from './pixelFont';

// Pixi reads `navigator` as it loads; Node 20 has none.
(globalThis as { navigator?: unknown }).navigator ??= { userAgent: 'node' };
const { LabelAtlas } = await import('./labelAtlas');

/** Every glyph a solid white 5×7 block. */
const art: GlyphArt = {
  sheet: { width: 5, height: 7, data: new Uint8ClampedArray(5 * 7 * 4).fill(255) },
  frameOf: () => ({ x: 0, y: 0, w: 5, h: 7 }),
};

describe('LabelAtlas.blank', () => {
  it('is a pixel of the labels’ own source that no label ever paints, so it stays transparent', () => {
    const atlas = new LabelAtlas(art);
    const blank = atlas.blank;
    // Enough labels of every width to fill the first page's rows.
    const held = [];
    for (let index = 0; index < 400; index += 1) {
      held.push(atlas.acquire(platePicture(`agent number ${index} with a long name ${'x'.repeat(index % 60)}`, 0x3366cc)));
      held.push(atlas.acquire(badgePicture(String(index))));
    }
    held.push(atlas.acquire(bubblePicture('approval')));
    // Showing a label after the blank (or the blank after one) keeps to one texture source while labels fit a page.
    expect(held.filter((label) => label.texture.source === blank.source).length).toBeGreaterThan(0);
    expect(atlas.blank).toBe(blank);
    const data = (blank.source.resource as Uint8Array);
    const { x, y } = blank.frame;
    const at = (y * blank.source.width + x) * 4;
    expect([...data.slice(at, at + 4)]).toEqual([0, 0, 0, 0]);
    expect(blank.frame.width * blank.frame.height).toBe(1);
  });
});
