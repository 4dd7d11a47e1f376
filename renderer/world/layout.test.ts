import { describe, expect, it } from 'vitest';
import { fitCamera, fitZoom, textScale, toScreen, toWorld, zoomAt, ZOOM_STEPS } from './camera';
import {
  agentAt, agentBox, contains, deskBox, DESK_BOX, FEET_IN_CELL, layoutWorld, overlaps, signHitBox, stationAt, stationColumns, stationSize, stretchShelves, TOOLBAR_INSET, usableViewport, LABEL_BOXES,
  type AgentInput, type StationInput, type WorldLayout,
} from './layout';
import { packShelves } from './packing';

const BUILT_INS = ['planner', 'designer', 'builder', 'tester', 'reviewer', 'researcher'];
/** The demo's fleet: six built-in stations, a custom one and the lobby; agents rotate over four built-ins, the custom role and the lobby. */
function demoFleet(count: number): { stations: StationInput[]; agents: AgentInput[] } {
  const stations: StationInput[] = [...BUILT_INS, 'sound designer'].map((key) => ({ key, lobby: false }));
  stations.push({ key: '', lobby: true });
  const rotation = ['planner', 'builder', 'tester', 'reviewer', 'sound designer', ''];
  const agents = Array.from({ length: count }, (_, index) => ({ id: `agent ${index}`, stationKey: rotation[index % rotation.length] }));
  return { stations, agents };
}
/** The bench's fleet: 30 stations (six built-ins and 24 guilds) and the lobby. */
function guildFleet(count: number): { stations: StationInput[]; agents: AgentInput[] } {
  const keys = Array.from({ length: 30 }, (_, index) => (index < 6 ? BUILT_INS[index] : `guild ${index}`));
  const stations: StationInput[] = keys.map((key) => ({ key, lobby: false }));
  stations.push({ key: '', lobby: true });
  const agents = Array.from({ length: count }, (_, index) => ({ id: `agent ${index}`, stationKey: keys[index % 30] }));
  return { stations, agents };
}

const WINDOWS = [
  { width: 1024, height: 640 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
];

function fill(layout: WorldLayout, window: { width: number; height: number }): number {
  const usable = usableViewport(window);
  return Math.max((layout.width * layout.zoom) / usable.width, (layout.height * layout.zoom) / usable.height);
}

describe('occupancy sizing', () => {
  it('gives an empty station a compact desk and grows a crowded one', () => {
    const empty = stationSize(0, 0, false);
    const one = stationSize(1, stationColumns(1, 1), false);
    const crowded = stationSize(30, stationColumns(30, 1), false);
    expect(empty.height).toBeLessThan(one.height);
    expect(crowded.width * crowded.height).toBeGreaterThan(6 * one.width * one.height);
    const { stations, agents } = demoFleet(60);
    const layout = layoutWorld(stations, agents, usableViewport(WINDOWS[1]));
    const area = (key: string) => layout.stations.get(key)!.rect.width * layout.stations.get(key)!.rect.height;
    // Designer and researcher have nobody: they take less floor than planner with its ten agents.
    expect(area('designer')).toBeLessThan(area('planner'));
    expect(area('researcher')).toBeLessThan(area('planner'));
  });

  it('shapes a station wider or taller by its shape factor, never more columns than agents', () => {
    expect(stationColumns(0, 1)).toBe(0);
    expect(stationColumns(1, 4)).toBe(1);
    expect(stationColumns(20, 4)).toBeGreaterThan(stationColumns(20, 0.35));
    expect(stationColumns(20, 40)).toBe(20);
  });
});

describe('aspect packing', () => {
  it('packs shelves in order, wrapping when the next box would pass the width', () => {
    const packed = packShelves([{ width: 100, height: 50 }, { width: 100, height: 70 }, { width: 100, height: 40 }], 210, 6);
    expect(packed.boxes.map((box) => [box.x, box.y])).toEqual([[0, 0], [106, 0], [0, 76]]);
    expect(packed).toMatchObject({ width: 206, height: 116 });
  });

  it('stretches shelves to an area without overlapping or reordering', () => {
    const packed = packShelves([{ width: 100, height: 50 }, { width: 60, height: 70 }, { width: 100, height: 40 }], 170, 6);
    const stretched = stretchShelves(packed.boxes, { width: 400, height: 300 }, 6);
    stretched.forEach((box, index) => stretched.slice(index + 1).forEach((other) => expect(overlaps(box, other)).toBe(false)));
    for (const box of stretched) expect(box.x + box.width).toBeLessThanOrEqual(400);
    expect(Math.max(...stretched.map((box) => box.x + box.width))).toBe(400);
    expect(Math.max(...stretched.map((box) => box.y + box.height))).toBe(300);
    stretched.forEach((box, index) => expect(box.width).toBeGreaterThanOrEqual(packed.boxes[index].width));
  });

  it('gives a wide window more stations a row than a tall one', () => {
    const { stations, agents } = demoFleet(20);
    const shelves = (layout: WorldLayout) => new Set([...layout.stations.values()].map((station) => station.rect.y)).size;
    const wide = layoutWorld(stations, agents, { width: 1800, height: 500 });
    const tall = layoutWorld(stations, agents, { width: 500, height: 1800 });
    expect(shelves(tall)).toBeGreaterThan(shelves(wide));
  });
});

describe('fit', () => {
  it.each(WINDOWS.flatMap((window) => [6, 20, 60, 200].map((count) => [count, window] as const)))(
    'fills at least 85 percent of the limiting side with %i demo agents on %o, at a crisp zoom',
    (count, window) => {
      const { stations, agents } = demoFleet(count);
      const layout = layoutWorld(stations, agents, usableViewport(window));
      expect(ZOOM_STEPS).toContain(layout.zoom);
      expect(fill(layout, window)).toBeGreaterThanOrEqual(0.85);
      const camera = fitCamera(layout, window, TOOLBAR_INSET);
      expect(camera.offsetX).toBeGreaterThanOrEqual(0);
      expect(camera.offsetY).toBeGreaterThanOrEqual(TOOLBAR_INSET);
      expect(camera.offsetX + layout.width * layout.zoom).toBeLessThanOrEqual(window.width);
      expect(camera.offsetY + layout.height * layout.zoom).toBeLessThanOrEqual(window.height);
    },
  );

  it.each(WINDOWS)('fills the window with 200 agents over 30 stations on %o', (window) => {
    const { stations, agents } = guildFleet(200);
    const layout = layoutWorld(stations, agents, usableViewport(window));
    expect(fill(layout, window)).toBeGreaterThanOrEqual(0.85);
    expect(layout.zoom).toBeGreaterThanOrEqual(0.5);
  });

  it('chooses the largest crisp zoom at which the natural floor fits: a few agents get a big zoom, many a small one', () => {
    const few = layoutWorld(demoFleet(6).stations, demoFleet(6).agents, usableViewport(WINDOWS[2]));
    const many = layoutWorld(demoFleet(200).stations, demoFleet(200).agents, usableViewport(WINDOWS[2]));
    expect(few.zoom).toBeGreaterThanOrEqual(2);
    expect(many.zoom).toBeLessThan(few.zoom);
    expect(fitZoom(0.1)).toBe(0.5);
    expect(fitZoom(1.74)).toBe(1.5);
    expect(fitZoom(40)).toBe(6);
  });

  it('never overlaps stations, and keeps every work place inside its own station', () => {
    for (const count of [6, 60, 200]) {
      const { stations, agents } = demoFleet(count);
      const layout = layoutWorld(stations, agents, usableViewport(WINDOWS[0]));
      const rects = [...layout.stations.values()].map((station) => station.rect);
      rects.forEach((rect, index) => rects.slice(index + 1).forEach((other) => expect(overlaps(rect, other)).toBe(false)));
      const boxes = agents.map((agent) => agentBox(layout.agents.get(agent.id)!));
      agents.forEach((agent, index) => {
        const rect = layout.stations.get(agent.stationKey)!.rect;
        const box = boxes[index];
        expect(contains(rect, { x: box.x, y: box.y })).toBe(true);
        expect(contains(rect, { x: box.x + box.width - 1, y: box.y + box.height - 1 })).toBe(true);
      });
      boxes.forEach((box, index) => boxes.slice(index + 1).forEach((other) => expect(overlaps(box, other)).toBe(false)));
    }
  });

  it('keeps the badge, bubble and name plate of a work place apart and inside it', () => {
    const cell = agentBox({ x: 0, y: 0 });
    const boxes = Object.values(LABEL_BOXES);
    boxes.forEach((box, index) => {
      expect(contains(cell, { x: box.x, y: box.y })).toBe(true);
      expect(contains(cell, { x: box.x + box.width - 1, y: box.y + box.height - 1 })).toBe(true);
      boxes.slice(index + 1).forEach((other) => expect(overlaps(box, other)).toBe(false));
    });
  });

  it('gives every agent its own desk inside its work place, in front of its character and clear of every label', () => {
    const desk = deskBox({ x: 0, y: 0 });
    const cell = agentBox({ x: 0, y: 0 });
    expect(contains(cell, { x: desk.x, y: desk.y })).toBe(true);
    expect(contains(cell, { x: desk.x + desk.width - 1, y: desk.y + desk.height - 1 })).toBe(true);
    for (const box of Object.values(LABEL_BOXES)) expect(overlaps(desk, box)).toBe(false);
    // Seated behind it: the desk's top (below the monitor's rows) is under the 26 px character's head and hides its legs.
    const top = desk.y + 7;
    expect(top).toBeGreaterThan(-26 + 10);
    expect(top).toBeLessThan(-7);
    expect(desk.y + desk.height).toBeGreaterThan(0);
    expect(DESK_BOX.height).toBeLessThanOrEqual(FEET_IN_CELL);
    for (const count of [6, 60, 200]) {
      const { agents, stations } = demoFleet(count);
      const layout = layoutWorld(stations, agents, usableViewport(WINDOWS[1]));
      const desks = agents.map((agent) => ({ key: agent.stationKey, box: deskBox(layout.agents.get(agent.id)!) }));
      expect(desks).toHaveLength(count);
      desks.forEach(({ key, box }, index) => {
        const rect = layout.stations.get(key)!.rect;
        expect(contains(rect, { x: box.x, y: box.y })).toBe(true);
        expect(contains(rect, { x: box.x + box.width - 1, y: box.y + box.height - 1 })).toBe(true);
        desks.slice(index + 1).forEach((other) => expect(overlaps(box, other.box)).toBe(false));
      });
    }
  });

  it('finds the station and the agent under a point', () => {
    const { stations, agents } = demoFleet(6);
    const layout = layoutWorld(stations, agents);
    const lobby = layout.stations.get('')!.rect;
    expect(stationAt(layout, { x: lobby.x + 5, y: lobby.y + 5 })).toBe('');
    expect(stationAt(layout, { x: 1, y: 1 })).toBeNull();
    const feet = layout.agents.get('agent 3')!;
    expect(agentAt(layout.agents, { x: feet.x, y: feet.y - 10 })).toBe('agent 3');
    expect(agentAt(layout.agents, { x: feet.x, y: feet.y + 30 })).toBeNull();
  });
});

describe('the station sign opens its menu', () => {
  it('covers the sign up to the board (or the lobby door), inside the station and clear of the board', () => {
    const layout = layoutWorld(demoFleet(6).stations, demoFleet(6).agents);
    for (const station of layout.stations.values()) {
      const box = signHitBox(station);
      expect(box.width).toBeGreaterThan(20);
      expect(contains(station.rect, { x: box.x, y: box.y + 2 })).toBe(true);
      expect(stationAt(layout, { x: box.x + 1, y: box.y + 3 })).toBe(station.key);
      if (!station.door) expect(overlaps(box, station.board)).toBe(false);
    }
  });
});

describe('camera', () => {
  it('centres the floor below the inset band at the layout zoom', () => {
    const camera = fitCamera({ width: 400, height: 300, zoom: 3 }, { width: 1300, height: 1000 }, 40);
    expect(camera.zoom).toBe(3);
    expect(camera.offsetX).toBe(Math.round((1300 - 1200) / 2));
    expect(camera.offsetY).toBe(40 + Math.round((960 - 900) / 2));
  });

  it('draws text at a whole scale no larger than the zoom, never below 1', () => {
    expect([0.25, 0.5, 0.75, 1, 1.5, 2, 2.5, 3.5, 6].map(textScale)).toEqual([1, 1, 1, 1, 1, 2, 2, 3, 6]);
  });

  it('zooms in steps and keeps the point under the cursor still', () => {
    const camera = { offsetX: 10, offsetY: 20, zoom: 1 };
    const anchor = { x: 300, y: 200 };
    const before = toWorld(camera, anchor);
    const zoomed = zoomAt(camera, anchor, 1);
    expect(zoomed.zoom).toBe(1.5);
    const after = toScreen(zoomed, before);
    expect(Math.abs(after.x - anchor.x)).toBeLessThanOrEqual(1);
    expect(Math.abs(after.y - anchor.y)).toBeLessThanOrEqual(1);
    expect(zoomAt(zoomAt(zoomed, anchor, -1), anchor, -1).zoom).toBe(0.75);
  });
});
