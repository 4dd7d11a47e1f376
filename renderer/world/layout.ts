/**
 * Pure geometry of the floor, in world pixels at zoom 1. Each station is sized by its occupancy (an empty station is
 * a compact desk, a crowded one grows a grid of work places), the stations are packed in shelves shaped to the
 * window, the fit zoom is the largest crisp step at which the floor fits, and the floor is then stretched to fill the
 * window at that zoom. Every work place reserves its own room for the badge, the activity bubble and the name plate.
 */
import { fitZoom } from './camera';
import { packShelves, type Box } from './packing';

/** A point in world pixels. */
export interface Point {
  x: number;
  y: number;
}

/** A rectangle in world pixels. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A width and a height in pixels. */
export interface Size {
  width: number;
  height: number;
}

/** A window the floor is fitted to; `top` is the band the page's top panels take (TOOLBAR_INSET when absent). */
export interface Viewport extends Size {
  top?: number;
}

/** Where one station and its parts sit. Agent slots are feet positions (bottom centre of the character). */
export interface StationLayout {
  key: string;
  rect: Rect;
  /** Top-left of the sign (role icon, then the sign's text). */
  sign: Point;
  /** The compact desk an empty station shows (null while agents work there). */
  bench: Point | null;
  board: Rect;
  door: Point | null;
  slots: Point[];
  /** Work places side by side. */
  columns: number;
  /** Distance between work places side by side (at least `CELL_WIDTH`): the room a name plate may take. */
  pitch: number;
}

/** The whole floor and the zoom it was shaped for. */
export interface WorldLayout {
  width: number;
  height: number;
  /** The fit zoom: the largest crisp step at which the floor fits the viewport it was laid out for. */
  zoom: number;
  stations: Map<string, StationLayout>;
  agents: Map<string, Point>;
}

/** What the layout needs to know about a station. */
export interface StationInput {
  key: string;
  lobby: boolean;
}

/** What the layout needs to know about an agent. */
export interface AgentInput {
  id: string;
  stationKey: string;
}

/** Width of one work place: room for a name plate of `NAME_PLATE_WIDTH` and a gap, so plates never touch. */
export const CELL_WIDTH = 40;
/** Height of one work place: badge and bubble row, the 26 px character at its desk, the name plate, the context bar. */
export const CELL_HEIGHT = 58;
/** Feet of the character below the top of its work place. */
export const FEET_IN_CELL = 39;
/** Widest name plate in pixels at text scale 1 (the plate is drawn at a whole scale no larger than the zoom). */
export const NAME_PLATE_WIDTH = CELL_WIDTH - 2;
/** Room kept around the feet for labels, relative to the feet: each label stays inside its own box. */
export const LABEL_BOXES = {
  /** The subagent badge, above the right of the head. */
  badge: { x: 1, y: -38, width: 19, height: 11 },
  /** The activity bubble, above the left of the head. */
  bubble: { x: -19, y: -38, width: 19, height: 11 },
  /** The name plate, under the desk. */
  name: { x: -NAME_PLATE_WIDTH / 2, y: 3, width: NAME_PLATE_WIDTH, height: 11 },
  /** The context bar, under the name plate (issue 26): 18 × 4 pixels at text scale 1, never larger in world pixels. */
  context: { x: -9, y: 15, width: 18, height: 4 },
} as const;
/** The desk of a work place, relative to the feet of the character seated behind it (the sprite's box). */
export const DESK_BOX = { x: -13, y: -17, width: 26, height: 20 } as const;
/** Height of a station's header (role icon, sign and backlog board) above its first row of work places. */
export const HEADER_HEIGHT = 32;
/** The lobby's header is taller: its door. */
export const LOBBY_HEADER_HEIGHT = 40;
/** Narrowest station: the sign, the board and a little floor. */
export const STATION_MIN_WIDTH = 108;
/** Height of an empty station's compact desk row below the header. */
const EMPTY_ROW = 26;
const PADDING = 4;
const GAP = 6;
const MARGIN = 6;
/** Board size (the board sprite). */
const BOARD = { width: 30, height: 24 } as const;
/** The screen the layout is shaped for when the caller does not say (a common laptop). */
export const LAPTOP_VIEWPORT: Size = { width: 1366, height: 768 };
/** Common window sizes, laptop to large desktop: in each, every station sign of ordinary length shows whole (tests hold it). */
export const COMMON_WINDOWS: readonly Size[] = [
  { width: 1024, height: 640 },
  { width: 1280, height: 800 },
  LAPTOP_VIEWPORT,
  { width: 1920, height: 1080 },
  { width: 2560, height: 1440 },
];
/** Station shapes tried: a factor on the square-ish column count (below 1 taller stations, above 1 wider). */
const SHAPES = [0.35, 0.6, 1, 1.6, 2.6, 4];

/** Screen pixels at the top of the page kept clear for the toolbar when fitting the floor. */
export const TOOLBAR_INSET = 36;

/** The part of a viewport the floor may use: all of it below the toolbar (and the notices, when the page says so). */
export function usableViewport(viewport: Viewport): Size {
  return { width: viewport.width, height: Math.max(1, viewport.height - (viewport.top ?? TOOLBAR_INSET)) };
}

/** Columns of work places for `count` agents at a shape factor; as many as fit the narrowest station at least. */
export function stationColumns(count: number, shape: number): number {
  if (count <= 0) return 0;
  const square = Math.sqrt((count * CELL_HEIGHT) / CELL_WIDTH);
  const fitsNarrowest = Math.floor((STATION_MIN_WIDTH - PADDING * 2) / CELL_WIDTH);
  return Math.min(count, Math.max(1, fitsNarrowest, Math.round(square * shape)));
}

/** The natural size of a station with `count` agents in `columns` columns (rule: sized by occupancy). */
export function stationSize(count: number, columns: number, lobby: boolean): Size {
  const header = lobby ? LOBBY_HEADER_HEIGHT : HEADER_HEIGHT;
  if (count === 0) return { width: STATION_MIN_WIDTH, height: header + EMPTY_ROW + PADDING };
  const rows = Math.ceil(count / columns);
  return { width: Math.max(STATION_MIN_WIDTH, columns * CELL_WIDTH + PADDING * 2), height: header + rows * CELL_HEIGHT + PADDING };
}

function membersOf(agents: readonly AgentInput[]): Map<string, string[]> {
  const members = new Map<string, string[]>();
  for (const agent of agents) {
    const list = members.get(agent.stationKey) ?? [];
    list.push(agent.id);
    members.set(agent.stationKey, list);
  }
  return members;
}

/**
 * Lays out the floor for a viewport: every station shape and shelf width is tried, the one that fits at the largest
 * crisp zoom wins (ties: the one whose natural shape is closest to the window's), and the winner is stretched to fill
 * the viewport at that zoom. Stations keep their given order, the lobby last; agents fill their station in order.
 */
export function layoutWorld(stations: readonly StationInput[], agents: readonly AgentInput[], viewport: Size = LAPTOP_VIEWPORT): WorldLayout {
  const members = membersOf(agents);
  let best: { boxes: Box[]; columns: number[]; width: number; height: number; zoom: number; fill: number } | null = null;
  for (const shape of SHAPES) {
    const columns = stations.map((station) => stationColumns(members.get(station.key)?.length ?? 0, shape));
    const sizes = stations.map((station, index) => stationSize(members.get(station.key)?.length ?? 0, columns[index], station.lobby));
    for (const width of shelfWidths(sizes)) {
      const packed = packShelves(sizes, width, GAP);
      const outer = { width: packed.width + MARGIN * 2, height: packed.height + MARGIN * 2 };
      const zoom = fitZoom(Math.min(viewport.width / outer.width, viewport.height / outer.height));
      const fill = (outer.width * outer.height * zoom * zoom) / (viewport.width * viewport.height);
      if (!best || zoom > best.zoom || (zoom === best.zoom && fill > best.fill)) best = { boxes: packed.boxes, columns, width: outer.width, height: outer.height, zoom, fill };
    }
  }
  const chosen = best!;
  const target = { width: Math.max(chosen.width, Math.floor(viewport.width / chosen.zoom)), height: Math.max(chosen.height, Math.floor(viewport.height / chosen.zoom)) };
  const stretched = stretchShelves(chosen.boxes, { width: target.width - MARGIN * 2, height: target.height - MARGIN * 2 }, GAP);
  const result: WorldLayout = { width: target.width, height: target.height, zoom: chosen.zoom, stations: new Map(), agents: new Map() };
  stations.forEach((station, index) => {
    const box = stretched[index];
    const rect = { x: box.x + MARGIN, y: box.y + MARGIN, width: box.width, height: box.height };
    const ids = members.get(station.key) ?? [];
    const placed = placeStation(station, rect, ids.length, chosen.columns[index]);
    result.stations.set(station.key, placed);
    ids.forEach((id, slot) => result.agents.set(id, placed.slots[slot]));
  });
  return result;
}

/** Shelf widths worth trying: every run of consecutive stations' widths (a shelf ends after one of them). */
function shelfWidths(sizes: readonly Size[]): number[] {
  const widest = Math.max(STATION_MIN_WIDTH, ...sizes.map((size) => size.width));
  const widths = new Set<number>([widest]);
  for (let start = 0; start < sizes.length; start += 1) {
    let total = -GAP;
    for (let end = start; end < sizes.length; end += 1) {
      total += sizes[end].width + GAP;
      if (total >= widest) widths.add(total);
    }
  }
  return [...widths];
}

/**
 * Spreads packed shelves over a larger area: each shelf's stations widen in proportion to their width to fill the
 * shelf, and shelves grow in proportion to their height to fill the area. Boxes keep their order and never overlap.
 */
export function stretchShelves(boxes: readonly Box[], area: Size, gap: number): Box[] {
  const shelves = new Map<number, number[]>();
  boxes.forEach((box, index) => shelves.set(box.y, [...(shelves.get(box.y) ?? []), index]));
  const tops = [...shelves.keys()].sort((first, second) => first - second);
  const heights = tops.map((top) => Math.max(...shelves.get(top)!.map((index) => boxes[index].height)));
  const grownHeights = spread(heights, area.height - gap * (tops.length - 1));
  const result: Box[] = boxes.map((box) => ({ ...box }));
  let y = 0;
  tops.forEach((top, shelf) => {
    const members = shelves.get(top)!;
    const widths = spread(members.map((index) => boxes[index].width), area.width - gap * (members.length - 1));
    let x = 0;
    members.forEach((index, position) => {
      result[index] = { x, y, width: widths[position], height: grownHeights[shelf] };
      x += widths[position] + gap;
    });
    y += grownHeights[shelf] + gap;
  });
  return result;
}

/** Grows whole-pixel sizes in proportion to themselves until they add up to `total` (never shrinks them). */
function spread(sizes: readonly number[], total: number): number[] {
  const sum = sizes.reduce((accumulated, size) => accumulated + size, 0);
  const extra = Math.max(0, total - sum);
  const grown = sizes.map((size) => size + Math.floor((extra * size) / Math.max(1, sum)));
  const left = sum + extra - grown.reduce((accumulated, size) => accumulated + size, 0);
  if (grown.length > 0) grown[grown.length - 1] += left;
  return grown;
}

/** Widest pitch between work places when a station is stretched: desks spread a little, not across the room. */
const MAX_PITCH = { x: Math.round(CELL_WIDTH * 1.8), y: Math.round(CELL_HEIGHT * 1.3) } as const;

/** The parts of one station in its rectangle: header (icon, sign, board or door), then work places in a centred grid. */
export function placeStation(station: StationInput, rect: Rect, count: number, columns: number): StationLayout {
  const header = station.lobby ? LOBBY_HEADER_HEIGHT : HEADER_HEIGHT;
  const inner = { width: rect.width - PADDING * 2, height: rect.height - header - PADDING };
  const rows = columns > 0 ? Math.ceil(count / columns) : 0;
  const pitch = columns > 0 ? Math.min(MAX_PITCH.x, Math.floor(inner.width / columns)) : CELL_WIDTH;
  const pitchY = rows > 0 ? Math.min(MAX_PITCH.y, Math.floor(inner.height / rows)) : CELL_HEIGHT;
  const left = rect.x + PADDING + Math.floor((inner.width - pitch * columns) / 2);
  const top = rect.y + header + Math.floor((inner.height - pitchY * rows) / 2);
  const slots = Array.from({ length: count }, (_, index) => ({
    x: left + (index % columns) * pitch + Math.floor(pitch / 2),
    y: top + Math.floor(index / columns) * pitchY + Math.floor((pitchY - CELL_HEIGHT) / 2) + FEET_IN_CELL,
  }));
  return {
    key: station.key,
    rect,
    sign: { x: rect.x + PADDING, y: rect.y + 4 },
    bench: count === 0 ? { x: rect.x + Math.floor((rect.width - 56) / 2), y: rect.y + header } : null,
    board: station.lobby
      ? { x: rect.x + rect.width, y: rect.y, width: 0, height: 0 }
      : { x: rect.x + rect.width - PADDING - BOARD.width, y: rect.y + 4, width: BOARD.width, height: BOARD.height },
    door: station.lobby ? { x: rect.x + rect.width - PADDING - 24, y: rect.y + 3 } : null,
    slots,
    columns,
    pitch,
  };
}

/** Where a click opens the station's menu: its sign, from the role icon to just before the board or door (world pixels). */
export function signHitBox(station: StationLayout): Rect {
  const end = station.door ? station.door.x : station.board.x;
  return { x: station.sign.x, y: station.sign.y - 2, width: Math.max(0, end - station.sign.x - 2), height: 14 };
}

/** Screen pixels wide the sign's text may take at a zoom: the header less the icon, the board and padding. */
export function signRoom(station: StationLayout, zoom: number): number {
  const boardWidth = station.door ? 24 : station.board.width;
  return Math.max(0, Math.floor((station.rect.width - PADDING * 4 - 14 - boardWidth) * zoom));
}

/** True when the point lies inside the rectangle (edges included on the top-left, excluded on the bottom-right). */
export function contains(rect: Rect, point: Point): boolean {
  return point.x >= rect.x && point.y >= rect.y && point.x < rect.x + rect.width && point.y < rect.y + rect.height;
}

/** True when two rectangles share any area. */
export function overlaps(first: Rect, second: Rect): boolean {
  return first.x < second.x + second.width && second.x < first.x + first.width && first.y < second.y + second.height && second.y < first.y + first.height;
}

/** The station under a world point, or null for empty floor. */
export function stationAt(layout: WorldLayout, point: Point): string | null {
  for (const station of layout.stations.values()) if (contains(station.rect, point)) return station.key;
  return null;
}

/** The work place an agent's badge, bubble, character, desk and name plate occupy around its feet position. */
export function agentBox(feet: Point): Rect {
  return { x: feet.x - CELL_WIDTH / 2, y: feet.y - FEET_IN_CELL, width: CELL_WIDTH, height: CELL_HEIGHT };
}

/** The desk of the work place whose character has its feet at `feet`: the character sits behind it. */
export function deskBox(feet: Point): Rect {
  return { x: feet.x + DESK_BOX.x, y: feet.y + DESK_BOX.y, width: DESK_BOX.width, height: DESK_BOX.height };
}

/** The topmost agent whose character is under a world point (later agents draw on top). */
export function agentAt(positions: ReadonlyMap<string, Point>, point: Point): string | null {
  let found: string | null = null;
  for (const [id, feet] of positions) {
    const body = { x: feet.x - 8, y: feet.y - 28, width: 16, height: 28 };
    if (contains(body, point)) found = id;
  }
  return found;
}
