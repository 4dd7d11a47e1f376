/**
 * Pure placement of a panel beside an agent on screen: to its right, else to its left, never over the agent nor
 * over the rectangles to avoid (the focused entry of the keyboard list); when neither side has room, the world pans
 * just enough to make room on the right.
 */

/** A screen rectangle in CSS pixels. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where the panel goes, and how far the world must pan first (0, 0 when it need not). */
export interface Placement {
  left: number;
  top: number;
  panX: number;
  panY: number;
}

/** Gaps of the placement, in CSS pixels. */
export interface PlacementBounds {
  /** Free band at the top of the window (the toolbar). */
  insetTop: number;
  /** Distance kept from the window's edges. */
  margin: number;
  /** Distance kept from the agent. */
  gap: number;
}

/** The bounds used on the page. */
export const PAGE_BOUNDS: PlacementBounds = { insetTop: 48, margin: 12, gap: 12 };

/** Whether two rectangles overlap. */
export function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(high, value));
}

/** Places a panel of `panel` size beside `agent` in a `viewport`, avoiding `avoid`. */
export function placeBeside(agent: Rect, panel: { width: number; height: number }, viewport: { width: number; height: number }, avoid: Rect[] = [], bounds = PAGE_BOUNDS): Placement {
  const { insetTop, margin, gap } = bounds;
  const topFor = (shiftY: number) => clamp(Math.round(agent.y + shiftY + agent.height / 2 - panel.height / 2), insetTop, Math.max(insetTop, viewport.height - margin - panel.height));
  const fits = (left: number, top: number, shiftX = 0, shiftY = 0) => {
    if (left < margin || left + panel.width > viewport.width - margin) return false;
    const box = { x: left, y: top, width: panel.width, height: panel.height };
    const moved = { ...agent, x: agent.x + shiftX, y: agent.y + shiftY };
    return !overlaps(box, moved) && avoid.every((rect) => !overlaps(box, rect));
  };
  const top = topFor(0);
  const right = Math.round(agent.x + agent.width + gap);
  if (fits(right, top)) return { left: right, top, panX: 0, panY: 0 };
  const left = Math.round(agent.x - gap - panel.width);
  if (fits(left, top)) return { left, top, panX: 0, panY: 0 };
  // Neither side has room: pan the agent left (or right) until the panel fits on the far side of it.
  const wantedRight = viewport.width - margin - panel.width;
  const panLeft = Math.round(wantedRight - gap - agent.width - agent.x);
  const panRight = Math.round(margin + panel.width + gap - agent.x);
  const panX = Math.abs(panLeft) <= Math.abs(panRight) ? panLeft : panRight;
  const placedLeft = panX === panLeft ? wantedRight : margin;
  // Keep the agent inside the window vertically as well.
  const panY = agent.y < insetTop ? insetTop - agent.y : agent.y + agent.height > viewport.height - margin ? viewport.height - margin - agent.y - agent.height : 0;
  return { left: clamp(placedLeft, margin, Math.max(margin, viewport.width - margin - panel.width)), top: topFor(panY), panX, panY };
}
