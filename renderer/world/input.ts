/**
 * Pointer and keyboard input on the canvas: drag an agent onto a station (or the lobby), click a character or its
 * badge for its card and tray, click a station's sign (or right-click the station) for its menu, click empty floor to close it, drag empty floor to pan, wheel to zoom, arrows and +/- on the page, F to fit all. Hit tests use the pure layout.
 */
import type { AppStore } from '../store/createAppStore';
import { PAST_REFUSAL } from '../history/pastGuard';
import { inPast } from '../store/historyActions';
import { panBy, toWorld, zoomAt } from './camera';
import { badgeHitBox } from './BadgeView';
import { agentAt, contains, signHitBox, stationAt, type Point } from './layout';
import { LOBBY_KEY } from './model';
import type { World } from './World';
import type { Hover } from './worldInput';

/** Pixels the pointer must travel before a press on an agent becomes a drag. */
const DRAG_THRESHOLD = 4;
/** Screen pixels an arrow key pans. */
const PAN_STEP = 48;

type Gesture =
  | { kind: 'agent'; id: string; start: Point; grab: Point; moved: boolean; over: string | null; refused?: boolean }
  | { kind: 'pan'; last: Point; start: Point; moved: boolean }
  | null;

/** Wires input; returns a function that removes the listeners. */
export function attachInput(canvas: HTMLCanvasElement, world: World, store: AppStore, wake: () => void): () => void {
  let gesture: Gesture = null;
  const local = (event: { clientX: number; clientY: number }): Point => {
    const bounds = canvas.getBoundingClientRect();
    return { x: event.clientX - bounds.left, y: event.clientY - bounds.top };
  };
  const worldOf = (event: { clientX: number; clientY: number }) => toWorld(world.camera, local(event));
  const viewport = () => ({ width: canvas.clientWidth, height: canvas.clientHeight });
  const highlight = (key: string | null) => world.input.setDropTarget(key);

  const badgeAt = (point: Point): string | null => {
    for (const id of world.agentViews.keys()) {
      const badge = world.input.badgeRect(id);
      if (badge && contains(badgeHitBox(badge), point)) return id;
    }
    return null;
  };

  /** What a press at a world point would open, if anything: a badge's tray, the lobby door, a backlog board, a station's menu. */
  const openerAt = (point: Point): { kind: 'badge' | 'door' | 'board' | 'sign'; key: string } | null => {
    const badge = badgeAt(point);
    if (badge) return { kind: 'badge', key: badge };
    const station = stationAt(world.layout, point);
    const placed = station === null ? null : world.layout.stations.get(station);
    if (!placed || station === null) return null;
    if (placed.door && contains({ x: placed.door.x, y: placed.door.y, width: 24, height: 34 }, point)) return { kind: 'door', key: station };
    if (station !== LOBBY_KEY && contains({ ...placed.board, height: placed.board.height + 2 }, point)) return { kind: 'board', key: station };
    if (contains(signHitBox(placed), point) && agentAt(world.positions, point) === null) return { kind: 'sign', key: station };
    return null;
  };

  const onPointerDown = (event: PointerEvent) => {
    if (event.button !== 0) return;
    const point = worldOf(event);
    const opener = openerAt(point);
    const { actions } = store.getState();
    if (opener?.kind === 'badge') return actions.openTray(opener.key);
    if (opener?.kind === 'door') return void actions.openLobby();
    if (opener?.kind === 'board') return actions.openBacklog(opener.key);
    if (opener?.kind === 'sign') return actions.openStationMenu(opener.key, { x: event.clientX, y: event.clientY });
    const id = agentAt(world.positions, point);
    canvas.setPointerCapture(event.pointerId);
    if (id) {
      const feet = world.positions.get(id)!;
      gesture = { kind: 'agent', id, start: local(event), grab: { x: feet.x - point.x, y: feet.y - point.y }, moved: false, over: null };
    } else {
      gesture = { kind: 'pan', last: local(event), start: local(event), moved: false };
    }
  };

  /** Hover feedback while no button is down: a highlight on the station or board, a hand over what opens on click. */
  const hoverAt = (event: PointerEvent) => {
    const point = worldOf(event);
    const opener = openerAt(point);
    const station = stationAt(world.layout, point);
    const hover: Hover | null = opener?.kind === 'board' ? { kind: 'board', key: opener.key } : station === null ? null : { kind: 'station', key: station };
    const agent = agentAt(world.positions, point);
    const cursor = opener ? 'pointer' : agent ? 'grab' : '';
    if (canvas.style.cursor !== cursor) canvas.style.cursor = cursor;
    const hoverChanged = world.input.setHover(hover);
    if (world.input.setHoveredAgent(opener?.kind === 'badge' ? opener.key : agent) || hoverChanged) wake();
  };

  const onPointerMove = (event: PointerEvent) => {
    if (!gesture) return hoverAt(event);
    const screen = local(event);
    if (gesture.kind === 'pan') {
      if (!gesture.moved && Math.hypot(screen.x - gesture.start.x, screen.y - gesture.start.y) < DRAG_THRESHOLD) return;
      gesture.moved = true;
      world.moveCamera(panBy(world.camera, screen.x - gesture.last.x, screen.y - gesture.last.y));
      gesture.last = screen;
      wake();
      return;
    }
    if (!gesture.moved && Math.hypot(screen.x - gesture.start.x, screen.y - gesture.start.y) < DRAG_THRESHOLD) return;
    // The world shows the past: an agent is not dragged (no gesture writes); the owner is told once.
    if (inPast(store.getState())) {
      if (!gesture.moved) store.getState().actions.pushMessage('info', `${PAST_REFUSAL.message}.`);
      gesture.moved = true;
      gesture.refused = true;
      return;
    }
    gesture.moved = true;
    const view = world.agentViews.get(gesture.id);
    if (!view) return;
    view.dragging = true;
    const point = worldOf(event);
    world.drag(gesture.id, { x: point.x + gesture.grab.x, y: point.y + gesture.grab.y });
    gesture.over = stationAt(world.layout, point);
    highlight(gesture.over);
    wake();
  };

  const onPointerUp = (event: PointerEvent) => {
    const ended = gesture;
    gesture = null;
    if (canvas.hasPointerCapture(event.pointerId)) canvas.releasePointerCapture(event.pointerId);
    if (!ended) return;
    const { actions } = store.getState();
    if (ended.kind === 'pan') {
      // A click on empty floor closes the agent's card.
      if (!ended.moved && store.getState().ui.tray !== null) actions.closeTray();
      return;
    }
    highlight(null);
    if (ended.refused) return;
    if (!ended.moved) {
      // A click on a character opens its card with the tray (running subagents or not).
      actions.openTray(ended.id);
      return;
    }
    const target = stationAt(world.layout, worldOf(event));
    const record = world.agentViews.get(ended.id)?.record;
    world.release(ended.id);
    wake();
    if (target === null || !record || target === record.stationKey) return;
    const station = world.stationViews.get(target)?.record;
    void actions.setRole(ended.id, target === LOBBY_KEY ? null : (station?.label ?? target));
  };

  /** A right click on a station opens its menu, as a click on its sign does. */
  const onContextMenu = (event: MouseEvent) => {
    const station = stationAt(world.layout, worldOf(event));
    if (station === null) return;
    event.preventDefault();
    store.getState().actions.openStationMenu(station, { x: event.clientX, y: event.clientY });
  };

  const onPointerLeave = () => {
    if (gesture) return;
    const hoverChanged = world.input.setHover(null);
    if (world.input.setHoveredAgent(null) || hoverChanged) wake();
  };

  const onWheel = (event: WheelEvent) => {
    event.preventDefault();
    world.moveCamera(zoomAt(world.camera, local(event), -event.deltaY));
    wake();
  };

  const onKey = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement | null;
    if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.closest('[data-panel]'))) return;
    const inMirror = Boolean(target?.closest('[data-mirror]'));
    const centre = { x: canvas.clientWidth / 2, y: canvas.clientHeight / 2 };
    const moves: Record<string, [number, number]> = { ArrowLeft: [PAN_STEP, 0], ArrowRight: [-PAN_STEP, 0], ArrowUp: [0, PAN_STEP], ArrowDown: [0, -PAN_STEP] };
    const { history, actions, ui } = store.getState();
    if (event.key === 'j' || event.key === 'J') actions.toggleJobs();
    else if (event.key === 'h' || event.key === 'H') actions.toggleTimeline();
    else if (event.key === 'Escape' && history.away) actions.dismissAway();
    else if (event.key === 'Escape' && ui.jobsOpen) actions.closeJobs();
    else if (event.key === 'Escape' && history.viewing) actions.goLive();
    else if (event.key === 'f' || event.key === 'F') world.fit(viewport());
    else if (event.key === '+' || event.key === '=') world.moveCamera(zoomAt(world.camera, centre, 1));
    else if (event.key === '-' || event.key === '_') world.moveCamera(zoomAt(world.camera, centre, -1));
    else if (moves[event.key] && !inMirror) world.moveCamera(panBy(world.camera, ...moves[event.key]));
    else if (!inMirror && focusedKey(event.key)) return void focusedAction(event);
    else return;
    event.preventDefault();
    wake();
  };

  const focusedKey = (key: string) => key === 'r' || key === 'R' || key === 'Enter';
  const focusedAction = (event: KeyboardEvent) => {
    const { ui, actions } = store.getState();
    if (!ui.focused) return;
    event.preventDefault();
    if (event.key === 'Enter') actions.openTray(ui.focused);
    else void actions.openPicker(ui.focused);
  };

  canvas.addEventListener('pointerdown', onPointerDown);
  canvas.addEventListener('pointermove', onPointerMove);
  canvas.addEventListener('pointerup', onPointerUp);
  canvas.addEventListener('pointercancel', onPointerUp);
  canvas.addEventListener('pointerleave', onPointerLeave);
  canvas.addEventListener('wheel', onWheel, { passive: false });
  canvas.addEventListener('contextmenu', onContextMenu);
  window.addEventListener('keydown', onKey);
  return () => {
    canvas.removeEventListener('pointerdown', onPointerDown);
    canvas.removeEventListener('pointermove', onPointerMove);
    canvas.removeEventListener('pointerup', onPointerUp);
    canvas.removeEventListener('pointercancel', onPointerUp);
    canvas.removeEventListener('pointerleave', onPointerLeave);
    canvas.removeEventListener('wheel', onWheel);
    canvas.removeEventListener('contextmenu', onContextMenu);
    window.removeEventListener('keydown', onKey);
  };
}
