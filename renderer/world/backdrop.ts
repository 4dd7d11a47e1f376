/**
 * The backdrop: the still part of the floor (planks, station zones, signs, benches, boards, the lobby) painted once
 * into a 2D canvas under the WebGL canvas, and moved with the camera by a CSS transform. Only the agents are drawn
 * per frame: in software WebGL, filling the whole floor every frame was most of a frame's cost.
 */
import { Rectangle, type Container, type Renderer } from 'pixi.js';
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

  /** Paints `scene` (world pixels from 0,0 to `size`) into the canvas at one canvas pixel per world pixel. */
  paint(renderer: Renderer, scene: Container, size: Size): void {
    const width = Math.max(1, Math.ceil(size.width));
    const height = Math.max(1, Math.ceil(size.height));
    const source = renderer.extract.canvas({ target: scene, frame: new Rectangle(0, 0, width, height), resolution: 1, antialias: false, clearColor: [0, 0, 0, 0] });
    if (this.canvas.width !== width) this.canvas.width = width;
    if (this.canvas.height !== height) this.canvas.height = height;
    const context = this.canvas.getContext('2d');
    if (!context) return;
    context.imageSmoothingEnabled = false;
    context.clearRect(0, 0, width, height);
    context.drawImage(source as CanvasImageSource, 0, 0);
    this.paints += 1;
  }

  /** Moves the canvas with the camera: the same offset and zoom the WebGL scene uses, so the two line up exactly. */
  place(camera: Camera): void {
    this.canvas.style.transform = `translate(${camera.offsetX}px, ${camera.offsetY}px) scale(${camera.zoom})`;
  }
}
