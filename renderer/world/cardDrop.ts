/**
 * Dragging a backlog card into the world (issue 40): a press on a card (panels.ts) starts it; past a few pixels a
 * ghost with the item's title follows the pointer, the backlog panel lets the pointer through, and the station under
 * it is highlighted. Dropped on an agent, the item is given to that agent; on a station with a role, its launch dialog
 * opens prefilled with the item. Hit tests use the pure layout, as the agent drag does.
 */
import type { AppStore } from '../store/createAppStore';
import { inPast } from '../store/historyActions';
import { PAST_REFUSAL } from '../history/pastGuard';
import { toWorld } from './camera';
import { agentAt, stationAt, type Point } from './layout';
import { LOBBY_KEY } from './model';
import type { World } from './World';

/** Pixels the pointer must travel before a press on a card becomes a drag. */
const DRAG_THRESHOLD = 4;

/** What a card would land on at a page point: an agent, a station, or nothing. */
type CardTarget = { kind: 'agent'; id: string } | { kind: 'station'; key: string } | null;

/** Wires card drops onto the canvas; returns a function that removes the listeners. */
export function attachCardDrop(canvas: HTMLCanvasElement, world: World, store: AppStore, wake: () => void): () => void {
  let start: Point | null = null;
  let dragging = false;
  const ghost = document.createElement('div');
  ghost.className = 'card-ghost';
  ghost.dataset.cardGhost = '';
  ghost.hidden = true;
  document.body.append(ghost);

  const targetAt = (event: PointerEvent): CardTarget => {
    if (document.elementFromPoint(event.clientX, event.clientY) !== canvas) return null;
    const bounds = canvas.getBoundingClientRect();
    const point = toWorld(world.camera, { x: event.clientX - bounds.left, y: event.clientY - bounds.top });
    const agent = agentAt(world.positions, point);
    if (agent) return { kind: 'agent', id: agent };
    const station = stationAt(world.layout, point);
    return station === null || station === LOBBY_KEY ? null : { kind: 'station', key: station };
  };

  const finish = () => {
    start = null;
    dragging = false;
    ghost.hidden = true;
    delete document.body.dataset.cardDragging;
    world.input.setDropTarget(null);
    wake();
    store.getState().actions.endCardDrag();
  };

  const onMove = (event: PointerEvent) => {
    const drag = store.getState().cardDrag;
    if (!drag) return;
    start ??= { x: event.clientX, y: event.clientY };
    if (!dragging && Math.hypot(event.clientX - start.x, event.clientY - start.y) < DRAG_THRESHOLD) return;
    if (!dragging) {
      dragging = true;
      ghost.textContent = drag.item.title;
      ghost.hidden = false;
      document.body.dataset.cardDragging = '';
    }
    ghost.style.left = `${event.clientX + 12}px`;
    ghost.style.top = `${event.clientY + 8}px`;
    const target = targetAt(event);
    world.input.setDropTarget(target?.kind === 'station' ? target.key : null);
    wake();
  };

  const onUp = (event: PointerEvent) => {
    const drag = store.getState().cardDrag;
    if (!drag) return;
    const wasDragging = dragging;
    const target = wasDragging ? targetAt(event) : null;
    finish();
    if (!target) return;
    const { actions } = store.getState();
    if (inPast(store.getState())) return actions.pushMessage('info', `${PAST_REFUSAL.message}.`);
    if (target.kind === 'agent') return void actions.giveItem(drag.item, target.id);
    const station = world.stationViews.get(target.key)?.record;
    // The board steps aside for the dialog it would otherwise cover.
    actions.openBacklog(null);
    void actions.openLaunch(target.key, station?.label ?? target.key, drag.item);
  };

  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && store.getState().cardDrag) finish();
  };

  window.addEventListener('pointermove', onMove);
  window.addEventListener('pointerup', onUp);
  window.addEventListener('pointercancel', finish);
  window.addEventListener('keydown', onKey);
  return () => {
    window.removeEventListener('pointermove', onMove);
    window.removeEventListener('pointerup', onUp);
    window.removeEventListener('pointercancel', finish);
    window.removeEventListener('keydown', onKey);
    ghost.remove();
  };
}
