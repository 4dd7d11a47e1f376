/** Text drawn with the project's 3×5 pixel font: crisp at every integer zoom, rebuilt only when the text changes. */
import { Container, Sprite } from 'pixi.js';
import type { Sprites } from './sprites';

/** Advance of one character in pixels (3 px glyph + 1 px space). */
export const GLYPH_ADVANCE = 4;
/** Height of a line in pixels. */
export const GLYPH_HEIGHT = 5;
const KNOWN = new Set('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789?!-.:/+\'()_#,& ');

/** The font's spelling of a text: upper case, unknown characters as "?". */
export function pixelSpelling(text: string): string {
  return [...text.toUpperCase()].map((character) => (KNOWN.has(character) ? character : '?')).join('');
}

/** Width in pixels of a text in the pixel font. */
export function pixelTextWidth(text: string): number {
  return Math.max(0, [...text].length * GLYPH_ADVANCE - 1);
}

/** Shortens a text to at most `limit` characters, marking the cut with a dot. */
export function shorten(text: string, limit: number): string {
  const characters = [...text];
  return characters.length <= limit ? text : `${characters.slice(0, limit - 1).join('')}.`;
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
    [...spelled].forEach((character, index) => {
      if (character === ' ') return;
      const glyph = new Sprite(this.sprites.frame(`glyph_${character.codePointAt(0)}`));
      glyph.x = index * GLYPH_ADVANCE;
      glyph.tint = colour;
      this.addChild(glyph);
    });
  }
}
