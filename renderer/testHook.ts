/**
 * The page's hook for tests and tools (`window.__pixelfleet`): the store, where things are on screen, what the scene
 * shows and how it was drawn. The e2e specs and the bench read the page only through it, so its names and shapes hold.
 */
import { RendererType, type Application } from 'pixi.js';
import { historyHook, type HistoryHook } from './history/pageHistory';
import type { UsageHud } from './panels/usageHud';
import type { AppState } from './store/appState';
import type { AppStore } from './store/createAppStore';
import type { EnvelopeLayer } from './world/EnvelopeLayer';
import type { FrameLoop } from './world/frameLoop';
import type { WorldContext } from './world/glContext';
import { contextBars, labelRects, seating, type ContextBarReadout, type LabelRect, type SeatingRect } from './world/readout';
import type { SceneDrawer } from './world/SceneDrawer';
import type { World } from './world/World';

/** The page hook's shape. */
export interface PageHook {
  state(): Omit<AppState, 'actions'>;
  actions: AppState['actions'];
  screenPosition(kind: 'agent' | 'station', id: string): { x: number; y: number } | null;
  renderer: 'webgl' | 'webgpu' | 'canvas' | 'unknown';
  rendererName: string;
  /** True when the world's canvas is a low-latency (desynchronized) context, as it is where WebGL runs in software. */
  desynchronized: boolean;
  ticker(): { running: boolean; frames: number };
  /** The speech bubble each agent shows (null: none), by persona id. */
  bubbles(): Record<string, string | null>;
  /** The pose each agent shows ('stand', 'work', 'walk', or 'rest' for an idle agent), by persona id. */
  poses(): Record<string, string>;
  /** The unknown record kinds each agent's drift mark stands for (null: no mark shown), by persona id (issue 29). */
  drift(): Record<string, string[] | null>;
  /**
   * The camera, the floor's size in world pixels, how often the backdrop was painted, and how many frames were drawn
   * whole and in part (for tests and the bench).
   */
  view(): { zoom: number; offsetX: number; offsetY: number; width: number; height: number; paints: number; draws: { full: number; partial: number } };
  /** Pixels in which the canvas as drawn so far differs from the same scene drawn whole now (0 when drawing in part is exact). */
  redrawDifference(): number;
  /** Messages between agents as envelopes: walking ones with their screen position, then the last delivered. */
  envelopes(): PageEnvelope[];
  /** Every visible label's rectangle in page pixels (station signs and counts, name plates, badges, bubbles). */
  labels(): LabelRect[];
  /** Each agent at its desk in page pixels: feet, desk, harness, activity, pose and the sprite frame shown. */
  seating(): SeatingRect[];
  /** The context bar each agent shows (level calm, warning, alarm or unknown; whole percent and fill), by persona id. */
  contextBars(): Record<string, ContextBarReadout>;
  /** The fleet HUD line's text (tokens and cost today and for open seats), or null before the fleet is read. */
  usageHud(): string | null;
  /** The timeline and the away digest: open or not, live or past, the moment shown, the away entries (issue 27). */
  history(): HistoryHook;
  /** As if the window had been away `minutes` minutes and came back now (the away digest, without the wait). */
  simulateAway(minutes: number): Promise<void>;
}

/** An envelope as the page hook reports it (labels only). */
export interface PageEnvelope {
  id: string;
  from: string;
  to: string;
  fromPersonaId: string | null;
  toPersonaId: string | null;
  summary: string | null;
  walks: boolean;
  progress: number;
  screen: { x: number; y: number } | null;
}

/** The parts of the booted page the hook reads. */
export interface PageParts {
  store: AppStore;
  app: Application;
  world: World;
  drawer: SceneDrawer;
  envelopes: EnvelopeLayer;
  loop: FrameLoop;
  usageHud: UsageHud;
  worldContext: WorldContext | null;
  /** Applies the latest snapshot now, so a caller asking between a snapshot and its frame sees the latest state. */
  flush: () => void;
}

function rendererKind(type: number): PageHook['renderer'] {
  if (type === RendererType.WEBGL) return 'webgl';
  if (type === RendererType.WEBGPU) return 'webgpu';
  if (type === RendererType.CANVAS) return 'canvas';
  return 'unknown';
}

/** Puts the hook on `window.__pixelfleet`. */
export function installPageHook(parts: PageParts): void {
  const { store, app, world, drawer, envelopes, loop, usageHud, worldContext, flush } = parts;
  const { actions } = store.getState();
  const hook: PageHook = {
    state() {
      const { actions: _actions, ...rest } = store.getState();
      return rest;
    },
    actions,
    screenPosition(kind, id) {
      // A caller may ask between a snapshot and the frame that applies it: answer from the latest state.
      flush();
      const bounds = app.canvas.getBoundingClientRect();
      let point: { x: number; y: number } | undefined;
      if (kind === 'agent') {
        const feet = world.positions.get(id);
        point = feet && { x: feet.x, y: feet.y - 13 };
      } else {
        const rect = world.layout.stations.get(id)?.rect;
        point = rect && { x: rect.x + rect.width / 2, y: rect.y + rect.height - 12 };
      }
      if (!point) return null;
      const screen = world.toCanvas(point);
      return { x: Math.round(bounds.left + screen.x), y: Math.round(bounds.top + screen.y) };
    },
    renderer: rendererKind(app.renderer.type),
    rendererName: app.renderer.name,
    desynchronized: worldContext?.desynchronized ?? false,
    ticker: () => loop.state,
    bubbles: () => {
      flush();
      return Object.fromEntries([...world.agentViews].map(([id, view]) => [id, view.bubble.kind]));
    },
    poses: () => {
      flush();
      return Object.fromEntries([...world.agentViews].map(([id, view]) => [id, view.shownPose]));
    },
    drift: () => {
      flush();
      return Object.fromEntries([...world.agentViews].map(([id, view]) => [id, view.driftMark.visible ? view.driftMark.kinds : null]));
    },
    view: () => ({ ...world.camera, width: world.layout.width, height: world.layout.height, paints: world.backdrop.paints, draws: { ...drawer.counts } }),
    redrawDifference: () => {
      flush();
      return drawer.differenceFromWhole(world.plan, world.camera);
    },
    envelopes() {
      envelopes.advance();
      const bounds = app.canvas.getBoundingClientRect();
      return [...envelopes.tracker.walking, ...envelopes.tracker.delivered].map((envelope) => {
        const point = envelopes.pointOf(envelope);
        const screen = point && world.toCanvas(point);
        return {
          id: envelope.id,
          from: envelope.from,
          to: envelope.to,
          fromPersonaId: envelope.fromPersonaId,
          toPersonaId: envelope.toPersonaId,
          summary: envelope.summary,
          walks: envelope.walks,
          progress: envelope.progress,
          screen: screen && { x: Math.round(bounds.left + screen.x), y: Math.round(bounds.top + screen.y) },
        };
      });
    },
    labels: () => {
      flush();
      const bounds = app.canvas.getBoundingClientRect();
      return labelRects(world).map((rect) => ({ ...rect, x: rect.x + bounds.left, y: rect.y + bounds.top }));
    },
    seating: () => {
      flush();
      const bounds = app.canvas.getBoundingClientRect();
      return seating(world).map((seat) => ({
        ...seat,
        feet: { x: seat.feet.x + bounds.left, y: seat.feet.y + bounds.top },
        desk: { ...seat.desk, x: seat.desk.x + bounds.left, y: seat.desk.y + bounds.top },
      }));
    },
    contextBars: () => {
      flush();
      return contextBars(world);
    },
    usageHud: () => (usageHud.root.hidden ? null : usageHud.root.textContent),
    history: () => historyHook(store.getState()),
    simulateAway: (minutes) => store.getState().actions.simulateAway(minutes),
  };
  (window as unknown as { __pixelfleet: PageHook }).__pixelfleet = hook;
}
