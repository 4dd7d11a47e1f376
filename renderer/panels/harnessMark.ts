/**
 * The harness marks in the DOM panels (the legend, the agent card, the lobby): the same pixel art the desks carry,
 * cut from the sprite sheet at a whole scale, with the harness's name beside it for readers.
 */
import { HARNESS_NAMES as SHARED_HARNESS_NAMES } from '../../shared/usagePhrases';
import atlas from '../../assets/generated/sprites.json';
import type { Harness } from '../../shared/schemas';
import { element } from './dom';

/** Each harness's name as the owner knows it. */
export const HARNESS_NAMES: Record<Harness, string> = SHARED_HARNESS_NAMES;
/** Every harness, in the legend's order. */
export const HARNESSES: readonly Harness[] = ['claude', 'codex', 'opencode'];

const sheetUrl = new URL('../../assets/generated/sprites.png', import.meta.url).href;
/** Screen pixels per art pixel of a mark in the panels. */
const MARK_SCALE = 2;

/** The harness's 9×9 mark as an element (decorative: the name next to it says which harness). */
export function harnessMark(harness: Harness): HTMLElement {
  const frames = atlas.frames as Record<string, { frame: { x: number; y: number; w: number; h: number } }>;
  const { x, y, w, h } = frames[`mark_${harness}`].frame;
  const mark = element('span', { class: 'harness-mark', 'data-harness-mark': harness, 'aria-hidden': 'true' });
  // Set through the CSS object model: the page's policy forbids inline style attributes, not style properties.
  mark.style.width = `${w * MARK_SCALE}px`;
  mark.style.height = `${h * MARK_SCALE}px`;
  mark.style.backgroundImage = `url("${sheetUrl}")`;
  mark.style.backgroundSize = `${atlas.meta.size.w * MARK_SCALE}px ${atlas.meta.size.h * MARK_SCALE}px`;
  mark.style.backgroundPosition = `${-x * MARK_SCALE}px ${-y * MARK_SCALE}px`;
  return mark;
}

/** A harness's mark with its name ("Codex"), or a plain "no session" when there is none. */
export function harnessLabel(harness: Harness | null): HTMLElement {
  if (!harness) return element('span', { class: 'harness-label muted', 'data-harness': '' }, 'no session');
  return element('span', { class: `harness-label harness-${harness}`, 'data-harness': harness }, harnessMark(harness), element('span', { class: 'harness-name' }, HARNESS_NAMES[harness]));
}

/** The legend in the world's corner: which mark and colour stands for which harness. */
export function createLegend(): HTMLElement {
  return element(
    'aside',
    { class: 'legend', 'data-panel': 'legend', 'aria-label': 'Harnesses' },
    element('ul', {}, ...HARNESSES.map((harness) => element('li', { 'data-legend': harness, title: HARNESS_NAMES[harness] }, harnessLabel(harness)))),
  );
}
