/**
 * The scene in retained mode: station and agent views reconciled by id from the world model, and the per-frame
 * animation (sprite cadence 10 fps, walking, fading under reduced motion). The still floor and stations are
 * painted into the backdrop only when they change; the WebGL stage holds the agents and the hover/drop highlights.
 * The scene says when it must be drawn again (`takeDraw`): only when something on screen changed, so an identical
 * frame is never drawn twice. Agents off screen are culled: they are not drawn and their sprites do not animate.
 * The camera (pan, zoom, fit, culling) is worldCamera.ts; what input marks on it (focus, hover, drop) worldInput.ts.
 */
import { Container, Sprite, type Renderer } from 'pixi.js';
import { AgentView } from './AgentView';
import { Backdrop } from './backdrop';
import { DepthOrder } from './depthOrder';
import { DrawPlan } from './drawPlan';
import { fitCamera, textScale, type Camera } from './camera';
import { LABEL_HEIGHT } from './labelPictures';
import { CELL_HEIGHT, CELL_WIDTH, DESK_BOX, deskBox, FEET_IN_CELL, HEADER_HEIGHT, layoutWorld, LOBBY_HEADER_HEIGHT, TOOLBAR_INSET, usableViewport, type Point, type Viewport, type WorldLayout } from './layout';
import { drawnAlike, type AgentModel, type StationModel, type WorldModel } from './model';
import { reconcile } from './reconcile';
import type { Sprites } from './sprites';
import { StationLabelView } from './StationLabelView';
import { Planks, TILE } from './planks';
import { StationView } from './StationView';
import { WorldCamera } from './worldCamera';
import { WorldInput } from './worldInput';
import { phaseFrames, phaseGroup } from './phase';

/** What the scene needs after a frame: keep moving smoothly, loop sprites slowly, or stop the ticker. */
export type Motion = 'moving' | 'looping' | 'idle';

/** Milliseconds per sprite frame (pixel-art cadence, 10 fps). */
export const SPRITE_FRAME_MS = 100;
/** Walking speed in world pixels per second. */
const WALK_SPEED = 90;
/** Milliseconds of each half of a reduced-motion fade. */
const FADE_MS = 160;

/** The desk sprite for a seat's harness (a plain desk when there is no seat). */
export function deskFrame(harness: AgentModel['harness']): string {
  return harness ? `desk_${harness}` : 'desk';
}

/** The world scene. */
export class World {
  /** The WebGL part of the scene: highlights and agents. */
  readonly root = new Container();
  /** The painted part: floor and stations. */
  readonly backdrop = new Backdrop();
  layout: WorldLayout = { width: 0, height: 0, zoom: 1, stations: new Map(), agents: new Map() };
  /** Current feet positions of the agents (animated), for hit tests and the page hook. */
  readonly positions = new Map<string, Point>();
  readonly agentViews = new Map<string, AgentView>();
  readonly stationViews = new Map<string, StationView>();
  readonly stationLabels = new Map<string, StationLabelView>();
  /** Each agent's desk at its work place (it stays there while the agent walks or is dragged). */
  readonly desks = new Map<string, Sprite>();
  reducedMotion = false;
  /** What changed on screen since the scene was last drawn (the drawer brings it up to date and starts it over). */
  readonly plan = new DrawPlan();
  /** The camera: pan, zoom, fit and culling. */
  readonly viewer = new WorldCamera(this, (zoom) => {
    for (const view of this.agentViews.values()) view.setZoom(zoom);
    this.updateStationLabels();
  });
  /** What input marks: focus, hover and the drop target. */
  readonly input = new WorldInput(this);
  private readonly scenery = new Container();
  /** The plank floor: one sprite cut from the planks picture. */
  private readonly floor = new Sprite();
  private readonly planks: Planks;
  private readonly stationLayer = new Container();
  private readonly agentLayer = new Container();
  private readonly labelLayer = new Container();
  /** The window the floor was last shaped for: it follows the window only while the view is fitted. */
  private layoutViewport: Viewport | null = null;
  private floorSize = '';
  private sceneryDirty = true;
  private model: WorldModel = { stations: [], agents: [] };
  private stationRecords = new Map<string, StationModel>();
  private agentRecords = new Map<string, AgentModel>();
  private clock = 0;
  /** Each phase group's sprite frame at this step (kept: the ticker allocates nothing per frame). */
  private readonly phaseFrames: number[] = [];
  /** The stations and who sits where, as last laid out: the floor is laid out again only when this changes. */
  private shape = '';
  /** A walker's next position, reused each frame (no allocation per walker per frame). */
  private readonly nextFeet: Point = { x: 0, y: 0 };
  /** Walkers' depth order against the things they overlap (a cell apart), so a step changes no zIndex it need not. */
  private readonly depth = new DepthOrder({ x: CELL_WIDTH, y: CELL_HEIGHT });
  /** Whether `depth` holds this step's agents and desks yet (filed at the first walker's step). */
  private depthFiled = false;

  constructor(private readonly sprites: Sprites) {
    this.planks = new Planks((name) => sprites.frame(name));
    this.agentLayer.sortableChildren = true;
    this.scenery.addChild(this.floor, this.stationLayer);
    this.root.addChild(this.input.overlay, this.labelLayer, this.agentLayer);
  }

  /**
   * Reconciles the views with a new model; only changed records touch their views. `jump` puts moved agents at their
   * new places at once instead of walking there (a jump in time: a seek on the timeline, a return to live).
   */
  sync(model: WorldModel, viewport: Viewport, jump = false): void {
    this.model = model;
    this.viewer.viewport = viewport;
    this.apply(false, jump);
  }

  /** Lays the floor out again for a new window size; agents jump to their new slots rather than walk. */
  resize(viewport: Viewport): void {
    this.viewer.viewport = viewport;
    this.apply(true);
  }

  /** Paints the floor and stations into the backdrop if they changed since the last paint; says whether it did. */
  paintScenery(renderer: Renderer): boolean {
    if (!this.sceneryDirty) return false;
    this.sceneryDirty = false;
    this.backdrop.paint(renderer, this.scenery, this.layout);
    return true;
  }


  private apply(snap: boolean, jump = false): void {
    const { model } = this;
    const viewport: Viewport = this.viewer.viewport;
    if (this.viewer.autoFit && viewport.width > 0) this.layoutViewport = viewport;
    const shape = `${this.layoutViewport?.width ?? 0}×${this.layoutViewport?.height ?? 0}↓${this.layoutViewport?.top ?? TOOLBAR_INSET}|${model.stations.map((station) => `${station.key}${station.lobby ? '*' : ''}`).join('\n')}|${model.agents.map((agent) => `${agent.id}@${agent.stationKey}`).join('\n')}`;
    // The floor is laid out again only when it can change: a station or an agent came, went or moved, or the window.
    const relaid = snap || shape !== this.shape;
    if (relaid) {
      this.shape = shape;
      this.layout = layoutWorld(model.stations, model.agents, this.layoutViewport ? usableViewport(this.layoutViewport) : undefined);
      this.layFloor();
    }
    const stations = reconcile(this.stationRecords, model.stations, (station) => station.key);
    for (const key of stations.removed) {
      this.stationViews.get(key)?.destroy({ children: true });
      this.stationViews.delete(key);
      this.stationLabels.get(key)?.destroy({ children: true });
      this.stationLabels.delete(key);
      this.sceneryDirty = true;
    }
    stations.records.forEach((record, index) => {
      let view = this.stationViews.get(record.key);
      if (!view) {
        view = new StationView(this.sprites, index, record.lobby);
        this.stationViews.set(record.key, view);
        this.stationLayer.addChild(view);
      }
      if (view.update(record, this.layout.stations.get(record.key)!)) this.sceneryDirty = true;
      let label = this.stationLabels.get(record.key);
      if (!label) {
        label = new StationLabelView(this.sprites.labels);
        this.stationLabels.set(record.key, label);
        this.labelLayer.addChild(label);
      }
    });
    this.stationRecords = new Map(stations.records.map((record) => [record.key, record]));

    const agents = reconcile(this.agentRecords, model.agents, (agent) => agent.id);
    for (const id of agents.removed) {
      this.agentViews.get(id)?.destroy({ children: true });
      this.agentViews.delete(id);
      this.positions.delete(id);
      this.desks.get(id)?.destroy();
      this.desks.delete(id);
    }
    if (agents.removed.length > 0 || stations.removed.length > 0) this.plan.markFull();
    for (const record of agents.records) {
      let view = this.agentViews.get(record.id);
      const fresh = !view;
      if (!view) {
        view = new AgentView(this.sprites);
        view.phase = phaseGroup(record.id);
        this.agentViews.set(record.id, view);
        this.agentLayer.addChild(view);
        if (record.id === this.input.focused) view.setFocused(true);
        view.setZoom(this.camera.zoom);
      }
      const changed = view.record !== record;
      // A record changed only in what the world does not draw asks for no pixel (see drawnAlike).
      const redrawn = changed && (view.record === null || !drawnAlike(view.record, record));
      if (changed) view.update(record);
      // An unchanged agent on an unchanged floor keeps its place, desk and plate.
      if (!relaid && !changed && !fresh) continue;
      // A changed record shows only inside the agent's work place (a spotlit plate reaches beyond it).
      if (redrawn && !view.culled) {
        const feet = this.positions.get(record.id);
        if (feet && !view.spotlit) this.moved(view, feet);
        else this.plan.markFull();
      }
      view.setNameRoom((this.layout.stations.get(record.stationKey)?.pitch ?? CELL_WIDTH) - 2);
      this.retarget(record.id, view, this.layout.agents.get(record.id)!, snap || jump);
      this.placeDesk(record, this.layout.agents.get(record.id)!);
    }
    this.agentRecords = new Map(agents.records.map((record) => [record.id, record]));
    if (this.viewer.autoFit && viewport.width > 0) this.viewer.set(fitCamera(this.layout, viewport, viewport.top ?? TOOLBAR_INSET));
    this.updateStationLabels();
    if (relaid) {
      this.input.drawOverlay();
      this.viewer.cull();
      this.plan.markFull();
    }
  }

  /** Brings every station's sign and count in line with its record, layout and the zoom; a changed header is drawn again. */
  private updateStationLabels(): void {
    const zoom = this.camera.zoom;
    const scale = textScale(zoom) / zoom;
    for (const [key, label] of this.stationLabels) {
      const record = this.stationRecords.get(key);
      const placed = this.layout.stations.get(key);
      if (!record || !placed || !label.update(record, placed, zoom)) continue;
      // The sign and the board count stay in the header (a sign at a small zoom may reach a little below it).
      const header = record.lobby ? LOBBY_HEADER_HEIGHT : HEADER_HEIGHT;
      this.plan.region(placed.rect.x, placed.rect.y, placed.rect.width, Math.max(header, placed.sign.y - placed.rect.y + LABEL_HEIGHT * scale + 1));
    }
  }

  /**
   * Puts an agent's desk at its work place, marked with its harness. Desks share the agents' layer and sort by depth
   * just in front of the feet of their own row, so a seated character is behind its desk and the row below in front.
   */
  private placeDesk(record: AgentModel, slot: Point): void {
    let desk = this.desks.get(record.id);
    if (!desk) {
      desk = new Sprite();
      this.desks.set(record.id, desk);
      this.agentLayer.addChild(desk);
    }
    const texture = this.sprites.frame(deskFrame(record.harness));
    const box = deskBox(slot);
    if (desk.texture === texture && desk.position.x === box.x && desk.position.y === box.y) return;
    desk.texture = texture;
    desk.position.set(box.x, box.y);
    desk.zIndex = slot.y + 0.5;
    desk.culled = this.viewer.offScreen(slot);
    if (!desk.culled) this.plan.region(slot.x - CELL_WIDTH / 2, slot.y - FEET_IN_CELL, CELL_WIDTH, CELL_HEIGHT);
  }

  /** Covers the floor with planks when its size changed. */
  private layFloor(): void {
    const columns = Math.ceil(this.layout.width / TILE);
    const rows = Math.ceil(this.layout.height / TILE);
    const size = `${columns}×${rows}`;
    if (size === this.floorSize) return;
    this.floorSize = size;
    this.sceneryDirty = true;
    this.floor.texture = this.planks.texture(columns, rows);
  }

  /** Points an agent at its slot: placed at once the first time, then walking (or fading) there. */
  private retarget(id: string, view: AgentView, target: Point, snap = false): void {
    view.target = target;
    if (!view.placed || (snap && !view.dragging)) {
      view.placed = true;
      view.fading = null;
      view.alpha = 1;
      this.moveTo(id, view, target);
      return;
    }
    const current = this.positions.get(id)!;
    if (this.reducedMotion && !view.dragging && (current.x !== target.x || current.y !== target.y)) view.fading ??= 'out';
  }

  /** Notes that an agent's work place around its feet must be drawn again (when it is on screen). */
  private moved(view: AgentView, feet: Point): void {
    if (!view.culled) this.plan.region(feet.x - CELL_WIDTH / 2, feet.y - FEET_IN_CELL, CELL_WIDTH, CELL_HEIGHT);
  }

  /**
   * Puts an agent's feet at a point (copied: the agent owns its position and moves it in place while walking). A step
   * of a walk keeps the walker's depth while that still orders it right against what it overlaps (see depthOrder.ts);
   * anything else puts it at its feet.
   */
  private moveTo(id: string, view: AgentView, point: Point, walking = false): void {
    let feet = this.positions.get(id);
    if (!feet) {
      feet = { x: point.x, y: point.y };
      this.positions.set(id, feet);
    } else {
      feet.x = point.x;
      feet.y = point.y;
    }
    const x = Math.round(point.x);
    const y = Math.round(point.y);
    if (x !== view.position.x || y !== view.position.y) {
      view.position.set(x, y);
      view.snapLabels();
      const culled = this.viewer.offScreen(feet);
      if (view.culled !== culled) view.culled = culled;
    }
    if (view.spotlit) view.zIndex = 1_000_000;
    else if (walking) this.fileDepth().settle(view, x, y);
    else view.zIndex = y;
  }

  /** The depth order with this step's agents (at their drawn feet) and desks filed, once per step. */
  private fileDepth(): DepthOrder {
    if (this.depthFiled) return this.depth;
    this.depthFiled = true;
    this.depth.begin();
    for (const view of this.agentViews.values()) if (!view.spotlit) this.depth.add(view, view.position.x, view.position.y);
    for (const desk of this.desks.values()) this.depth.add(desk, desk.position.x - DESK_BOX.x, desk.zIndex);
    return this.depth;
  }

  /** Moves a dragged agent's feet to a world point. */
  drag(id: string, point: Point): void {
    const view = this.agentViews.get(id);
    if (!view) return;
    this.moveTo(id, view, point);
    this.plan.markFull();
  }

  /** Ends a drag: the agent walks (or fades) to its slot, wherever the store now places it. */
  release(id: string): void {
    const view = this.agentViews.get(id);
    const slot = this.layout.agents.get(id);
    if (!view || !slot) return;
    view.dragging = false;
    this.retarget(id, view, slot);
  }

  /** The camera as it is now. */
  get camera(): Camera {
    return this.viewer.camera;
  }

  /** Applies a camera the owner chose (pan or zoom): the view stops refitting itself. */
  moveCamera(camera: Camera): void {
    this.viewer.move(camera);
  }

  /** Shows the whole floor ("fit all"), shaped for this window at the largest crisp zoom, and keeps it fitted. */
  fit(viewport: Viewport): void {
    this.viewer.autoFit = true;
    this.viewer.viewport = viewport;
    this.apply(false);
  }

  /** A world point in canvas pixels. */
  toCanvas(point: Point): Point {
    return this.viewer.toCanvas(point);
  }

  /**
   * Advances animation by `deltaMs`; says whether anything still moves. Sprite frames of culled agents stand still
   * (they catch up when they come on screen); their walks go on, so they arrive where the layout wants them.
   */
  animate(deltaMs: number): Motion {
    this.clock += deltaMs;
    const frames = phaseFrames(this.clock, SPRITE_FRAME_MS, this.phaseFrames);
    let motion: Motion = 'idle';
    this.depthFiled = false;
    for (const [id, view] of this.agentViews) {
      const target = view.target;
      const current = this.positions.get(id);
      if (!target || !current || view.dragging) continue;
      if (view.fading === 'out') {
        this.moved(view, current);
        view.alpha = Math.max(0, view.alpha - deltaMs / FADE_MS);
        if (view.alpha === 0) {
          this.moveTo(id, view, target);
          this.moved(view, current);
          view.fading = 'in';
        }
        motion = 'moving';
      } else if (view.fading === 'in') {
        this.moved(view, current);
        view.alpha = Math.min(1, view.alpha + deltaMs / FADE_MS);
        if (view.alpha === 1) view.fading = null;
        motion = 'moving';
      } else if (current.x !== target.x || current.y !== target.y) {
        // Where it was, then where it is: both are drawn again (positions are moved in place).
        this.moved(view, current);
        const step = (WALK_SPEED * deltaMs) / 1000;
        const dx = target.x - current.x;
        const dy = target.y - current.y;
        const distance = Math.hypot(dx, dy);
        if (distance <= step) this.moveTo(id, view, target);
        else {
          const next = this.nextFeet;
          next.x = current.x + (dx / distance) * step;
          next.y = current.y + (dy / distance) * step;
          this.moveTo(id, view, next, true);
        }
        if (!view.culled) view.animate('walk', frames[view.phase]);
        this.moved(view, current);
        motion = 'moving';
      } else if (!view.culled) {
        const pose = view.restingPose(this.reducedMotion);
        if (view.animate(pose, pose === 'work' ? frames[view.phase] : 0)) {
          this.plan.seat(view);
        }
        if (pose === 'work' && motion === 'idle') motion = 'looping';
      }
    }
    return motion;
  }
}
