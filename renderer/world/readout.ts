/**
 * What the page hook reads from the scene, in canvas pixels: every visible label's rectangle (labels must never
 * overlap) and each agent at its desk (pose, sprite frame, feet and desk). Read on demand, never per frame.
 */
import { GLYPH_HEIGHT } from './pixelFont';
import { LABEL_HEIGHT } from './labelPictures';
import type { Container } from 'pixi.js';
import type { ContextLevel } from './contextBar';
import type { Point, Rect } from './layout';
import type { AgentModel } from './model';
import type { World } from './World';

/** A label's rectangle on the canvas, in canvas pixels (for the page hook: labels must never overlap). */
export interface LabelRect {
  kind: 'sign' | 'count' | 'name' | 'host' | 'badge' | 'bubble' | 'context';
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** What a sign, a name plate or a host tag shows (shortened with an ellipsis only when it fits at no scale). */
  text?: string;
  /** Canvas pixels per font pixel (whole when the pixel font is drawn crisp). */
  scale?: number;
}

/** An agent at its desk as the page hook reports it (canvas pixels). */
export interface SeatingRect {
  id: string;
  harness: AgentModel['harness'];
  /** The station the agent stands at in the world shown (live or past); '' is the lobby. */
  station: string;
  state: AgentModel['activity']['state'];
  pose: string;
  frame: string;
  feet: Point;
  desk: Rect;
}

/** Every visible label's rectangle on the canvas: station signs and counts, name plates, badges, bubbles, context bars. */
export function labelRects(world: World): LabelRect[] {
  const rects: LabelRect[] = [];
  const add = (kind: LabelRect['kind'], id: string, target: Container, text?: string) => {
    if (!target.visible || !target.parent?.visible) return;
    const bounds = target.getBounds();
    // The scale the picture is drawn at: its height on the canvas over its height in font pixels.
    const fontHeight = kind === 'count' ? GLYPH_HEIGHT : kind === 'context' ? 4 : kind === 'bubble' ? LABEL_HEIGHT : LABEL_HEIGHT;
    const scale = Math.round((bounds.height / fontHeight) * 1000) / 1000;
    if (bounds.width > 0) rects.push({ kind, id, x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height, scale, ...(text === undefined ? {} : { text }) });
  };
  for (const [key, label] of world.stationLabels) {
    add('sign', key, label.sign, label.shownText);
    add('count', key, label.count);
  }
  for (const [id, view] of world.agentViews) {
    add('name', id, view.namePlate.children[0] as Container, view.plateText);
    if (view.hostText !== '') add('host', id, view.hostTag, view.hostText);
    // An empty badge or bubble shows the atlas's blank picture (it stays visible, see LabelAtlas.blank): not a label.
    if (view.badge.shown) add('badge', id, view.badge);
    if (view.bubble.kind !== null) add('bubble', id, view.bubble);
    add('context', id, view.contextBar);
  }
  return rects;
}

/** The context bar an agent shows, as the page hook reports it: level, whole percent and fill (null when unknown). */
export interface ContextBarReadout {
  level: ContextLevel;
  percent: number | null;
  fill: number | null;
}

/** Each agent's context bar as drawn, by persona id. */
export function contextBars(world: World): Record<string, ContextBarReadout> {
  const bars: Record<string, ContextBarReadout> = {};
  for (const [id, view] of world.agentViews) {
    const { level, percent } = view.shownGauge;
    bars[id] = { level, percent, fill: percent === null ? null : percent / 100 };
  }
  return bars;
}

/** Each agent at its desk, in canvas pixels: feet, the desk's box, pose and sprite frame. */
export function seating(world: World): SeatingRect[] {
  const seats: SeatingRect[] = [];
  for (const [id, view] of world.agentViews) {
    const feet = world.positions.get(id);
    const desk = world.desks.get(id);
    if (!feet || !desk || !view.record) continue;
    const bounds = desk.getBounds();
    seats.push({
      id,
      harness: view.record.harness,
      station: view.record.stationKey,
      state: view.record.activity.state,
      pose: view.currentPose,
      frame: view.shownFrame,
      feet: world.toCanvas(feet),
      desk: { x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height },
    });
  }
  return seats;
}
