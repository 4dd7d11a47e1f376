import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ELLIPSIS, pixelSpelling, pixelTextWidth, shortenToWidth } from './pixelFont';
import atlas from '../../assets/generated/sprites.json';

const widths = atlas.meta.font.widths as Record<string, number>;

/** The plain definition: the spelled text's glyph widths with one blank column between glyphs. */
function referenceWidth(text: string): number {
  const glyphs = [...pixelSpelling(text)];
  return Math.max(0, glyphs.reduce((total, glyph) => total + widths[glyph] + 1, 0) - 1);
}

/** The plain definition of shortening: drop characters from the end until the rest and the ellipsis fit. */
function referenceShorten(text: string, width: number): string {
  const characters = [...text.trim()];
  if (referenceWidth(characters.join('')) <= width) return characters.join('');
  while (characters.length > 0 && referenceWidth(`${characters.join('').trimEnd()}${ELLIPSIS}`) > width) characters.pop();
  return characters.length === 0 ? '' : `${characters.join('').trimEnd()}${ELLIPSIS}`;
}

const names = fc.string({ unit: fc.constantFrom(...'Ab z9-_.ßé?…日'.split('')), maxLength: 24 });

describe('the pixel font', () => {
  it('measures a text as the sum of its spelled glyphs and gaps', () => {
    fc.assert(fc.property(names, (text) => pixelTextWidth(text) === referenceWidth(text)));
  });

  it('shortens as the plain definition does, asked once or again (the answer is remembered)', () => {
    fc.assert(
      fc.property(names, fc.integer({ min: 0, max: 80 }), (text, width) => {
        const first = shortenToWidth(text, width);
        expect(first).toBe(referenceShorten(text, width));
        expect(shortenToWidth(text, width)).toBe(first);
      }),
    );
  });
});
