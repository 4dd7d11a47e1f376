/**
 * Draws the scene into a canvas that keeps its pixels between frames (preserveDrawingBuffer), bringing up to date only
 * what the draw plan names. In software WebGL every pixel shaded costs, so a typing tick does not draw the whole floor
 * again: where a seated character's frame advanced or something moved (a walker, a changed agent), the whole scene is
 * drawn clipped to those regions. Anything else (the camera, a new layout) draws everything.
 *
 * The regions are marked in the stencil buffer (a scissored clear each, which also clears their colour), and the scene
 * is drawn once with the stencil test passing only inside them: one pass over the scene however many regions changed,
 * where a scissored pass per region walked and uploaded the whole scene again for each (and more than a few regions
 * fell back to a whole frame, which software WebGL shades in full and the page then waits for at the frame's commit).
 * A canvas without a stencil buffer (both contexts the world may get ask for one) draws whole frames.
 */
import { Container, RendererType, type Renderer, type WebGLRenderer } from 'pixi.js';
import type { Camera } from './camera';
import { mergeRegions, type DrawPlan } from './drawPlan';
import type { Rect } from './layout';

/** More moving regions than this in one frame are drawn as one whole frame (each costs two scissored clears). */
const MAX_REGIONS = 128;
/** Regions covering more than this share of the canvas are drawn as one whole frame. */
const MAX_REGION_SHARE = 0.35;

/** The drawer of one scene. */
export class SceneDrawer {
  /** Full frames and partial ones drawn so far (the page hook reports them). */
  readonly counts = { full: 0, partial: 0 };
  private readonly gl: WebGL2RenderingContext | WebGLRenderingContext | null;
  /** Whether the canvas has a stencil buffer to mark regions in (else every frame is drawn whole). */
  private readonly stencil: boolean;

  /**
   * @param atlases pixel pages drawn on the CPU (looks, labels): their new pixels are uploaded before each draw, so a
   *   frame drawn in part never shows a picture the GPU has not received yet
   */
  constructor(
    private readonly renderer: Renderer,
    private readonly stage: Container,
    private readonly atlases: readonly { upload(): void }[] = [],
  ) {
    this.gl = renderer.type === RendererType.WEBGL ? (renderer as WebGLRenderer).gl : null;
    this.stencil = this.gl?.getContextAttributes()?.stencil === true;
  }

  /** Draws what the plan names, then starts the plan over; says whether anything was drawn. */
  draw(plan: DrawPlan, camera: Camera): boolean {
    if (plan.empty) return false;
    for (const atlas of this.atlases) atlas.upload();
    if (plan.full || !this.stencil || !this.regionsFit(plan, camera)) this.drawAll();
    else {
      this.drawStencilled(plan.regions, mergeRegions(plan.regions, plan.regionCount), camera);
      this.counts.partial += 1;
    }
    plan.reset();
    return true;
  }

  /**
   * For tests: brings the canvas up to date, reads it, draws the whole scene again and counts the pixels that differ.
   * Drawing in part must leave exactly what drawing everything would (0), whatever moved or changed before.
   */
  differenceFromWhole(plan: DrawPlan, camera: Camera): number {
    const gl = this.gl;
    if (!gl) return 0;
    this.draw(plan, camera);
    const width = this.renderer.canvas.width;
    const height = this.renderer.canvas.height;
    const kept = new Uint8Array(width * height * 4);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, kept);
    plan.markFull();
    this.draw(plan, camera);
    const whole = new Uint8Array(width * height * 4);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, whole);
    let differing = 0;
    for (let index = 0; index < kept.length; index += 4) {
      if (kept[index] !== whole[index] || kept[index + 1] !== whole[index + 1] || kept[index + 2] !== whole[index + 2] || kept[index + 3] !== whole[index + 3]) differing += 1;
    }
    return differing;
  }

  private drawAll(): void {
    this.renderer.render({ container: this.stage, clear: true });
    this.counts.full += 1;
  }

  private regionsFit(plan: DrawPlan, camera: Camera): boolean {
    if (plan.regionCount > MAX_REGIONS) return false;
    let area = 0;
    for (let index = 0; index < plan.regionCount; index += 1) {
      const region = plan.regions[index];
      area += region.width * region.height * camera.zoom * camera.zoom;
    }
    return area <= this.renderer.canvas.width * this.renderer.canvas.height * MAX_REGION_SHARE;
  }

  /**
   * Sets the scissor box to a world rectangle (rounded out to whole canvas pixels); false when none of it is on the
   * canvas. The scissor test is enabled by the caller.
   */
  private scissor(region: Rect, camera: Camera): boolean {
    const gl = this.gl!;
    const canvasWidth = this.renderer.canvas.width;
    const canvasHeight = this.renderer.canvas.height;
    const left = Math.max(0, Math.floor(region.x * camera.zoom + camera.offsetX));
    const top = Math.max(0, Math.floor(region.y * camera.zoom + camera.offsetY));
    const right = Math.min(canvasWidth, Math.ceil((region.x + region.width) * camera.zoom + camera.offsetX));
    const bottom = Math.min(canvasHeight, Math.ceil((region.y + region.height) * camera.zoom + camera.offsetY));
    if (right <= left || bottom <= top) return false;
    // GL counts rows from the bottom of the canvas.
    gl.scissor(left, canvasHeight - bottom, right - left, bottom - top);
    return true;
  }

  /**
   * The whole scene drawn once, only inside `count` world rectangles: each is cleared (colour) and marked (stencil 1),
   * the scene is drawn where the stencil is 1, and the marks are cleared again, so the stencil is 0 between frames.
   * Pixi uses the stencil only for masks, which the world has none of, and its stencil state is left as it found it.
   * The clear colour set here is the transparent one Pixi clears the canvas with too (it caches that colour).
   */
  private drawStencilled(regions: readonly Rect[], count: number, camera: Camera): void {
    const gl = this.gl!;
    gl.enable(gl.SCISSOR_TEST);
    gl.stencilMask(0xff);
    gl.clearColor(0, 0, 0, 0);
    gl.clearStencil(1);
    let any = false;
    for (let index = 0; index < count; index += 1) {
      if (!this.scissor(regions[index], camera)) continue;
      gl.clear(gl.COLOR_BUFFER_BIT | gl.STENCIL_BUFFER_BIT);
      any = true;
    }
    gl.disable(gl.SCISSOR_TEST);
    if (!any) return;
    gl.enable(gl.STENCIL_TEST);
    gl.stencilFunc(gl.EQUAL, 1, 0xff);
    gl.stencilOp(gl.KEEP, gl.KEEP, gl.KEEP);
    try {
      this.renderer.render({ container: this.stage, clear: false });
    } finally {
      gl.disable(gl.STENCIL_TEST);
      gl.enable(gl.SCISSOR_TEST);
      gl.clearStencil(0);
      for (let index = 0; index < count; index += 1) if (this.scissor(regions[index], camera)) gl.clear(gl.STENCIL_BUFFER_BIT);
      gl.disable(gl.SCISSOR_TEST);
    }
  }
}
