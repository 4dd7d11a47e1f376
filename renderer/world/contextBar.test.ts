// The context bar's rules: levels by whole percent, unknown without a fill, filled cells, and its pixel picture.
import { describe, expect, it } from 'vitest';
import type { Usage } from '../../shared/usage';
import { BAR_CELLS, BAR_HEIGHT, BAR_WIDTH, contextGauge, fillPercent, filledCells, levelOf, UNKNOWN_GAUGE } from './contextBar';
import { contextBarPicture } from './contextBarPicture';
import type { PixelImage } from './looks';
import type { GlyphArt } from './pixelFont';

const art: GlyphArt = { sheet: { width: 1, height: 1, data: new Uint8ClampedArray(4) }, frameOf: () => ({ x: 0, y: 0, w: 1, h: 1 }) };
const totals = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 };
const usage = (context: Usage['context']): Usage => ({ context, totals, partial: false });

function painted(gauge: Parameters<typeof contextBarPicture>[0]): PixelImage {
  const picture = contextBarPicture(gauge);
  const image = { width: picture.width, height: picture.height, data: new Uint8Array(picture.width * picture.height * 4) };
  picture.paint(art, image, 0, 0);
  return image;
}
const rgb = (image: PixelImage, x: number, y: number) => {
  const at = (y * image.width + x) * 4;
  return (image.data[at] << 16) | (image.data[at + 1] << 8) | image.data[at + 2];
};

describe('the context bar', () => {
  it('is calm below 70 %, warning from 70 % (70–80 included), alarm from 95 %', () => {
    expect([0, 50, 69, 70, 75, 79, 80, 94, 95, 100, 130].map(levelOf)).toEqual([
      'calm', 'calm', 'calm', 'warning', 'warning', 'warning', 'warning', 'warning', 'alarm', 'alarm', 'alarm',
    ]);
    expect(levelOf(null)).toBe('unknown');
  });

  it('rounds the fill down to a whole percent without float error lifting or dropping a threshold', () => {
    expect([0.7, 0.29, 0.6999, 0.95, 0.9499, 1.2].map(fillPercent)).toEqual([70, 29, 69, 95, 94, 120]);
  });

  it('is unknown when usage is absent, its context is null or its window (fill) is not known', () => {
    expect(contextGauge(undefined)).toEqual(UNKNOWN_GAUGE);
    expect(contextGauge(usage(null))).toEqual(UNKNOWN_GAUGE);
    expect(contextGauge(usage({ used: 5000, window: null, fill: null }))).toEqual(UNKNOWN_GAUGE);
    expect(contextGauge(usage({ used: 170_000, window: 200_000, fill: 0.85 }))).toEqual({ level: 'warning', percent: 85 });
    expect(contextGauge(usage({ used: 0, window: 200_000, fill: 0 }))).toEqual({ level: 'calm', percent: 0 });
  });

  it('fills at least one cell from 1 % and all of them from 100 %', () => {
    expect([null, 0, 1, 50, 99, 100, 180].map(filledCells)).toEqual([0, 0, 1, BAR_CELLS / 2, BAR_CELLS, BAR_CELLS, BAR_CELLS]);
  });

  it('draws an ink frame, the fill in the level\'s colour on a dark track, and a grey hatch when unknown', () => {
    const half = painted({ level: 'calm', percent: 50 });
    expect(half.width).toBe(BAR_WIDTH);
    expect(half.height).toBe(BAR_HEIGHT);
    expect(rgb(half, 1, 0)).toBe(0x2a1f2a);
    const filled = rgb(half, 1, 2);
    const track = rgb(half, BAR_CELLS, 2);
    expect(filled).not.toBe(track);
    const alarm = painted({ level: 'alarm', percent: 50 });
    expect(rgb(alarm, 1, 2)).not.toBe(filled);
    const unknown = painted(UNKNOWN_GAUGE);
    const hatch = new Set(Array.from({ length: BAR_CELLS }, (_, column) => rgb(unknown, column + 1, 1)));
    expect(hatch.size).toBe(2);
    // The lower row is the upper one shifted by a cell: diagonal stripes.
    for (let x = 1; x < BAR_CELLS; x += 1) expect(rgb(unknown, x, 2)).toBe(rgb(unknown, x + 1, 1));
  });

  it('names each distinct bar once in the label atlas: level and filled cells, not the exact percent', () => {
    expect(contextBarPicture({ level: 'calm', percent: 50 }).key).toBe(contextBarPicture({ level: 'calm', percent: 52 }).key);
    expect(contextBarPicture({ level: 'calm', percent: 50 }).key).not.toBe(contextBarPicture({ level: 'calm', percent: 60 }).key);
    expect(contextBarPicture({ level: 'warning', percent: 94 }).key).not.toBe(contextBarPicture({ level: 'alarm', percent: 95 }).key);
  });
});
