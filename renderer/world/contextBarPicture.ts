/** The context bar's pixel picture for the label atlas: original art, drawn here in code. Pure. */
import { BAR_CELLS, BAR_HEIGHT, BAR_WIDTH, filledCells, type ContextGauge, type ContextLevel } from './contextBar';
import type { LabelPicture } from './labelPictures';
import type { PixelImage } from './looks';
import { fillRect } from './pixelFont';

const INK = 0x2a1f2a;
const TRACK = 0x5a4a52;
/** Fill and its lighter top row per level (the top row gives the bar a little volume, as on the badges). */
const COLOURS: Record<Exclude<ContextLevel, 'unknown'>, { fill: number; light: number }> = {
  calm: { fill: 0x4fae8f, light: 0x7fd1b2 },
  warning: { fill: 0xe8a93a, light: 0xf6cf6e },
  alarm: { fill: 0xd8402f, light: 0xf07a62 },
};
const HATCH_DARK = 0x8c8fa3;
const HATCH_LIGHT = 0xc4c7d4;

/** The bar's picture: ink frame, filled cells in the level's colour on a dark track, or a grey hatch when unknown. */
export function contextBarPicture(gauge: ContextGauge): LabelPicture {
  const cells = gauge.level === 'unknown' ? 0 : filledCells(gauge.percent);
  return {
    key: `context:${gauge.level}:${cells}`,
    width: BAR_WIDTH,
    height: BAR_HEIGHT,
    paint(_art, target: PixelImage, left, top) {
      fillRect(target, left + 1, top, BAR_WIDTH - 2, BAR_HEIGHT, INK);
      fillRect(target, left, top + 1, BAR_WIDTH, BAR_HEIGHT - 2, INK);
      const inner = { x: left + 1, y: top + 1 };
      if (gauge.level === 'unknown') {
        // Diagonal stripes: a light cell every third column, shifted by one on the lower row.
        for (let row = 0; row < 2; row += 1) {
          for (let column = 0; column < BAR_CELLS; column += 1) fillRect(target, inner.x + column, inner.y + row, 1, 1, (column + row) % 3 === 0 ? HATCH_LIGHT : HATCH_DARK);
        }
        return;
      }
      fillRect(target, inner.x, inner.y, BAR_CELLS, 2, TRACK);
      if (cells === 0) return;
      const colour = COLOURS[gauge.level];
      fillRect(target, inner.x, inner.y, cells, 1, colour.light);
      fillRect(target, inner.x, inner.y + 1, cells, 1, colour.fill);
    },
  };
}
