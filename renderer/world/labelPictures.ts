/**
 * The world's labels as pixel pictures: name plates, subagent badges, station signs, board counts and speech bubbles,
 * each at text scale 1 (the scene scales them by a whole text scale). Pure: each picture paints itself into RGBA pixels
 * with premultiplied alpha; the label atlas stores them side by side on shared pages.
 */
import { BUBBLE_GLYPHS, BUBBLE_STYLE, type BubbleKind } from './bubbles';
import type { PixelImage } from './looks';
import { fillRect, GLYPH_HEIGHT, paintText, pixelSpelling, pixelTextWidth, type GlyphArt } from './pixelFont';

/** A label to draw: a key naming its pixels (equal keys share one atlas slot), its size and its painter. */
export interface LabelPicture {
  key: string;
  width: number;
  height: number;
  /** Paints the picture with its top-left at (left, top) of a target already cleared to transparent. */
  paint(art: GlyphArt, target: PixelImage, left: number, top: number): void;
}

/** Height of a name plate, a sign and a badge: the 7 px font with 2 px above and below. */
export const LABEL_HEIGHT = GLYPH_HEIGHT + 4;
/** Ink of the plates and outlines. */
const INK = 0x2a1f2a;
const PLATE_TEXT = 0xfff6dc;
const SIGN_WOOD = 0x6b4226;
const SIGN_PAPER = 0xfff1c9;
const BADGE_RUNNING = 0xe2573d;
const BADGE_RUNNING_LIGHT = 0xf08a6a;
const BADGE_UNKNOWN = 0x8c8fa3;
const BADGE_UNKNOWN_LIGHT = 0xb4b7c8;
/** Height of a bubble's body; its tail hangs two pixels below. */
const BUBBLE_BODY = 9;

/** Width of a badge for a text: at least as wide as it is tall, so "1" is a round dot, not a sliver. */
export function badgeWidth(text: string): number {
  return Math.max(LABEL_HEIGHT, pixelTextWidth(text) + 6);
}

/**
 * A name plate: the name on a dark plate with cut corners and an edge in `edge` (the harness's colour, or focus); the
 * text in `ink` (greyed for an agent whose host cannot be reached).
 */
export function platePicture(text: string, edge: number, ink: number = PLATE_TEXT): LabelPicture {
  const spelled = pixelSpelling(text);
  const width = pixelTextWidth(spelled) + 6;
  return {
    key: `plate:${edge}:${ink}:${spelled}`,
    width,
    height: LABEL_HEIGHT,
    paint(art, target, left, top) {
      fillRect(target, left + 1, top, width - 2, LABEL_HEIGHT, edge);
      fillRect(target, left, top + 1, width, LABEL_HEIGHT - 2, edge);
      fillRect(target, left + 1, top + 1, width - 2, LABEL_HEIGHT - 2, INK);
      paintText(art, target, left + 3, top + 2, spelled, ink);
    },
  };
}

/** Ink of a greyed plate (its host cannot be reached). */
export const GREYED_TEXT = 0x9aa0b0;
/** The edge of a greyed plate. */
export const GREYED_EDGE = 0x6b6f7d;
const HOST_PAPER = 0xd9dde8;

/**
 * A remote agent's host tag, beside its name plate: the host in ink on a pale slate tag with square corners, so it
 * never reads as part of the name (the font has no "@", and the name is never cut to make room for it).
 */
export function hostTagPicture(host: string, greyed = false): LabelPicture {
  const spelled = pixelSpelling(host);
  const width = pixelTextWidth(spelled) + 4;
  const paper = greyed ? GREYED_TEXT : HOST_PAPER;
  return {
    key: `host:${greyed ? 1 : 0}:${spelled}`,
    width,
    height: LABEL_HEIGHT,
    paint(art, target, left, top) {
      fillRect(target, left, top, width, LABEL_HEIGHT, INK);
      fillRect(target, left + 1, top + 1, width - 2, LABEL_HEIGHT - 2, paper);
      paintText(art, target, left + 2, top + 2, spelled, INK);
    },
  };
}

/** A pill with pixel-stepped round ends, `inset` pixels in from a box of the given size. */
function pill(target: PixelImage, left: number, top: number, width: number, height: number, inset: number, colour: number): void {
  const x = left + inset;
  const y = top + inset;
  const w = width - inset * 2;
  const h = height - inset * 2;
  fillRect(target, x + 2, y, w - 4, h, colour);
  fillRect(target, x + 1, y + 1, w - 2, h - 2, colour);
  fillRect(target, x, y + 2, w, h - 4, colour);
}

/** The subagent badge: the running count on a red pill, or "?" on a grey one when the count is unknown. */
export function badgePicture(text: string): LabelPicture {
  const width = badgeWidth(text);
  const unknown = text === '?';
  return {
    key: `badge:${pixelSpelling(text)}`,
    width,
    height: LABEL_HEIGHT,
    paint(art, target, left, top) {
      pill(target, left, top, width, LABEL_HEIGHT, 0, INK);
      pill(target, left, top, width, LABEL_HEIGHT, 1, unknown ? BADGE_UNKNOWN : BADGE_RUNNING);
      // A lighter top edge gives the pill a little volume.
      fillRect(target, left + 3, top + 1, width - 6, 1, unknown ? BADGE_UNKNOWN_LIGHT : BADGE_RUNNING_LIGHT);
      paintText(art, target, left + Math.floor((width - pixelTextWidth(text)) / 2), top + 2, text, 0xffffff);
    },
  };
}

/** Pixels a sign's plate adds to its text's width: the wooden frame and the paper margin on both sides. */
export const SIGN_PLATE_EXTRA = 6;

/** A station's sign: its role in dark ink on a paper plate framed in wood. */
export function signPicture(text: string): LabelPicture {
  const spelled = pixelSpelling(text);
  const width = pixelTextWidth(spelled) + SIGN_PLATE_EXTRA;
  return {
    key: `sign:${spelled}`,
    width,
    height: LABEL_HEIGHT,
    paint(art, target, left, top) {
      fillRect(target, left, top, width, LABEL_HEIGHT, SIGN_WOOD);
      fillRect(target, left + 1, top + 1, width - 2, LABEL_HEIGHT - 2, SIGN_PAPER);
      paintText(art, target, left + 3, top + 2, spelled, INK);
    },
  };
}

/** Bare text in one colour (the count on a backlog board). */
export function textPicture(text: string, colour: number): LabelPicture {
  const spelled = pixelSpelling(text);
  return {
    key: `text:${colour}:${spelled}`,
    width: Math.max(1, pixelTextWidth(spelled)),
    height: GLYPH_HEIGHT,
    paint(art, target, left, top) {
      paintText(art, target, left, top, spelled, colour);
    },
  };
}

/** A speech bubble: outline, body with cut corners, a tail towards the head, and its 3×5 glyphs. */
export function bubblePicture(kind: Exclude<BubbleKind, null>): LabelPicture {
  const style = BUBBLE_STYLE[kind];
  const glyphs = [...style.glyphs];
  const glyphWidth = (glyph: string) => (BUBBLE_GLYPHS[glyph] ?? BUBBLE_GLYPHS['?'])[0].length;
  // Two pixels of body before the glyphs, one between them and two after.
  const width = 3 + glyphs.reduce((total, glyph) => total + glyphWidth(glyph) + 1, 0);
  return {
    key: `bubble:${kind}`,
    width,
    height: BUBBLE_BODY + 2,
    paint(_art, target, left, top) {
      fillRect(target, left + 1, top, width - 2, BUBBLE_BODY, INK);
      fillRect(target, left, top + 1, width, BUBBLE_BODY - 2, INK);
      fillRect(target, left + 2, top + 1, width - 4, BUBBLE_BODY - 2, style.fill);
      fillRect(target, left + 1, top + 2, width - 2, BUBBLE_BODY - 4, style.fill);
      fillRect(target, left + width - 4, top + BUBBLE_BODY, 2, 1, INK);
      fillRect(target, left + width - 3, top + BUBBLE_BODY + 1, 1, 1, INK);
      let at = left + 2;
      for (const glyph of glyphs) {
        const rows = BUBBLE_GLYPHS[glyph] ?? BUBBLE_GLYPHS['?'];
        rows.forEach((row, y) => {
          [...row].forEach((cell, x) => {
            if (cell === '#') fillRect(target, at + x, top + 2 + y, 1, 1, style.ink);
          });
        });
        at += glyphWidth(glyph) + 1;
      }
    },
  };
}
