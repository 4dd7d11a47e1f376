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
  let spelled = '';
  for (const character of text.toUpperCase()) spelled += WIDTHS.has(character) ? character : '?';
  return spelled;
}

/** Width in pixels of a text in the pixel font (counted in one walk over it: a zoom measures every plate again). */
export function pixelTextWidth(text: string): number {
  let total = 0;
  for (const character of text.toUpperCase()) total += (WIDTHS.get(character) ?? WIDTHS.get('?')!) + GLYPH_GAP;
  return Math.max(0, total - GLYPH_GAP);
}

/** The mark of a shortened text. */
export const ELLIPSIS = '…';

/** Shortened texts already worked out, by width and text (plates are shortened again at every zoom step). */
const shortened = new Map<string, string>();
/** Entries the cache keeps before starting over (names × rooms of a large fleet fit many times over). */
const SHORTENED_LIMIT = 4096;

/** Shortens a text until it is at most `width` pixels wide in the pixel font, marking a cut with an ellipsis ("Junip…"). */
export function shortenToWidth(text: string, width: number): string {
  const key = `${width}|${text}`;
  const known = shortened.get(key);
  if (known !== undefined) return known;
  const characters = [...text.trim()];
  let result = characters.join('');
  if (pixelTextWidth(result) > width) {
    // Characters come off the end until the rest and the ellipsis fit: widths add up, so no text is measured twice.
    const ellipsis = pixelTextWidth(ELLIPSIS) + GLYPH_GAP;
    let kept = characters.length;
    const widthOf = (count: number) => pixelTextWidth(characters.slice(0, count).join('').trimEnd());
    while (kept > 0 && widthOf(kept) + ellipsis > width) kept -= 1;
    result = kept === 0 ? '' : `${characters.slice(0, kept).join('').trimEnd()}${ELLIPSIS}`;
  }
  if (shortened.size >= SHORTENED_LIMIT) shortened.clear();
  shortened.set(key, result);
  return result;
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
