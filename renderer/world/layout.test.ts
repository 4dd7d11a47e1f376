import { describe, expect, it } from 'vitest';
import { agentBox, agentAt, contains, layoutGrid, layoutWorld, stationAt, TOOLBAR_INSET, usableViewport, type Rect } from './layout';
import { fitCamera, toScreen, toWorld, zoomAt } from './camera';


function overlaps(first: Rect, second: Rect): boolean {
  return first.x < second.x + second.width && second.x < first.x + first.width && first.y < second.y + second.height && second.y < first.y + first.height;
}

function fleet(stationCount: number, agentsPerStation: number) {
  const stations = Array.from({ length: stationCount }, (_, index) => ({ key: `role ${index}`, lobby: false }));
  stations.push({ key: '', lobby: true });
  const agents = stations.flatMap((station) => Array.from({ length: agentsPerStation }, (_, index) => ({ id: `${station.key}/${index}`, stationKey: station.key })));
  return { stations, agents };
}

function membersOf(agents: { id: string; stationKey: string }[]): Map<string, string[]> {
  const members = new Map<string, string[]>();
  for (const agent of agents) members.set(agent.stationKey, [...(members.get(agent.stationKey) ?? []), agent.id]);
  return members;
}

const LAPTOP = { width: 1366, height: 768 };

describe('layoutWorld', () => {
  it.each([6, 12, 20])('fits %i stations with two agents each on a 1366×768 laptop screen at a whole zoom', (count) => {
    const { stations, agents } = fleet(count, 2);
    const layout = layoutWorld(stations, agents, usableViewport(LAPTOP));
    expect(layout.width).toBeLessThanOrEqual(1366);
    expect(layout.height).toBeLessThanOrEqual(768 - TOOLBAR_INSET);
    expect(Number.isInteger(fitCamera(layout, LAPTOP, TOOLBAR_INSET).zoom)).toBe(true);
    expect(fitCamera(layout, LAPTOP, TOOLBAR_INSET).zoom).toBeGreaterThanOrEqual(1);
  });

  it.each([
    [{ width: 1280, height: 800 }, 2],
    [LAPTOP, 2],
    [{ width: 1920, height: 1200 }, 3],
  ])('shows the demo (seven stations, one agent each, and the lobby) on %o at zoom %i', (viewport, zoom) => {
    const { stations, agents } = fleet(7, 1);
    const layout = layoutWorld(stations, agents, usableViewport(viewport));
    const camera = fitCamera(layout, viewport, TOOLBAR_INSET);
    expect(camera.zoom).toBe(zoom);
    // Centred below the toolbar, and filling most of the limiting side.
    expect(camera.offsetY).toBeGreaterThanOrEqual(TOOLBAR_INSET);
    expect(Math.abs(viewport.width - (camera.offsetX * 2 + layout.width * zoom))).toBeLessThanOrEqual(1);
    const fill = Math.max((layout.width * zoom) / viewport.width, (layout.height * zoom) / (viewport.height - TOOLBAR_INSET));
    expect(fill).toBeGreaterThan(0.85);
  });

  it('picks the column count whose whole zoom is largest: a tall window gets fewer columns than a wide one', () => {
    const { stations, agents } = fleet(7, 1);
    const wide = layoutWorld(stations, agents, { width: 1800, height: 500 });
    const tall = layoutWorld(stations, agents, { width: 500, height: 1800 });
    const columns = (layout: ReturnType<typeof layoutWorld>) => new Set([...layout.stations.values()].filter((station) => station.key !== '').map((station) => station.rect.x)).size;
    expect(columns(wide)).toBeGreaterThan(columns(tall));
    expect(columns(tall)).toBe(1);
    // No other column count would let the wide floor fit at a larger whole zoom.
    const members = membersOf(agents);
    const zoomOf = (columnCount: number) => fitCamera(layoutGrid(stations, members, columnCount), { width: 1800, height: 500 }).zoom;
    const chosen = fitCamera(wide, { width: 1800, height: 500 }).zoom;
    for (let count = 1; count <= 8; count += 1) expect(zoomOf(count)).toBeLessThanOrEqual(chosen);
  });

  it('puts the lobby in the free columns of the last row, or in a full-width row of its own', () => {
    const shared = layoutGrid(fleet(7, 1).stations, new Map(), 3);
    const lastStation = shared.stations.get('role 6')!.rect;
    const lobby = shared.stations.get('')!.rect;
    expect(lobby.y).toBe(lastStation.y);
    expect(lobby.x).toBeGreaterThan(lastStation.x + lastStation.width);
    expect(lobby.x + lobby.width).toBe(shared.stations.get('role 2')!.rect.x + shared.stations.get('role 2')!.rect.width);
    const own = layoutGrid(fleet(6, 1).stations, new Map(), 3);
    const ownLobby = own.stations.get('')!.rect;
    expect(ownLobby.y).toBeGreaterThan(own.stations.get('role 5')!.rect.y);
    expect(ownLobby.width).toBe(own.stations.get('role 2')!.rect.x + own.stations.get('role 2')!.rect.width - own.stations.get('role 0')!.rect.x);
  });

  it('never overlaps stations, and keeps every agent and its label inside its own station', () => {
    const { stations, agents } = fleet(9, 7);
    const layout = layoutWorld(stations, agents);
    const rects = [...layout.stations.values()].map((station) => station.rect);
    rects.forEach((rect, index) => rects.slice(index + 1).forEach((other) => expect(overlaps(rect, other)).toBe(false)));
    for (const agent of agents) {
      const box = agentBox(layout.agents.get(agent.id)!);
      const rect = layout.stations.get(agent.stationKey)!.rect;
      expect(contains(rect, { x: box.x, y: box.y })).toBe(true);
      expect(contains(rect, { x: box.x + box.width - 1, y: box.y + box.height - 1 })).toBe(true);
    }
  });

  it('queues many agents at one station without overlapping their labels', () => {
    const { stations, agents } = fleet(6, 20);
    const layout = layoutWorld(stations, agents);
    const boxes = agents.filter((agent) => agent.stationKey === 'role 0').map((agent) => agentBox(layout.agents.get(agent.id)!));
    boxes.forEach((box, index) => boxes.slice(index + 1).forEach((other) => expect(overlaps(box, other)).toBe(false)));
  });

  it('finds the station and the agent under a point', () => {
    const { stations, agents } = fleet(6, 1);
    const layout = layoutWorld(stations, agents);
    const lobby = layout.stations.get('')!.rect;
    expect(stationAt(layout, { x: lobby.x + 5, y: lobby.y + 5 })).toBe('');
    expect(stationAt(layout, { x: 1, y: 1 })).toBeNull();
    const feet = layout.agents.get('role 3/0')!;
    expect(agentAt(layout.agents, { x: feet.x, y: feet.y - 10 })).toBe('role 3/0');
    expect(agentAt(layout.agents, { x: feet.x, y: feet.y + 30 })).toBeNull();
  });
});

describe('camera', () => {
  it('fits a big floor with a halving zoom and centres it', () => {
    const camera = fitCamera({ width: 3000, height: 1000 }, { width: 1366, height: 768 });
    expect(camera.zoom).toBe(0.25);
    expect(camera.offsetX).toBe(Math.round((1366 - 750) / 2));
  });

  it('fits at the largest whole zoom when one fits, below the inset band', () => {
    const camera = fitCamera({ width: 400, height: 300 }, { width: 1300, height: 1000 }, 40);
    expect(camera.zoom).toBe(3);
    expect(camera.offsetY).toBe(40 + Math.round((960 - 900) / 2));
    expect(fitCamera({ width: 1000, height: 700 }, { width: 1366, height: 768 }, 36).zoom).toBe(1);
    expect(fitCamera({ width: 1000, height: 700 }, { width: 900, height: 768 }).zoom).toBe(0.75);
  });

  it('zooms in steps and keeps the point under the cursor still', () => {
    const camera = { offsetX: 10, offsetY: 20, zoom: 1 };
    const anchor = { x: 300, y: 200 };
    const before = toWorld(camera, anchor);
    const zoomed = zoomAt(camera, anchor, 1);
    expect(zoomed.zoom).toBe(2);
    const after = toScreen(zoomed, before);
    expect(Math.abs(after.x - anchor.x)).toBeLessThanOrEqual(1);
    expect(Math.abs(after.y - anchor.y)).toBeLessThanOrEqual(1);
    expect(zoomAt(zoomAt(zoomed, anchor, -1), anchor, -1).zoom).toBe(0.75);
  });
});
