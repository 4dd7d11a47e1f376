import { describe, expect, it } from 'vitest';
import { agentBox, agentAt, contains, layoutWorld, stationAt, type Rect } from './layout';
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

describe('layoutWorld', () => {
  it.each([6, 12, 20])('fits %i stations with two agents each on a 1366×768 laptop screen at zoom 1', (count) => {
    const { stations, agents } = fleet(count, 2);
    const layout = layoutWorld(stations, agents);
    expect(layout.width).toBeLessThanOrEqual(1366);
    expect(layout.height).toBeLessThanOrEqual(768);
    expect(fitCamera(layout, { width: 1366, height: 768 }).zoom).toBeGreaterThanOrEqual(1);
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

  it('zooms in steps and keeps the point under the cursor still', () => {
    const camera = { offsetX: 10, offsetY: 20, zoom: 1 };
    const anchor = { x: 300, y: 200 };
    const before = toWorld(camera, anchor);
    const zoomed = zoomAt(camera, anchor, 1);
    expect(zoomed.zoom).toBe(2);
    const after = toScreen(zoomed, before);
    expect(Math.abs(after.x - anchor.x)).toBeLessThanOrEqual(1);
    expect(Math.abs(after.y - anchor.y)).toBeLessThanOrEqual(1);
    expect(zoomAt(zoomAt(zoomed, anchor, -1), anchor, -1).zoom).toBe(0.5);
  });
});
