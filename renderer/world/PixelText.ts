/** Text drawn with the project's 5×7 proportional pixel font: crisp at every whole scale, rebuilt only on change. */
import { Container, Sprite } from 'pixi.js';
import atlas from '../../assets/generated/sprites.json';
import type { Sprites } from './sprites';

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

/** Shortens a text to at most `limit` characters, marking the cut with an ellipsis. */
export function shorten(text: string, limit: number): string {
  const characters = [...text];
  return characters.length <= limit ? text : `${characters.slice(0, limit - 1).join('').trimEnd()}${ELLIPSIS}`;
}

/** Shortens a text until it is at most `width` pixels wide in the pixel font, marking a cut with an ellipsis ("Junip…"). */
export function shortenToWidth(text: string, width: number): string {
  const characters = [...text.trim()];
  if (pixelTextWidth(characters.join('')) <= width) return characters.join('');
  while (characters.length > 0 && pixelTextWidth(`${characters.join('').trimEnd()}${ELLIPSIS}`) > width) characters.pop();
  return characters.length === 0 ? '' : `${characters.join('').trimEnd()}${ELLIPSIS}`;
}

/** A line of pixel text. */
export class PixelText extends Container {
  private text = '';
  private colour = 0xffffff;

  constructor(private readonly sprites: Sprites) {
    super();
  }

  /** Width of the current text in pixels. */
  get textWidth(): number {
    return pixelTextWidth(this.text);
  }

  /** Sets the text and colour; does nothing when neither changed. */
  setText(text: string, colour = 0xffffff): void {
    const spelled = pixelSpelling(text);
    if (spelled === this.text && colour === this.colour) return;
    this.text = spelled;
    this.colour = colour;
    for (const child of this.removeChildren()) child.destroy();
    let x = 0;
    for (const character of spelled) {
      if (character !== ' ') {
        const glyph = new Sprite(this.sprites.frame(`glyph_${character.codePointAt(0)}`));
        glyph.x = x;
        glyph.tint = colour;
        this.addChild(glyph);
      }
      x += WIDTHS.get(character)! + GLYPH_GAP;
    }
  }
}
