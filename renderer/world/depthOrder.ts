/**
 * Depth order for walkers without a scene rebuild per step. Agents and desks sort by their feet (`zIndex` = feet y),
 * and in Pixi any `zIndex` change marks the whole scene's structure changed: the next frame rebuilds its draw
 * instructions for every agent. Only agents whose cells overlap need their order right, so a walker keeps its old
 * `zIndex` while that still orders it right against everything it overlaps, and takes its feet's y (and a neighbour
 * whose own `zIndex` has gone stale takes its own) only when their order would be wrong.
 *
 * Each frame anyone walks, `begin` files everyone by column (arrays reused frame to frame, nothing allocated per
 * entry), then `settle` checks each walker against its neighbours.
 */

/** What gets ordered: Pixi's containers and sprites. */
export interface Layered {
  zIndex: number;
}

/** How far apart two things' feet can be and still overlap on screen: a cell (see layout.ts). */
export interface Reach {
  x: number;
  y: number;
}

export class DepthOrder {
  private items: Layered[] = [];
  private xs: number[] = [];
  private ys: number[] = [];
  private count = 0;
  /** Entry indices per column of `reach.x` world pixels. */
  private readonly columns: number[][] = [];

  constructor(private readonly reach: Reach) {}

  /** Starts filing this frame's things. */
  begin(): void {
    this.count = 0;
    for (const column of this.columns) column.length = 0;
  }

  /** Files a thing whose feet are at (x, y): its place in the order is its feet's y. */
  add(item: Layered, x: number, y: number): void {
    const index = this.count++;
    this.items[index] = item;
    this.xs[index] = x;
    this.ys[index] = y;
    const column = this.columnOf(x);
    while (this.columns.length <= column) this.columns.push([]);
    this.columns[column].push(index);
  }

  /**
   * A walker's feet are now at (x, y): keeps its `zIndex` if it still orders it right against every thing it overlaps,
   * else sets it to `y` (and a neighbour's stale one to its own feet). Says whether any `zIndex` changed.
   */
  settle(item: Layered, x: number, y: number): boolean {
    if (item.zIndex === y || this.consistent(item, x, y)) return false;
    item.zIndex = y;
    const column = this.columnOf(x);
    for (let near = Math.max(0, column - 1); near <= column + 1 && near < this.columns.length; near += 1) {
      for (const index of this.columns[near]) {
        const other = this.items[index];
        const otherY = this.ys[index];
        if (other === item || other.zIndex === otherY || !this.overlaps(index, x, y)) continue;
        if (!inOrder(y, item.zIndex, otherY, other.zIndex)) other.zIndex = otherY;
      }
    }
    return true;
  }

  private consistent(item: Layered, x: number, y: number): boolean {
    const column = this.columnOf(x);
    for (let near = Math.max(0, column - 1); near <= column + 1 && near < this.columns.length; near += 1) {
      for (const index of this.columns[near]) {
        const other = this.items[index];
        if (other === item || !this.overlaps(index, x, y)) continue;
        if (!inOrder(y, item.zIndex, this.ys[index], other.zIndex)) return false;
      }
    }
    return true;
  }

  private overlaps(index: number, x: number, y: number): boolean {
    return Math.abs(this.xs[index] - x) < this.reach.x && Math.abs(this.ys[index] - y) < this.reach.y;
  }

  private columnOf(x: number): number {
    return Math.max(0, Math.floor(x / this.reach.x));
  }
}

/** Whether two things' `zIndex`es draw them in their feet's order (the one further down the floor in front). */
function inOrder(y: number, z: number, otherY: number, otherZ: number): boolean {
  if (y === otherY) return true;
  return y > otherY ? z > otherZ : z < otherZ;
}
