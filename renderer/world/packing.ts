/** Shelf packing of boxes in a given order: left to right, a new shelf when the next box would pass the width. Pure. */

/** A placed box, relative to the packing's top-left. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Boxes packed into shelves no wider than `width` (a box wider than that gets a shelf of its own). */
export function packShelves(sizes: readonly { width: number; height: number }[], width: number, gap: number): { boxes: Box[]; width: number; height: number } {
  const boxes: Box[] = [];
  let x = 0;
  let y = 0;
  let shelf = 0;
  let widest = 0;
  for (const size of sizes) {
    if (x > 0 && x + size.width > width) {
      y += shelf + gap;
      x = 0;
      shelf = 0;
    }
    boxes.push({ x, y, width: size.width, height: size.height });
    widest = Math.max(widest, x + size.width);
    x += size.width + gap;
    shelf = Math.max(shelf, size.height);
  }
  return { boxes, width: widest, height: boxes.length === 0 ? 0 : y + shelf };
}
