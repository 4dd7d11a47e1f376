/** Loads the project's own sprite sheet (assets/generated) with nearest-neighbour scaling. */
import { Spritesheet, Texture, TextureSource, type SpritesheetData } from 'pixi.js';
import atlas from '../../assets/generated/sprites.json';
import { LabelAtlas } from './labelAtlas';
import { LookAtlas } from './lookAtlas';
import type { LookArt, SheetRect } from './looks';

/** The loaded art: named frames and the tile textures the floor repeats. */
export interface Sprites {
  frame(name: string): Texture;
  tile(name: 'floor_0' | 'rug'): Texture;
  /** How far (px) hair and accessories move down for each body shape. */
  headOffset: readonly number[];
  /** Characters pre-composited one texture per look, drawn lazily. */
  looks: LookAtlas;
  /** Name plates, badges, signs, counts and bubbles, painted on shared pages. */
  labels: LabelAtlas;
  /** The sheet and sizes looks are composited from (also for the panels' portraits). */
  art: LookArt;
}

const imageUrl = new URL('../../assets/generated/sprites.png', import.meta.url).href;

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error(`The sprite sheet did not load from ${url}.`));
    image.src = url;
  });
}

const rects = Object.fromEntries(Object.entries(atlas.frames).map(([name, entry]) => [name, entry.frame])) as Record<string, SheetRect>;

/** Where a named frame sits on the sheet. */
function rectOf(name: string): SheetRect {
  const rect = rects[name];
  if (!rect) throw new Error(`The sprite sheet has no frame "${name}".`);
  return rect;
}

/** The sheet's pixels, read back once for compositing character looks. */
function sheetPixels(image: HTMLImageElement): ImageData {
  const canvas = document.createElement('canvas');
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  context.drawImage(image, 0, 0);
  return context.getImageData(0, 0, canvas.width, canvas.height);
}

/** A tile copied into its own texture, because a repeating fill cannot sample a frame inside an atlas. */
function tileTexture(image: HTMLImageElement, name: string): Texture {
  const frame = rectOf(name);
  const canvas = document.createElement('canvas');
  canvas.width = frame.w;
  canvas.height = frame.h;
  canvas.getContext('2d')!.drawImage(image, frame.x, frame.y, frame.w, frame.h, 0, 0, frame.w, frame.h);
  const texture = Texture.from(canvas);
  texture.source.scaleMode = 'nearest';
  return texture;
}

/** Loads the sheet and parses its atlas. */
export async function loadSprites(): Promise<Sprites> {
  TextureSource.defaultOptions.scaleMode = 'nearest';
  const image = await loadImage(imageUrl);
  const texture = Texture.from(image);
  texture.source.scaleMode = 'nearest';
  const sheet = new Spritesheet(texture, atlas as unknown as SpritesheetData);
  await sheet.parse();
  const character = atlas.meta.character;
  const tiles = { floor_0: tileTexture(image, 'floor_0'), rug: tileTexture(image, 'rug') };
  const art: LookArt = { sheet: sheetPixels(image), frameOf: rectOf, width: character.width, height: character.height, headOffset: character.headOffset };
  return {
    frame(name) {
      const found = sheet.textures[name];
      if (!found) throw new Error(`The sprite sheet has no frame "${name}".`);
      return found;
    },
    tile: (name) => tiles[name],
    headOffset: character.headOffset,
    looks: new LookAtlas(art),
    labels: new LabelAtlas(art),
    art,
  };
}
