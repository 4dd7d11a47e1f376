#!/usr/bin/env node
// Draws Pixelfleet's original pixel art from the rules in this folder and writes a sprite sheet
// (assets/generated/sprites.png) and its atlas (assets/generated/sprites.json). Run: node assets/build-sprites.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BODIES, CHARACTER_SIZE, FRAMES, SKIN_TONES, drawAccessory, drawBody, drawHair } from './characters.mjs';
import { GLYPHS, GLYPH_HEIGHT } from './font.mjs';
import { encodePng } from './png.mjs';
import { drawProps } from './props.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const SHEET_WIDTH = 256;
const PADDING = 1;

function parseColour(text) {
  const hex = text.slice(1);
  const value = (index) => parseInt(hex.slice(index, index + 2), 16);
  return [value(0), value(2), value(4), hex.length === 8 ? value(6) : 255];
}

function collect() {
  const images = {};
  BODIES.forEach((_, body) => {
    for (const frame of FRAMES) {
      const { skin, clothes } = drawBody(body, frame, SKIN_TONES[body]);
      images[`skin_${body}_${frame}`] = skin;
      images[`clothes_${body}_${frame}`] = clothes;
    }
  });
  for (let hair = 0; hair < 8; hair += 1) images[`hair_${hair}`] = drawHair(hair);
  for (let accessory = 1; accessory < 6; accessory += 1) images[`accessory_${accessory}`] = drawAccessory(accessory);
  for (const [character, rows] of Object.entries(GLYPHS)) {
    if (rows.length !== GLYPH_HEIGHT || rows.some((row) => row.length !== rows[0].length)) throw new Error(`glyph ${character} is not ${GLYPH_HEIGHT} even rows`);
    images[`glyph_${character.codePointAt(0)}`] = rows.map((row) => [...row].map((cell) => (cell === '#' ? '#ffffff' : null)));
  }
  Object.assign(images, drawProps());
  return images;
}

/** Shelf packing: tallest first, left to right, a new shelf when a row is full. */
function pack(images) {
  const names = Object.keys(images).sort((first, second) => images[second].length - images[first].length || first.localeCompare(second));
  const frames = {};
  let x = PADDING;
  let y = PADDING;
  let shelf = 0;
  for (const name of names) {
    const height = images[name].length;
    const width = images[name][0].length;
    if (x + width + PADDING > SHEET_WIDTH) {
      x = PADDING;
      y += shelf + PADDING;
      shelf = 0;
    }
    frames[name] = { x, y, w: width, h: height };
    x += width + PADDING;
    shelf = Math.max(shelf, height);
  }
  const height = 2 ** Math.ceil(Math.log2(y + shelf + PADDING));
  return { frames, width: SHEET_WIDTH, height };
}

function build() {
  const images = collect();
  const { frames, width, height } = pack(images);
  const pixels = new Uint8Array(width * height * 4);
  for (const [name, rect] of Object.entries(frames)) {
    images[name].forEach((row, rowIndex) => row.forEach((colour, column) => {
      if (!colour) return;
      const offset = ((rect.y + rowIndex) * width + rect.x + column) * 4;
      pixels.set(parseColour(colour), offset);
    }));
  }
  const atlas = {
    frames: Object.fromEntries(Object.entries(frames).map(([name, rect]) => [name, {
      frame: rect,
      rotated: false,
      trimmed: false,
      spriteSourceSize: { x: 0, y: 0, w: rect.w, h: rect.h },
      sourceSize: { w: rect.w, h: rect.h },
    }])),
    meta: {
      app: 'pixelfleet assets/build-sprites.mjs',
      image: 'sprites.png',
      format: 'RGBA8888',
      size: { w: width, h: height },
      scale: '1',
      font: { height: GLYPH_HEIGHT, widths: Object.fromEntries(Object.entries(GLYPHS).map(([character, rows]) => [character, rows[0].length])) },
      character: { ...CHARACTER_SIZE, frames: FRAMES, headOffset: BODIES.map((body) => body.headTop - BODIES[1].headTop) },
    },
  };
  const out = join(here, 'generated');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'sprites.png'), encodePng(width, height, pixels));
  writeFileSync(join(out, 'sprites.json'), `${JSON.stringify(atlas, null, 1)}\n`);
  console.log(`sprites: ${Object.keys(frames).length} frames on a ${width}×${height} sheet`);
}

build();
