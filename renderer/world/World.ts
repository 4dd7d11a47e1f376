/**
 * The scene in retained mode: station and agent views reconciled by id from the world model, a camera, and the
 * per-frame animation (sprite cadence 10 fps, walking, fading under reduced motion).
 */
import { Container, TilingSprite } from 'pixi.js';
import { AgentView } from './AgentView';
import { fitCamera, toScreen, type Camera } from './camera';
import { layoutWorld, type Point, type WorldLayout } from './layout';
import type { AgentModel, StationModel, WorldModel } from './model';
import { reconcile } from './reconcile';
import type { Sprites } from './sprites';
import { StationView } from './StationView';

/** What the scene needs after a frame: keep moving smoothly, loop sprites slowly, or stop the ticker. */
export type Motion = 'moving' | 'looping' | 'idle';

/** Milliseconds per sprite frame (pixel-art cadence, 10 fps). */
export const SPRITE_FRAME_MS = 100;
/** Walking speed in world pixels per second. */
const WALK_SPEED = 90;
/** Milliseconds of each half of a reduced-motion fade. */
const FADE_MS = 160;

/** The world scene. */
export class World {
  readonly root = new Container();
  layout: WorldLayout = { width: 0, height: 0, stations: new Map(), agents: new Map() };
  camera: Camera = { offsetX: 0, offsetY: 0, zoom: 1 };
  /** Current feet positions of the agents (animated), for hit tests and the page hook. */
  readonly positions = new Map<string, Point>();
  readonly agentViews = new Map<string, AgentView>();
  readonly stationViews = new Map<string, StationView>();
  reducedMotion = false;
  private readonly floor: TilingSprite;
  private readonly stationLayer = new Container();
  private readonly agentLayer = new Container();
  private stationRecords = new Map<string, StationModel>();
  private agentRecords = new Map<string, AgentModel>();
  private clock = 0;
  private focused: string | null = null;
  private fitted = false;

  constructor(private readonly sprites: Sprites) {
    this.floor = new TilingSprite({ texture: sprites.tile('floor_0'), width: 16, height: 16 });
    this.agentLayer.sortableChildren = true;
    this.root.addChild(this.floor, this.stationLayer, this.agentLayer);
  }

  /** Reconciles the views with a new model; only changed records touch their views. */
  sync(model: WorldModel, viewport: { width: number; height: number }): void {
    this.layout = layoutWorld(model.stations, model.agents);
    this.floor.width = this.layout.width;
    this.floor.height = this.layout.height;
    const stations = reconcile(this.stationRecords, model.stations, (station) => station.key);
    for (const key of stations.removed) {
      this.stationViews.get(key)?.destroy({ children: true });
      this.stationViews.delete(key);
    }
    stations.records.forEach((record, index) => {
      let view = this.stationViews.get(record.key);
      if (!view) {
        view = new StationView(this.sprites, index, record.lobby);
        this.stationViews.set(record.key, view);
        this.stationLayer.addChild(view);
      }
      view.update(record, this.layout.stations.get(record.key)!);
    });
    this.stationRecords = new Map(stations.records.map((record) => [record.key, record]));

    const agents = reconcile(this.agentRecords, model.agents, (agent) => agent.id);
    for (const id of agents.removed) {
      this.agentViews.get(id)?.destroy({ children: true });
      this.agentViews.delete(id);
      this.positions.delete(id);
    }
    for (const record of agents.records) {
      let view = this.agentViews.get(record.id);
      if (!view) {
        view = new AgentView(this.sprites);
        this.agentViews.set(record.id, view);
        this.agentLayer.addChild(view);
      }
      if (view.record !== record) view.update(record);
      this.retarget(record.id, view, this.layout.agents.get(record.id)!);
    }
    this.agentRecords = new Map(agents.records.map((record) => [record.id, record]));
    if (!this.fitted && viewport.width > 0) this.fit(viewport);
  }

  /** Points an agent at its slot: placed at once the first time, then walking (or fading) there. */
  private retarget(id: string, view: AgentView, target: Point): void {
    view.target = target;
    if (!view.placed) {
      view.placed = true;
      this.moveTo(id, view, target);
      return;
    }
    const current = this.positions.get(id)!;
    if (this.reducedMotion && !view.dragging && (current.x !== target.x || current.y !== target.y)) view.fading ??= 'out';
  }

  private moveTo(id: string, view: AgentView, point: Point): void {
    this.positions.set(id, point);
    view.position.set(Math.round(point.x), Math.round(point.y));
    view.zIndex = Math.round(point.y);
  }

  /** Moves a dragged agent's feet to a world point. */
  drag(id: string, point: Point): void {
    const view = this.agentViews.get(id);
    if (view) this.moveTo(id, view, point);
  }

  /** Ends a drag: the agent walks (or fades) to its slot, wherever the store now places it. */
  release(id: string): void {
    const view = this.agentViews.get(id);
    const slot = this.layout.agents.get(id);
    if (!view || !slot) return;
    view.dragging = false;
    this.retarget(id, view, slot);
  }

  /** Marks the focused agent. */
  setFocused(id: string | null): void {
    if (id === this.focused) return;
    this.agentViews.get(this.focused ?? '')?.setFocused(false);
    this.agentViews.get(id ?? '')?.setFocused(true);
    this.focused = id;
  }

  /** Applies a camera. */
  setCamera(camera: Camera): void {
    this.camera = camera;
    this.root.position.set(camera.offsetX, camera.offsetY);
    this.root.scale.set(camera.zoom);
  }

  /** Shows the whole floor ("fit all"). */
  fit(viewport: { width: number; height: number }): void {
    this.fitted = true;
    this.setCamera(fitCamera(this.layout, viewport));
  }

  /** A world point in canvas pixels. */
  toCanvas(point: Point): Point {
    return toScreen(this.camera, point);
  }

  /** Advances animation by `deltaMs`; says whether anything still moves. */
  animate(deltaMs: number): Motion {
    this.clock += deltaMs;
    const frame = Math.floor(this.clock / SPRITE_FRAME_MS) % 2;
    let motion: Motion = 'idle';
    for (const [id, view] of this.agentViews) {
      const target = view.target;
      const current = this.positions.get(id);
      if (!target || !current || view.dragging) continue;
      if (view.fading === 'out') {
        view.alpha = Math.max(0, view.alpha - deltaMs / FADE_MS);
        if (view.alpha === 0) {
          this.moveTo(id, view, target);
          view.fading = 'in';
        }
        motion = 'moving';
      } else if (view.fading === 'in') {
        view.alpha = Math.min(1, view.alpha + deltaMs / FADE_MS);
        if (view.alpha === 1) view.fading = null;
        motion = 'moving';
      } else if (current.x !== target.x || current.y !== target.y) {
        const step = (WALK_SPEED * deltaMs) / 1000;
        const dx = target.x - current.x;
        const dy = target.y - current.y;
        const distance = Math.hypot(dx, dy);
        const next = distance <= step ? target : { x: current.x + (dx / distance) * step, y: current.y + (dy / distance) * step };
        this.moveTo(id, view, next);
        view.animate('walk', frame);
        motion = 'moving';
      } else {
        const pose = view.restingPose(this.reducedMotion);
        view.animate(pose, pose === 'work' ? frame : 0);
        if (pose === 'work' && motion === 'idle') motion = 'looping';
      }
    }
    return motion;
  }
}
