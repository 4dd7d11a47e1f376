/**
 * Draws the scene into a canvas that keeps its pixels between frames (preserveDrawingBuffer), bringing up to date only
 * what the draw plan names. In software WebGL every pixel shaded costs, so a typing tick does not draw the whole floor
 * again: each seated character whose frame advanced is erased inside its own box and drawn again with the front of
 * its desk (nothing else reaches into that box while it sits). Where something moved (a walker, an envelope), the
 * whole scene is drawn clipped to that region. Anything else (the camera, a changed record) draws everything.
 */
import { Container, RendererType, Sprite, Texture, type Renderer, type WebGLRenderer } from 'pixi.js';
import type { Camera } from './camera';
import { mergeRegions, type DrawPlan } from './drawPlan';
import type { Rect } from './layout';

/** More moving regions than this in one frame are drawn as one whole frame. */
const MAX_REGIONS = 8;
/** Regions covering more than this share of the canvas are drawn as one whole frame. */
const MAX_REGION_SHARE = 0.35;

/** A pool of sprites in one layer: the first `count` shown, the rest hidden. */
class SpritePool {
  readonly layer = new Container();
  private count = 0;

  constructor(private readonly make: () => Sprite = () => new Sprite(Texture.EMPTY)) {}

  /** The next sprite of this draw. */
  next(): Sprite {
    let sprite = this.layer.children[this.count] as Sprite | undefined;
    if (!sprite) {
      sprite = this.make();
      this.layer.addChild(sprite);
    }
    sprite.visible = true;
    this.count += 1;
    return sprite;
  }

  /** Hides the sprites this draw did not use and starts over. */
  finish(): void {
    for (let index = this.count; index < this.layer.children.length; index += 1) this.layer.children[index].visible = false;
    this.count = 0;
  }
}

/** The drawer of one scene. */
export class SceneDrawer {
  /** Full frames and partial ones drawn so far (the page hook reports them). */
  readonly counts = { full: 0, partial: 0 };
  private readonly patch = new Container();
  /** Transparent quads written without blending: they clear a box of the kept canvas. */
  private readonly erasers = new SpritePool(() => {
    const eraser = new Sprite(Texture.WHITE);
    eraser.tint = 0x000000;
    eraser.alpha = 0;
    eraser.blendMode = 'none';
    return eraser;
  });
  private readonly bodies = new SpritePool();
  private readonly desks = new SpritePool();
  private readonly gl: WebGL2RenderingContext | WebGLRenderingContext | null;

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
    this.patch.addChild(this.erasers.layer, this.bodies.layer, this.desks.layer);
  }

  /** Draws what the plan names, then starts the plan over; says whether anything was drawn. */
  draw(plan: DrawPlan, camera: Camera): boolean {
    if (plan.empty) return false;
    for (const atlas of this.atlases) atlas.upload();
    if (plan.full || !this.gl || !this.regionsFit(plan, camera)) this.drawAll();
    else {
      if (plan.seated.length > 0) this.drawSeated(plan, camera);
      const regions = mergeRegions(plan.regions, plan.regionCount);
      for (let index = 0; index < regions; index += 1) this.drawRegion(plan.regions[index], camera);
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

  /** Each seated character: its box erased, its frame drawn, the front of its desk drawn over it. */
  private drawSeated(plan: DrawPlan, camera: Camera): void {
    for (let index = 0; index < plan.seated.length; index += 1) {
      const view = plan.seated[index];
      const box = view.bodyBox;
      const eraser = this.erasers.next();
      eraser.position.set(view.position.x + box.x, view.position.y + box.y);
      eraser.setSize(box.width, box.height);
      view.copyBody(this.bodies.next());
      const desk = plan.desks[index];
      const front = this.desks.next();
      front.texture = desk.texture;
      front.position.copyFrom(desk.position);
    }
    this.erasers.finish();
    this.bodies.finish();
    this.desks.finish();
    this.patch.position.set(camera.offsetX, camera.offsetY);
    this.patch.scale.set(camera.zoom);
    this.renderer.render({ container: this.patch, clear: false });
  }

  /** The whole scene, clipped to a world rectangle (rounded out to whole canvas pixels). */
  private drawRegion(region: Rect, camera: Camera): void {
    const gl = this.gl!;
    const canvasWidth = this.renderer.canvas.width;
    const canvasHeight = this.renderer.canvas.height;
    const left = Math.max(0, Math.floor(region.x * camera.zoom + camera.offsetX));
    const top = Math.max(0, Math.floor(region.y * camera.zoom + camera.offsetY));
    const right = Math.min(canvasWidth, Math.ceil((region.x + region.width) * camera.zoom + camera.offsetX));
    const bottom = Math.min(canvasHeight, Math.ceil((region.y + region.height) * camera.zoom + camera.offsetY));
    if (right <= left || bottom <= top) return;
    gl.enable(gl.SCISSOR_TEST);
    // GL counts rows from the bottom of the canvas.
    gl.scissor(left, canvasHeight - bottom, right - left, bottom - top);
    try {
      this.renderer.render({ container: this.stage, clear: true });
    } finally {
      gl.disable(gl.SCISSOR_TEST);
    }
  }
}
