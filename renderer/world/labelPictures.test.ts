import { describe, expect, it } from 'vitest';
import { badgePicture, badgeWidth, bubblePicture, LABEL_HEIGHT, platePicture, signPicture, textPicture, type LabelPicture } from './labelPictures';
import type { PixelImage } from './looks';
import { pixelTextWidth, type GlyphArt } from './pixelFont';

/** Every glyph a solid white 5×7 block, so text pixels are easy to find. */
const art: GlyphArt = {
  sheet: { width: 5, height: 7, data: new Uint8ClampedArray(5 * 7 * 4).fill(255) },
  frameOf: () => ({ x: 0, y: 0, w: 5, h: 7 }),
};

function painted(picture: LabelPicture): PixelImage {
  const image = { width: picture.width, height: picture.height, data: new Uint8Array(picture.width * picture.height * 4) };
  picture.paint(art, image, 0, 0);
  return image;
}

function pixel(image: PixelImage, x: number, y: number): number[] {
  const at = (y * image.width + x) * 4;
  return [...image.data.slice(at, at + 4)];
}

function rgb(colour: number): number[] {
  return [(colour >> 16) & 0xff, (colour >> 8) & 0xff, colour & 0xff, 255];
}

const TRANSPARENT = [0, 0, 0, 0];

describe('label pictures', () => {
  it('a name plate is the text plus 6 px wide, cut at the corners, edged in its colour, the name in paper ink', () => {
    const plate = platePicture('Pip', 0xe2773d);
    expect(plate.width).toBe(pixelTextWidth('PIP') + 6);
    expect(plate.height).toBe(LABEL_HEIGHT);
    const image = painted(plate);
    expect(pixel(image, 0, 0)).toEqual(TRANSPARENT);
    expect(pixel(image, 1, 0)).toEqual(rgb(0xe2773d));
    expect(pixel(image, 0, 1)).toEqual(rgb(0xe2773d));
    expect(pixel(image, 1, 1)).toEqual(rgb(0x2a1f2a));
    expect(pixel(image, 3, 2)).toEqual(rgb(0xfff6dc));
    expect(pixel(image, plate.width - 1, LABEL_HEIGHT - 1)).toEqual(TRANSPARENT);
  });

  it('equal labels share a key; another edge, text or colour is another picture', () => {
    expect(platePicture('pip', 1).key).toBe(platePicture('PIP', 1).key);
    expect(platePicture('pip', 1).key).not.toBe(platePicture('pip', 2).key);
    expect(textPicture('3', 1).key).not.toBe(textPicture('3', 2).key);
    expect(signPicture('builder').key).not.toBe(platePicture('builder', 0).key);
  });

  it('a badge is at least as wide as it is tall, red with a count and grey with "?"', () => {
    expect(badgeWidth('1')).toBe(LABEL_HEIGHT);
    expect(badgePicture('12').width).toBe(Math.max(LABEL_HEIGHT, pixelTextWidth('12') + 6));
    const running = painted(badgePicture('1'));
    const unknown = painted(badgePicture('?'));
    expect(pixel(running, 0, 0)).toEqual(TRANSPARENT);
    expect(pixel(running, 0, 5)).toEqual(rgb(0x2a1f2a));
    expect(pixel(running, 1, 5)).toEqual(rgb(0xe2573d));
    expect(pixel(unknown, 1, 5)).toEqual(rgb(0x8c8fa3));
  });

  it('a sign is paper framed in wood with the role in ink', () => {
    const image = painted(signPicture('builder'));
    expect(pixel(image, 0, 0)).toEqual(rgb(0x6b4226));
    expect(pixel(image, 1, 1)).toEqual(rgb(0xfff1c9));
    expect(pixel(image, 3, 2)).toEqual(rgb(0x2a1f2a));
  });

  it('bare text is as wide as the text and as tall as the font, in its colour', () => {
    const text = textPicture('42', 0xd9485f);
    expect(text.width).toBe(pixelTextWidth('42'));
    expect(pixel(painted(text), 0, 0)).toEqual(rgb(0xd9485f));
  });

  it('a bubble has an outline, a body in its fill and a tail below it', () => {
    const bubble = bubblePicture('idle');
    const image = painted(bubble);
    expect(bubble.height).toBe(11);
    expect(pixel(image, 0, 0)).toEqual(TRANSPARENT);
    expect(pixel(image, 1, 0)).toEqual(rgb(0x2a1f2a));
    expect(pixel(image, 2, 1)).toEqual(rgb(0x8c8fa3));
    expect(pixel(image, bubble.width - 3, 10)).toEqual(rgb(0x2a1f2a));
  });
});
