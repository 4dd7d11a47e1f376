/** Pure camera maths: screen = world × zoom + offset, zoom on fixed steps so pixels stay crisp. */

/** A point in pixels, world or screen (the layout's Point, by shape: the layout imports this module). */
type Point = { x: number; y: number };

/** The camera: integer screen offsets and a zoom from `ZOOM_STEPS`. */
export interface Camera {
  offsetX: number;
  offsetY: number;
  zoom: number;
}

/**
 * Allowed zooms: whole steps, half steps (nearest-neighbour sampling; text is drawn at a whole scale on its own, see
 * `textScale`), and quarters below 1 for big fleets.
 */
export const ZOOM_STEPS = [0.25, 0.5, 0.75, 1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6, 7, 8] as const;
/** The smallest and largest zoom "fit all" picks: below 0.5 nothing reads; above 6 a small fleet only gets coarser. */
const FIT_MIN = 0.5;
const FIT_MAX = 6;
/** Below this zoom names are hidden (they come back on hover and focus): they would not fit their work places. */
export const NAMES_MIN_ZOOM = 1;

/** The largest zoom step not above `ratio` (the smallest step when none fits). */
export function zoomNotAbove(ratio: number): number {
  let chosen: number = ZOOM_STEPS[0];
  for (const step of ZOOM_STEPS) if (step <= ratio) chosen = step;
  return chosen;
}

/** The zoom "fit all" uses for a floor that just fits at `ratio`: the largest step not above it, within fit bounds. */
export function fitZoom(ratio: number): number {
  return Math.min(FIT_MAX, Math.max(FIT_MIN, zoomNotAbove(ratio)));
}

/** The whole scale pixel text is drawn at for a zoom (1 below zoom 2, then the zoom rounded down). */
export function textScale(zoom: number): number {
  return Math.max(1, Math.floor(zoom));
}

/** The camera that shows a floor laid out at `zoom`, centred in the viewport below a top band of `insetTop` pixels. */
export function fitCamera(world: { width: number; height: number; zoom: number }, viewport: { width: number; height: number }, insetTop = 0): Camera {
  const height = Math.max(1, viewport.height - insetTop);
  const zoom = world.zoom;
  return {
    zoom,
    offsetX: Math.round((viewport.width - world.width * zoom) / 2),
    offsetY: insetTop + Math.round((height - world.height * zoom) / 2),
  };
}

/** World point → screen point. */
export function toScreen(camera: Camera, point: Point): Point {
  return { x: point.x * camera.zoom + camera.offsetX, y: point.y * camera.zoom + camera.offsetY };
}

/** Screen point → world point. */
export function toWorld(camera: Camera, point: Point): Point {
  return { x: (point.x - camera.offsetX) / camera.zoom, y: (point.y - camera.offsetY) / camera.zoom };
}

/** One zoom step in or out (`direction` > 0 zooms in), keeping the world point under `anchor` in place. */
export function zoomAt(camera: Camera, anchor: Point, direction: number): Camera {
  const index = ZOOM_STEPS.indexOf(camera.zoom as (typeof ZOOM_STEPS)[number]);
  const nextIndex = Math.max(0, Math.min(ZOOM_STEPS.length - 1, (index < 0 ? ZOOM_STEPS.indexOf(1) : index) + Math.sign(direction)));
  const zoom = ZOOM_STEPS[nextIndex];
  const world = toWorld(camera, anchor);
  return { zoom, offsetX: Math.round(anchor.x - world.x * zoom), offsetY: Math.round(anchor.y - world.y * zoom) };
}

/** Moves the view by a screen distance. */
export function panBy(camera: Camera, deltaX: number, deltaY: number): Camera {
  return { ...camera, offsetX: Math.round(camera.offsetX + deltaX), offsetY: Math.round(camera.offsetY + deltaY) };
}

/** The camera at the same zoom with `point` (world pixels) in the middle of the viewport. */
export function centredCamera(camera: Camera, point: Point, viewport: { width: number; height: number }): Camera {
  return { zoom: camera.zoom, offsetX: Math.round(viewport.width / 2 - point.x * camera.zoom), offsetY: Math.round(viewport.height / 2 - point.y * camera.zoom) };
}
