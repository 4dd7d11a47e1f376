/**
 * Pure geometry of the floor, in world pixels at zoom 1: a grid of stations shaped to the viewport (6–20 fit a
 * laptop screen at zoom 1 or more), each with a sign, a workbench and a backlog board, agents standing in rows of
 * slots wide enough for their name plates, and the lobby with its door after the last station.
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

/** Width of one agent slot: a name plate (harness mark and a name up to `NAME_WIDTH` px) plus a gap, so plates never touch. */
export const SLOT_WIDTH = 60;
/** Widest name, in pixels of the pixel font, a plate shows; longer names are shortened. */
export const NAME_WIDTH = 45;
/** Height of one agent slot: badge, 26 px character, name plate. */
export const SLOT_HEIGHT = 54;
/** Agents a station holds side by side before starting a new row. */
export const SLOTS_PER_ROW = 3;
/** Height of a station's header (sign, bench and board, or the lobby's door) above its first row of agents. */
export const HEADER_HEIGHT = 44;
const PADDING = 6;
const GAP = 12;
const MARGIN = 12;
/** Width of a station, from its slots. */
export const STATION_WIDTH = SLOTS_PER_ROW * SLOT_WIDTH + PADDING * 2;
/** Offset of the feet within a slot (badge and head above, name plate below). */
const FEET_IN_SLOT = 40;
/** The screen the layout is shaped for when the caller does not say (a common laptop). */
export const LAPTOP_VIEWPORT: Size = { width: 1366, height: 768 };
/** Largest zoom the column choice aims for; beyond it a wider or narrower grid gains nothing visible. */
const MAX_FIT_ZOOM = 6;

/** A width and a height in pixels. */
export interface Size {
  width: number;
  height: number;
}

/** Screen pixels at the top of the page kept clear for the toolbar when fitting the floor. */
export const TOOLBAR_INSET = 36;

/** The part of a viewport the floor may use: all of it below the toolbar. */
export function usableViewport(viewport: Size): Size {
  return { width: viewport.width, height: Math.max(1, viewport.height - TOOLBAR_INSET) };
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

/** The zoom at which a floor just fits a viewport (any real number; the camera picks its step). */
export function fitRatio(world: Size, viewport: Size): number {
  return Math.min(viewport.width / world.width, viewport.height / world.height);
}

/**
 * Lays out the floor for a viewport: stations in given order on a grid, the lobby taking the rest of the last row
 * (or a row of its own), agents filling their station's slots in given order. The number of columns is the one that
 * lets the floor fit the viewport at the largest whole zoom, and among those the one that fills it best.
 */
export function layoutWorld(stations: readonly StationInput[], agents: readonly AgentInput[], viewport: Size = LAPTOP_VIEWPORT): WorldLayout {
  const members = new Map<string, string[]>();
  for (const agent of agents) {
    const list = members.get(agent.stationKey) ?? [];
    list.push(agent.id);
    members.set(agent.stationKey, list);
  }
  const cells = Math.max(1, stations.length);
  let best: WorldLayout | null = null;
  let bestScore = -Infinity;
  for (let columns = 1; columns <= cells; columns += 1) {
    const candidate = layoutGrid(stations, members, columns);
    const ratio = fitRatio(candidate, viewport);
    // Whole zooms first (crisp pixels), then how much of the screen the floor fills.
    const score = (ratio >= 1 ? Math.min(Math.floor(ratio), MAX_FIT_ZOOM) : 0) * 1000 + Math.min(ratio, MAX_FIT_ZOOM + 1);
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best!;
}

/** Lays out the floor on a grid of `columns` station columns. */
export function layoutGrid(stations: readonly StationInput[], members: ReadonlyMap<string, readonly string[]>, columns: number): WorldLayout {
  const grid = stations.filter((station) => !station.lobby);
  const lobby = stations.find((station) => station.lobby);
  const gridWidth = columns * STATION_WIDTH + (columns - 1) * GAP;
  const result: WorldLayout = { width: gridWidth + MARGIN * 2, height: 0, stations: new Map(), agents: new Map() };
  const place = (station: StationInput, rect: Rect, perRow: number) => {
    const ids = members.get(station.key) ?? [];
    const { x, y } = rect;
    const slots = slotsIn({ x: x + PADDING, y: y + HEADER_HEIGHT }, ids.length, perRow);
    result.stations.set(station.key, {
      key: station.key,
      rect,
      sign: station.lobby ? { x: x + PADDING + 30, y: y + 6 } : { x: x + PADDING, y: y + 3 },
      bench: { x: x + PADDING + 4, y: y + 22 },
      board: station.lobby ? { x: x + rect.width, y, width: 0, height: 0 } : { x: x + rect.width - PADDING - 30, y: y + 4, width: 30, height: 24 },
      door: station.lobby ? { x: x + PADDING, y: y + 6 } : null,
      slots,
    });
    ids.forEach((id, index) => result.agents.set(id, slots[index]));
  };
  const lobbyPerRow = (width: number) => Math.max(1, Math.floor((width - PADDING * 2) / SLOT_WIDTH));
  let y = MARGIN;
  for (let start = 0; start < grid.length; start += columns) {
    const row = grid.slice(start, start + columns);
    const last = start + columns >= grid.length;
    // The lobby shares the last row when a column is left over.
    const lobbyWidth = lobby && last && row.length < columns ? gridWidth - row.length * (STATION_WIDTH + GAP) : 0;
    const lobbyRows = lobbyWidth ? rowsFor(members.get(lobby!.key)?.length ?? 0, lobbyPerRow(lobbyWidth)) : 1;
    const rows = Math.max(lobbyRows, ...row.map((station) => rowsFor(members.get(station.key)?.length ?? 0, SLOTS_PER_ROW)));
    const height = HEADER_HEIGHT + rows * SLOT_HEIGHT + PADDING;
    row.forEach((station, column) => place(station, { x: MARGIN + column * (STATION_WIDTH + GAP), y, width: STATION_WIDTH, height }, SLOTS_PER_ROW));
    if (lobbyWidth) place(lobby!, { x: MARGIN + row.length * (STATION_WIDTH + GAP), y, width: lobbyWidth, height }, lobbyPerRow(lobbyWidth));
    y += height + GAP;
  }
  if (lobby && !result.stations.has(lobby.key)) {
    const height = HEADER_HEIGHT + rowsFor(members.get(lobby.key)?.length ?? 0, lobbyPerRow(gridWidth)) * SLOT_HEIGHT + PADDING;
    place(lobby, { x: MARGIN, y, width: gridWidth, height }, lobbyPerRow(gridWidth));
    y += height + GAP;
  }
  result.height = y - GAP + MARGIN;
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

/** The box an agent's badge, character and name plate occupy around its feet position. */
export function agentBox(feet: Point): Rect {
  return { x: feet.x - SLOT_WIDTH / 2 + 1, y: feet.y - 38, width: SLOT_WIDTH - 2, height: 52 };
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
