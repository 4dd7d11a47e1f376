/**
 * Panel titles in the world's own 5×7 pixel font, drawn from the sprite sheet into a canvas at a whole scale; the
 * words stay in the DOM as text for screen readers, search and tests.
 */
import atlas from '../../assets/generated/sprites.json';
import { element } from './dom';

const sheetUrl = new URL('../../assets/generated/sprites.png', import.meta.url).href;
const WIDTHS = atlas.meta.font.widths as Record<string, number>;
const FRAMES = atlas.frames as Record<string, { frame: { x: number; y: number; w: number; h: number } }>;
const HEIGHT = atlas.meta.font.height;
/** Screen pixels per font pixel. */
const SCALE = 2;
const INK = '#2a1f2a';

let sheet: Promise<HTMLImageElement> | null = null;
function loadSheet(): Promise<HTMLImageElement> {
  sheet ??= new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('the sprite sheet did not load'));
    image.src = sheetUrl;
  });
  return sheet;
}

/** Draws the text's glyphs (upper case; unknown characters as "?") in ink colour into the canvas. */
function draw(canvas: HTMLCanvasElement, text: string, image: HTMLImageElement): void {
  const characters = [...text.toUpperCase()].map((character) => (WIDTHS[character] !== undefined ? character : '?'));
  const width = Math.max(1, characters.reduce((total, character) => total + WIDTHS[character] + 1, -1));
  canvas.width = width;
  canvas.height = HEIGHT;
  canvas.style.width = `${width * SCALE}px`;
  canvas.style.height = `${HEIGHT * SCALE}px`;
  const context = canvas.getContext('2d');
  if (!context) return;
  let x = 0;
  for (const character of characters) {
    const glyph = FRAMES[`glyph_${character.codePointAt(0)}`]?.frame;
    if (glyph && character !== ' ') context.drawImage(image, glyph.x, glyph.y, glyph.w, glyph.h, x, 0, glyph.w, glyph.h);
    x += WIDTHS[character] + 1;
  }
  // The glyphs are white: keep their shape, take the ink colour.
  context.globalCompositeOperation = 'source-in';
  context.fillStyle = INK;
  context.fillRect(0, 0, width, HEIGHT);
}

/** A title whose text can change in place (the agent card's name): the letters are redrawn only on change. */
export class PixelTitle {
  readonly root: HTMLElement;
  private readonly canvas = element('canvas', { class: 'pixel-title-art', 'aria-hidden': 'true' });
  private readonly words = element('span', { class: 'pixel-title-text' });
  private text: string | null = null;

  constructor(level: 'h2' | 'h3' = 'h2', attributes: Record<string, string | boolean> = {}) {
    this.root = element(level, { class: 'pixel-title', ...attributes }, this.canvas, this.words);
  }

  /** Shows a text; does nothing when it is unchanged. */
  set(text: string): this {
    if (text === this.text) return this;
    this.text = text;
    this.words.textContent = text;
    loadSheet().then((image) => {
      if (this.text !== text) return;
      draw(this.canvas, text, image);
      this.root.classList.add('pixel-title-drawn');
    }, () => {});
    return this;
  }
}

/** A panel title: the text in pixel letters (drawn once the sheet is loaded) and, for readers, as text. */
export function pixelTitle(text: string, level: 'h2' | 'h3' = 'h2'): HTMLElement {
  return new PixelTitle(level).set(text).root;
}
