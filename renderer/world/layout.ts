/**
 * Pure geometry of the floor, in world pixels at zoom 1: a grid of stations (6–20 fit a laptop screen at zoom 1),
 * each with a sign, a workbench and a backlog board, agents standing in rows of slots wide enough for their name
 * labels, and the lobby along the bottom with its door.
 */

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

/** Where one station and its parts sit. Agent slots are feet positions (bottom centre of the character). */
export interface StationLayout {
  key: string;
  rect: Rect;
  sign: Point;
  bench: Point;
  board: Rect;
  door: Point | null;
  slots: Point[];
}

/** The whole floor. */
export interface WorldLayout {
  width: number;
  height: number;
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

/** Width of one agent slot: a 10-character name label (4 px a character) plus a gap, so labels never touch. */
export const SLOT_WIDTH = 44;
/** Height of one agent slot: badge, 26 px character, name label. */
export const SLOT_HEIGHT = 48;
/** Agents a station holds side by side before starting a new row. */
export const SLOTS_PER_ROW = 4;
/** Height of a station's header (sign, bench and board) above its first row of agents. */
export const HEADER_HEIGHT = 44;
/** Height of the lobby header (its door and sign). */
export const LOBBY_HEADER_HEIGHT = 46;
const PADDING = 8;
const GAP = 16;
const MARGIN = 24;
/** Width of a station, from its slots. */
export const STATION_WIDTH = SLOTS_PER_ROW * SLOT_WIDTH + PADDING * 2;
/** Offset of the feet within a slot (badge and head above, label below). */
const FEET_IN_SLOT = 36;

/** Columns of the station grid for `count` stations: wider than tall, like a laptop screen. */
export function columnsFor(count: number): number {
  return Math.max(1, Math.min(count, Math.ceil(Math.sqrt(count * 1.5))));
}

function rowsFor(agents: number, perRow: number): number {
  return Math.max(1, Math.ceil(agents / perRow));
}

function slotsIn(origin: Point, count: number, perRow: number): Point[] {
  return Array.from({ length: count }, (_, index) => ({
    x: origin.x + (index % perRow) * SLOT_WIDTH + SLOT_WIDTH / 2,
    y: origin.y + Math.floor(index / perRow) * SLOT_HEIGHT + FEET_IN_SLOT,
  }));
}

/** Lays out the floor: stations in given order, the lobby last; agents fill their station's slots in given order. */
export function layoutWorld(stations: readonly StationInput[], agents: readonly AgentInput[]): WorldLayout {
  const members = new Map<string, string[]>();
  for (const agent of agents) {
    const list = members.get(agent.stationKey) ?? [];
    list.push(agent.id);
    members.set(agent.stationKey, list);
  }
  const grid = stations.filter((station) => !station.lobby);
  const lobby = stations.find((station) => station.lobby);
  const columns = columnsFor(grid.length);
  const gridWidth = columns * STATION_WIDTH + (columns - 1) * GAP;
  const result: WorldLayout = { width: 0, height: 0, stations: new Map(), agents: new Map() };
  let y = MARGIN;
  for (let start = 0; start < grid.length; start += columns) {
    const row = grid.slice(start, start + columns);
    const rows = Math.max(...row.map((station) => rowsFor(members.get(station.key)?.length ?? 0, SLOTS_PER_ROW)));
    const height = HEADER_HEIGHT + rows * SLOT_HEIGHT + PADDING;
    row.forEach((station, column) => {
      const x = MARGIN + column * (STATION_WIDTH + GAP);
      const ids = members.get(station.key) ?? [];
      const slots = slotsIn({ x: x + PADDING, y: y + HEADER_HEIGHT }, ids.length, SLOTS_PER_ROW);
      result.stations.set(station.key, {
        key: station.key,
        rect: { x, y, width: STATION_WIDTH, height },
        sign: { x: x + PADDING, y: y + 4 },
        bench: { x: x + PADDING + 8, y: y + 20 },
        board: { x: x + STATION_WIDTH - PADDING - 30, y: y + 14, width: 22, height: 18 },
        door: null,
        slots,
      });
      ids.forEach((id, index) => result.agents.set(id, slots[index]));
    });
    y += height + GAP;
  }
  const width = Math.max(gridWidth, STATION_WIDTH);
  if (lobby) {
    const ids = members.get(lobby.key) ?? [];
    const perRow = Math.max(1, Math.floor((width - PADDING * 2 - 40) / SLOT_WIDTH));
    const height = LOBBY_HEADER_HEIGHT + rowsFor(ids.length, perRow) * SLOT_HEIGHT + PADDING;
    const slots = slotsIn({ x: MARGIN + PADDING + 40, y: y + LOBBY_HEADER_HEIGHT }, ids.length, perRow);
    result.stations.set(lobby.key, {
      key: lobby.key,
      rect: { x: MARGIN, y, width, height },
      sign: { x: MARGIN + PADDING + 40, y: y + 6 },
      bench: { x: MARGIN + PADDING + 40, y: y + 16 },
      board: { x: MARGIN + width, y, width: 0, height: 0 },
      door: { x: MARGIN + PADDING, y: y + 4 },
      slots,
    });
    ids.forEach((id, index) => result.agents.set(id, slots[index]));
    y += height;
  }
  result.width = width + MARGIN * 2;
  result.height = y + MARGIN;
  return result;
}

/** True when the point lies inside the rectangle (edges included on the top-left, excluded on the bottom-right). */
export function contains(rect: Rect, point: Point): boolean {
  return point.x >= rect.x && point.y >= rect.y && point.x < rect.x + rect.width && point.y < rect.y + rect.height;
}

/** The station under a world point, or null for empty floor. */
export function stationAt(layout: WorldLayout, point: Point): string | null {
  for (const station of layout.stations.values()) if (contains(station.rect, point)) return station.key;
  return null;
}

/** The box an agent's character and label occupy around its feet position. */
export function agentBox(feet: Point): Rect {
  return { x: feet.x - SLOT_WIDTH / 2 + 2, y: feet.y - 34, width: SLOT_WIDTH - 4, height: 44 };
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
