/**
 * The world's camera on the scene: where the WebGL layers and the backdrop sit for a camera (pan and zoom), whether
 * the view still fits itself to the floor, and which agents are off screen (culled: neither drawn nor animated).
 */
import type { Container, Sprite } from 'pixi.js';
import type { AgentView } from './AgentView';
import type { Backdrop } from './backdrop';
import { toScreen, type Camera } from './camera';
import type { DrawPlan } from './drawPlan';
import { CELL_HEIGHT, CELL_WIDTH, FEET_IN_CELL, type Point, type Rect, type Size, type WorldLayout } from './layout';

/** World pixels around the visible floor within which agents still count as on screen (a spotlit plate is wider). */
const CULL_MARGIN = 64;

/** What the camera moves and culls: the scene's layers, its agents and desks, and the plan of what to draw again. */
export interface CameraScene {
  readonly root: Container;
  readonly backdrop: Backdrop;
  readonly plan: DrawPlan;
  readonly agentViews: ReadonlyMap<string, AgentView>;
  readonly positions: ReadonlyMap<string, Point>;
  readonly desks: ReadonlyMap<string, Sprite>;
  readonly layout: WorldLayout;
}

/** The camera of one world scene. */
export class WorldCamera {
  camera: Camera = { offsetX: 0, offsetY: 0, zoom: 1 };
  /** True until the owner pans or zooms: until then the floor is refitted whenever it or the window changes. */
  autoFit = true;
  /** Told of every new camera (layers outside the scene that move with it, such as the envelopes). */
  onCamera: ((camera: Camera) => void) | null = null;
  /** The window the scene is shown in, in canvas pixels. */
  viewport: Size = { width: 0, height: 0 };
  /** The visible part of the floor in world pixels, widened by CULL_MARGIN (agents outside it are culled). */
  private readonly visible: Rect = { x: 0, y: 0, width: 0, height: 0 };

  /** `rescale` is told of a new zoom before the scene moves (plates and signs are drawn at the zoom's text scale). */
  constructor(
    private readonly scene: CameraScene,
    private readonly rescale: (zoom: number) => void,
  ) {}

  /** Applies a camera to the WebGL scene and the backdrop alike. */
  set(camera: Camera): void {
    const previous = this.camera;
    if (camera.zoom === previous.zoom && camera.offsetX === previous.offsetX && camera.offsetY === previous.offsetY && this.visible.width > 0) return;
    const zoomed = camera.zoom !== previous.zoom;
    this.camera = camera;
    if (zoomed) this.rescale(camera.zoom);
    const { root, backdrop, plan } = this.scene;
    root.position.set(camera.offsetX, camera.offsetY);
    root.scale.set(camera.zoom);
    backdrop.place(camera);
    this.onCamera?.(camera);
    this.cull();
    plan.markFull();
  }

  /** Applies a camera the owner chose (pan or zoom): the view stops refitting itself. */
  move(camera: Camera): void {
    this.autoFit = false;
    this.set(camera);
  }

  /** A world point in canvas pixels. */
  toCanvas(point: Point): Point {
    return toScreen(this.camera, point);
  }

  /** Culls the agents and desks outside the visible floor (with a margin): they are neither drawn nor animated. */
  cull(): void {
    const { camera, viewport, visible } = this;
    if (viewport.width <= 0) return;
    visible.x = -camera.offsetX / camera.zoom - CULL_MARGIN;
    visible.y = -camera.offsetY / camera.zoom - CULL_MARGIN;
    visible.width = viewport.width / camera.zoom + CULL_MARGIN * 2;
    visible.height = viewport.height / camera.zoom + CULL_MARGIN * 2;
    const { agentViews, positions, desks, layout } = this.scene;
    for (const [id, view] of agentViews) {
      const feet = positions.get(id);
      view.culled = feet !== undefined && this.offScreen(feet);
      const desk = desks.get(id);
      const slot = layout.agents.get(id);
      if (desk && slot) desk.culled = this.offScreen(slot);
    }
  }

  /** True when an agent's work place around its feet is outside the visible floor (it is culled). */
  offScreen(feet: Point): boolean {
    const { visible } = this;
    if (visible.width <= 0) return false;
    const left = feet.x - CELL_WIDTH / 2;
    const top = feet.y - FEET_IN_CELL;
    return left >= visible.x + visible.width || left + CELL_WIDTH <= visible.x || top >= visible.y + visible.height || top + CELL_HEIGHT <= visible.y;
  }
}
