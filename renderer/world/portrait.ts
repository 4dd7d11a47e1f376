/**
 * A small portrait of a character for the DOM panels: the head and shoulders of its standing frame, composited from
 * the same sheet and look as the world draws it (looks.ts), as a data URL. Portraits are cached per look.
 */
import type { Appearance } from '../../shared/schemas';
import { drawLook, lookKey, stripSize, type LookArt, type PixelImage } from './looks';

/** Rows of the standing frame the portrait keeps (head and shoulders of a 26-pixel character). */
const PORTRAIT_ROWS = 14;

/** Crops the standing frame's top rows out of a composited strip, turning premultiplied alpha back to straight. */
export function portraitPixels(art: LookArt, look: Appearance): PixelImage {
  const size = stripSize(art);
  const strip: PixelImage = { width: size.width, height: size.height, data: new Uint8Array(size.width * size.height * 4) };
  drawLook(art, look, strip, 0, 0);
  const rows = Math.min(PORTRAIT_ROWS, art.height);
  const out: PixelImage = { width: art.width, height: rows, data: new Uint8ClampedArray(art.width * rows * 4) };
  for (let row = 0; row < rows; row += 1) {
    for (let column = 0; column < art.width; column += 1) {
      const from = (row * strip.width + column) * 4;
      const to = (row * out.width + column) * 4;
      const alpha = strip.data[from + 3];
      if (alpha === 0) continue;
      for (let channel = 0; channel < 3; channel += 1) out.data[to + channel] = Math.min(255, Math.round((strip.data[from + channel] * 255) / alpha));
      out.data[to + 3] = alpha;
    }
  }
  return out;
}

/** Portraits as data URLs, one per look. */
export class Portraits {
  private readonly cache = new Map<number, string>();

  constructor(private readonly art: LookArt) {}

  /** The data URL of a look's portrait. */
  url(look: Appearance): string {
    const key = lookKey(look);
    const known = this.cache.get(key);
    if (known) return known;
    const pixels = portraitPixels(this.art, look);
    const canvas = document.createElement('canvas');
    canvas.width = pixels.width;
    canvas.height = pixels.height;
    const context = canvas.getContext('2d')!;
    const image = context.createImageData(pixels.width, pixels.height);
    image.data.set(pixels.data);
    context.putImageData(image, 0, 0);
    const url = canvas.toDataURL('image/png');
    this.cache.set(key, url);
    return url;
  }
}
