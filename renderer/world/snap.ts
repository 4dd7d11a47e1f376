/** Whole screen pixels for pixel text: where a label lands at a zoom, so the font never falls between two pixels. */

/**
 * The world coordinate nearest to `world` that a zoom puts on a whole screen pixel (the camera's offset is whole, so
 * only the zoom matters): at zoom 1.5 the world pixel 7 is screen 10.5, and a label there moves to 7⅓ (screen 11).
 */
export function wholePixel(world: number, zoom: number): number {
  return Math.round(world * zoom) / zoom;
}
