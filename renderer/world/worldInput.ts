/**
 * What input marks on the scene: the focused agent, the agent under the pointer, the station or board it hovers, the
 * station an agent is dragged over (drawn as highlights), and the badges' hit rectangles. The listeners that set them
 * are in input.ts; the scene only shows them.
 */
import { Graphics } from 'pixi.js';
import type { AgentView } from './AgentView';
import { textScale, type Camera } from './camera';
import type { DrawPlan } from './drawPlan';
import { LABEL_BOXES, type Point, type Rect, type WorldLayout } from './layout';
import { accentOf, type StationView } from './StationView';

const HIGHLIGHT = 0xfff6dc;

/** What the pointer hovers: a station's zone or its backlog board. */
export interface Hover {
  kind: 'station' | 'board';
  key: string;
}

/** What the marks read of the scene. */
export interface MarkedScene {
  readonly agentViews: ReadonlyMap<string, AgentView>;
  readonly stationViews: ReadonlyMap<string, StationView>;
  readonly positions: ReadonlyMap<string, Point>;
  readonly layout: WorldLayout;
  readonly plan: DrawPlan;
  readonly camera: Camera;
}

/** The input marks of one world scene. */
export class WorldInput {
  /** The hover and drop highlights, drawn under the labels and agents. */
  readonly overlay = new Graphics();
  private focusedAgent: string | null = null;
  private hoveredAgent: string | null = null;
  private hover: Hover | null = null;
  private dropTarget: string | null = null;

  constructor(private readonly scene: MarkedScene) {}

  /** The focused agent, or null. */
  get focused(): string | null {
    return this.focusedAgent;
  }

  /** The agent under the pointer, or null. */
  get hovered(): string | null {
    return this.hoveredAgent;
  }

  /** Marks the focused agent. */
  setFocused(id: string | null): void {
    if (id === this.focusedAgent) return;
    const views = this.scene.agentViews;
    views.get(this.focusedAgent ?? '')?.setFocused(false);
    views.get(id ?? '')?.setFocused(true);
    this.focusedAgent = id;
    this.scene.plan.markFull();
  }

  /** Marks the agent under the pointer (null: none): it shows its whole name; says whether that changed. */
  setHoveredAgent(id: string | null): boolean {
    if (id === this.hoveredAgent) return false;
    const views = this.scene.agentViews;
    views.get(this.hoveredAgent ?? '')?.setHovered(false);
    views.get(id ?? '')?.setHovered(true);
    this.hoveredAgent = id;
    this.scene.plan.markFull();
    return true;
  }

  /** The badge's rectangle in world pixels, when the agent shows one. */
  badgeRect(id: string): Rect | null {
    const { agentViews, positions, camera } = this.scene;
    const view = agentViews.get(id);
    const feet = positions.get(id);
    if (!view || !feet || !view.badge.shown) return null;
    const scale = textScale(camera.zoom) / camera.zoom;
    return { x: feet.x + LABEL_BOXES.badge.x, y: feet.y + LABEL_BOXES.badge.y, width: view.badge.badgeWidth * scale, height: LABEL_BOXES.badge.height * scale };
  }

  /** Marks the station an agent is being dragged over (null: none). */
  setDropTarget(key: string | null): void {
    if (key === this.dropTarget) return;
    this.dropTarget = key;
    this.drawOverlay();
  }

  /** Marks what the pointer hovers (null: nothing); says whether that changed. */
  setHover(hover: Hover | null): boolean {
    if (hover?.kind === this.hover?.kind && hover?.key === this.hover?.key) return false;
    this.hover = hover;
    this.drawOverlay();
    return true;
  }

  /** Draws the drop and hover highlights for the current layout (again after the floor was laid out). */
  drawOverlay(): void {
    const { overlay } = this;
    const { layout, stationViews, plan } = this.scene;
    plan.markFull();
    overlay.clear();
    const outline = (rect: Rect, width: number, alpha: number) =>
      overlay.rect(rect.x, rect.y, rect.width, rect.height).stroke({ color: HIGHLIGHT, width, alpha, alignment: 1 });
    const drop = this.dropTarget === null ? undefined : layout.stations.get(this.dropTarget);
    if (drop) {
      const accent = stationViews.get(drop.key)?.accent ?? accentOf(0);
      overlay.rect(drop.rect.x, drop.rect.y, drop.rect.width, drop.rect.height).fill({ color: accent, alpha: 0.25 });
      outline(drop.rect, 2, 1);
    }
    const hovered = this.hover && layout.stations.get(this.hover.key);
    if (hovered && this.hover && hovered !== drop) {
      if (this.hover.kind === 'board') outline({ x: hovered.board.x - 1, y: hovered.board.y - 1, width: hovered.board.width + 2, height: hovered.board.height + 2 }, 1, 1);
      else outline(hovered.rect, 1, 0.55);
    }
  }
}
