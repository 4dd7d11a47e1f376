/**
 * The backdrop: the still part of the floor (planks, station zones, signs, benches, boards, the lobby) painted once
 * into a 2D canvas under the WebGL canvas, and moved with the camera by a CSS transform. Only the agents are drawn
 * per frame: in software WebGL, filling the whole floor every frame was most of a frame's cost.
 *
 * The floor is painted by a Canvas 2D renderer of its own straight into the backdrop (`paint` with that renderer): the
 * planks as one picture (planks.ts) and the stations' few pieces each, 11–15 ms on the CPU for a 1280×736 floor of 30
 * stations, where drawing a sprite per tile in WebGL and reading the floor back (a 1700×1000 floor is 7 MB) made the
 * page wait 80–250 ms at each new layout or timeline seek. Given the WebGL renderer, it draws into a kept texture and
 * reads the pixels back, as before.
 */
import { Rectangle, RendererType, RenderTexture, type Container, type Renderer, type WebGLRenderer } from 'pixi.js';
import type { Camera } from './camera';
import type { Size } from './layout';

/** The backdrop canvas. */
export class Backdrop {
  readonly canvas: HTMLCanvasElement = document.createElement('canvas');
  /** How many times the backdrop was painted (the page hook reports it; it should stay flat while agents churn). */
  paints = 0;

  constructor() {
    this.canvas.className = 'backdrop';
    this.canvas.setAttribute('aria-hidden', 'true');
  }

  /** The texture the scene is drawn into before it is read (kept between paints: a new one per paint cost a framebuffer). */
  private target: RenderTexture | null = null;
  /** The pixels read back, kept between paints of one size (a floor's 4 MB was allocated twice per paint). */
  private image: ImageData | null = null;

  /**
   * Paints `scene` (world pixels from 0,0 to `size`) into the canvas at one canvas pixel per world pixel. In WebGL the
   * scene is drawn into a kept texture and its pixels read straight into the canvas's own image data: no new texture,
   * canvas or buffer per paint (a timeline seek repaints the floor, and the copies were most of its cost).
   */
  paint(renderer: Renderer, scene: Container, size: Size): void {
    const width = Math.max(1, Math.ceil(size.width));
    const height = Math.max(1, Math.ceil(size.height));
    if (renderer.type === RendererType.CANVAS && renderer.canvas === this.canvas) {
      // The backdrop's own renderer: the scene is drawn straight into the canvas.
      if (renderer.width !== width || renderer.height !== height) renderer.resize(width, height, 1);
      renderer.render({ container: scene, clear: true, clearColor: [0, 0, 0, 0] });
      this.paints += 1;
      return;
    }
    if (this.canvas.width !== width) this.canvas.width = width;
    if (this.canvas.height !== height) this.canvas.height = height;
    const context = this.canvas.getContext('2d');
    if (!context) return;
    if (renderer.type === RendererType.WEBGL) this.paintRead(renderer as WebGLRenderer, scene, context, width, height);
    else {
      const source = renderer.extract.canvas({ target: scene, frame: new Rectangle(0, 0, width, height), resolution: 1, antialias: false, clearColor: [0, 0, 0, 0] });
      context.imageSmoothingEnabled = false;
      context.clearRect(0, 0, width, height);
      context.drawImage(source as CanvasImageSource, 0, 0);
    }
    this.paints += 1;
  }

  private paintRead(renderer: WebGLRenderer, scene: Container, context: CanvasRenderingContext2D, width: number, height: number): void {
    if (!this.target || this.target.width !== width || this.target.height !== height) {
      this.target?.destroy(true);
      this.target = RenderTexture.create({ width, height, resolution: 1, antialias: false });
      this.image = context.createImageData(width, height);
    }
    const image = this.image!;
    renderer.render({ container: scene, target: this.target, clear: true, clearColor: [0, 0, 0, 0] });
    const renderTarget = renderer.renderTarget.getRenderTarget(this.target);
    const framebuffer = renderer.renderTarget.getGpuRenderTarget(renderTarget).resolveTargetFramebuffer;
    renderer.renderTarget.adaptor.bindFramebuffer(framebuffer);
    const gl = renderer.gl;
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength));
    context.putImageData(image, 0, 0);
  }

  /** Moves the canvas with the camera: the same offset and zoom the WebGL scene uses, so the two line up exactly. */
  place(camera: Camera): void {
    this.canvas.style.transform = `translate(${camera.offsetX}px, ${camera.offsetY}px) scale(${camera.zoom})`;
  }
}
