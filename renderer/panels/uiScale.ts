/**
 * The reading panels' scale: on a large window the world is drawn at 3× and panels at 11–13 px look like footnotes
 * beside it, so the usage line, cards, trays and panels are drawn with CSS zoom (`--ui-zoom`) in
 * quarter steps from 1 (1280×720 and below) to 2. The toolbar, the needs-you strip and the timeline bar (with the PAST banner) stay at 1:
 * the world is fitted around their bands.
 */

/** Window size at which the panels are drawn at 1 (CSS pixels). */
const BASE = { width: 1280, height: 720 } as const;
const MAX_ZOOM = 2;

/** The panels' zoom for a window: the smaller of its two ratios to the base size, floored to a quarter, within 1–2. */
export function uiZoomFor(width: number, height: number): number {
  const ratio = Math.min(width / BASE.width, height / BASE.height);
  return Math.min(MAX_ZOOM, Math.max(1, Math.floor(ratio * 4) / 4));
}

let current = 1;

/** The panels' zoom now. */
export function uiZoom(): number {
  return current;
}

/** Sets `--ui-zoom` for this window and keeps it with the window's size. */
export function attachUiScale(root: HTMLElement = document.documentElement): void {
  const apply = () => {
    current = uiZoomFor(innerWidth, innerHeight);
    root.style.setProperty('--ui-zoom', String(current));
    root.dataset.uiZoom = String(current);
  };
  apply();
  addEventListener('resize', apply);
}

/**
 * Puts a zoomed panel's top-left at a point in page pixels: a zoomed element's `left` and `top` are in its own
 * (zoomed) pixels, so they are divided by the zoom.
 */
export function placeAt(node: HTMLElement, left: number, top: number): void {
  node.style.left = `${Math.round(left) / current}px`;
  node.style.top = `${Math.round(top) / current}px`;
}
