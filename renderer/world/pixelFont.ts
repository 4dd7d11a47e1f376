/**
 * The project's 5×7 proportional pixel font: spelling, widths, shortening, and painting text into RGBA pixels (the
 * label atlas composites every label on the CPU, so a label is one quad on screen instead of a sprite per glyph).
 */
import atlas from '../../assets/generated/sprites.json';
import type { PixelImage, SheetRect } from './looks';

/** Height of a line in pixels. */
export const GLYPH_HEIGHT: number = atlas.meta.font.height;
/** Blank columns between two glyphs. */
const GLYPH_GAP = 1;
const WIDTHS = new Map<string, number>(Object.entries(atlas.meta.font.widths as Record<string, number>));

/** The font's spelling of a text: upper case, unknown characters as "?". */
export function pixelSpelling(text: string): string {
  return [...text.toUpperCase()].map((character) => (WIDTHS.has(character) ? character : '?')).join('');
}

/** Width in pixels of a text in the pixel font. */
export function pixelTextWidth(text: string): number {
  const characters = [...pixelSpelling(text)];
  return Math.max(0, characters.reduce((total, character) => total + WIDTHS.get(character)! + GLYPH_GAP, 0) - GLYPH_GAP);
}

/** The mark of a shortened text. */
export const ELLIPSIS = '…';

/** Shortens a text until it is at most `width` pixels wide in the pixel font, marking a cut with an ellipsis ("Junip…"). */
export function shortenToWidth(text: string, width: number): string {
  const characters = [...text.trim()];
  if (pixelTextWidth(characters.join('')) <= width) return characters.join('');
  while (characters.length > 0 && pixelTextWidth(`${characters.join('').trimEnd()}${ELLIPSIS}`) > width) characters.pop();
  return characters.length === 0 ? '' : `${characters.join('').trimEnd()}${ELLIPSIS}`;
}

/** Where the glyphs are: the sheet's pixels (straight alpha) and its frames. */
export interface GlyphArt {
  sheet: PixelImage;
  frameOf: (name: string) => SheetRect;
}

/**
 * Paints a text in the pixel font with its top-left at (x, y), each glyph multiplied by `colour` (as a tinted glyph
 * sprite is) and blended source-over a premultiplied target. Pixels outside the target are skipped.
 */
export function paintText(art: GlyphArt, target: PixelImage, x: number, y: number, text: string, colour: number): void {
  const red = (colour >> 16) & 0xff;
  const green = (colour >> 8) & 0xff;
  const blue = colour & 0xff;
  let left = x;
  for (const character of pixelSpelling(text)) {
    if (character !== ' ') {
      const rect = art.frameOf(`glyph_${character.codePointAt(0)}`);
      for (let row = 0; row < rect.h; row += 1) {
        const ty = y + row;
        if (ty < 0 || ty >= target.height) continue;
        for (let column = 0; column < rect.w; column += 1) {
          const tx = left + column;
          if (tx < 0 || tx >= target.width) continue;
          const from = ((rect.y + row) * art.sheet.width + rect.x + column) * 4;
          const alpha = art.sheet.data[from + 3] / 255;
          if (alpha === 0) continue;
          const to = (ty * target.width + tx) * 4;
          const keep = 1 - alpha;
          const data = target.data;
          data[to] = Math.round(((art.sheet.data[from] * red) / 255) * alpha + data[to] * keep);
          data[to + 1] = Math.round(((art.sheet.data[from + 1] * green) / 255) * alpha + data[to + 1] * keep);
          data[to + 2] = Math.round(((art.sheet.data[from + 2] * blue) / 255) * alpha + data[to + 2] * keep);
          data[to + 3] = Math.round(alpha * 255 + data[to + 3] * keep);
        }
      }
    }
    left += WIDTHS.get(character)! + GLYPH_GAP;
  }
}

/** Fills a rectangle of a premultiplied target with an opaque colour (clipped to the target). */
export function fillRect(target: PixelImage, x: number, y: number, width: number, height: number, colour: number): void {
  const red = (colour >> 16) & 0xff;
  const green = (colour >> 8) & 0xff;
  const blue = colour & 0xff;
  const top = Math.max(0, y);
  const bottom = Math.min(target.height, y + height);
  const left = Math.max(0, x);
  const right = Math.min(target.width, x + width);
  for (let row = top; row < bottom; row += 1) {
    for (let column = left; column < right; column += 1) {
      const at = (row * target.width + column) * 4;
      target.data[at] = red;
      target.data[at + 1] = green;
      target.data[at + 2] = blue;
      target.data[at + 3] = 255;
    }
  }
}
