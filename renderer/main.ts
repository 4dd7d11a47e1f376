/**
 * Boots the page: connects the bridge, creates the store, starts PixiJS (WebGL, canvas as the fallback), draws the
 * world and the DOM panels, and exposes `window.__pixelfleet` for tests and tools.
 */
// Pixi otherwise compiles shaders and uniform uploads with `new Function`, which the page's CSP forbids.
import 'pixi.js/unsafe-eval';
import { Application, RendererType, Ticker } from 'pixi.js';
import { connectBridge } from './connect';
import { attachConnectionLine } from './panels/connection';
import { createMessages, createBacklogPanel, createToolbar } from './panels/panels';
import { HoverCard, hoverCardFacts } from './panels/hoverCard';
import { LobbyPanel } from './panels/lobby';
import { createToast } from './panels/toast';
import { Mirror } from './panels/mirror';
import { JobsBoard } from './panels/jobs';
import { UsageHud } from './panels/usageHud';
import { attachNotifications } from './panels/notifications';
import { QueueStrip } from './panels/queue';
import { attachUiScale } from './panels/uiScale';
import { centredCamera } from './world/camera';
import { createEmptyHint, createNotices } from './panels/notices';
import { LaunchPanel } from './panels/launchPanel';
import { PickerPanel } from './panels/picker';
import { launchAction, profileAction, type StationAction } from './panels/stationActions';
import { ProfilePanel } from './panels/profilePanel';
import { StationMenu } from './panels/stationMenu';
import { TrayPanel } from './panels/tray';
import { Timeline, TIMELINE_INSET } from './panels/timeline';
import { AwayPanel } from './panels/awayPanel';
import { attachAway, historyHook, type HistoryHook } from './history/pageHistory';
import type { AppState } from './store/appState';
import { createAppStore, describeFailure } from './store/createAppStore';
import { inPast, shownFleet, shownNowMs } from './store/historyActions';
import { FrameLoop } from './world/frameLoop';
import { panBy } from './world/camera';
import { attachInput } from './world/input';
import { EnvelopeLayer } from './world/EnvelopeLayer';
import { SceneDrawer } from './world/SceneDrawer';
import { AgentModelCache, selectWorld } from './world/model';
import { Portraits } from './world/portrait';
import { loadSprites } from './world/sprites';
import { contextBars, labelRects, seating, type ContextBarReadout, type LabelRect, type SeatingRect } from './world/readout';
import { World } from './world/World';
import { createWorldContext } from './world/glContext';
import './style.css';

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

/** Milliseconds between refreshes of the queue's waiting times. */
const QUEUE_TICK_MS = 5000;

/** Milliseconds between applying snapshots while the page is hidden (no animation frames run then). */
const HIDDEN_SYNC_MS = 250;

function rendererKind(type: number): PageHook['renderer'] {
  if (type === RendererType.WEBGL) return 'webgl';
  if (type === RendererType.WEBGPU) return 'webgpu';
  if (type === RendererType.CANVAS) return 'canvas';
  return 'unknown';
}

async function boot(host: HTMLElement): Promise<void> {
  attachUiScale();
  const bridge = await connectBridge();
  const store = createAppStore({ bridge });
  attachConnectionLine(bridge, document.body);
  const { actions } = store.getState();
  const motionQuery = matchMedia('(prefers-reduced-motion: reduce)');
  actions.setReducedMotion(motionQuery.matches);
  motionQuery.addEventListener('change', () => actions.setReducedMotion(motionQuery.matches));

  const [sprites] = await Promise.all([loadSprites(), actions.load()]);
  const app = new Application();
  const worldContext = createWorldContext();
  await app.init({
    ...(worldContext ? { canvas: worldContext.canvas, context: worldContext.context } : {}),
    preference: ['webgl', 'canvas'],
    width: host.clientWidth || innerWidth,
    height: host.clientHeight || innerHeight,
    // Transparent: the floor is the backdrop canvas underneath (see world/backdrop.ts).
    backgroundAlpha: 0,
    // Kept between frames: a frame that changed little draws only that (see world/SceneDrawer.ts).
    preserveDrawingBuffer: true,
    antialias: false,
    roundPixels: true,
    autoStart: false,
    sharedTicker: false,
  });
  // Pixel art from a few atlases (characters, labels, the sheet, Graphics' white): a shader that picks among 4
  // textures, not the 32 the GPU allows, so each pixel software WebGL shades costs a quarter as much (issue 17).
  app.renderer.limits.maxBatchableTextures = 4;
  // The frame loop draws, and only when something on screen changed: not the application's own render every tick.
  app.ticker.remove(app.render, app);
  const world = new World(sprites);
  host.append(world.backdrop.canvas, app.canvas);
  app.canvas.tabIndex = 0;
  app.canvas.setAttribute('aria-hidden', 'true');

  const envelopes = new EnvelopeLayer(world.positions);
  host.append(envelopes.root);
  world.onCamera = (camera) => envelopes.place(camera);
  envelopes.place(world.camera);
  app.stage.addChild(world.root);
  app.ticker.stop();
  const drawer = new SceneDrawer(app.renderer, app.stage, [sprites.looks, sprites.labels]);
  const loop = new FrameLoop(
    (deltaMs) => world.animate(deltaMs),
    () => {
      world.paintScenery(app.renderer);
      return drawer.draw(world.plan, world.camera);
    },
  );
  // Pixi's system ticker only drives its pointer-over check for its own event system, which the world does not use
  // (input hit-tests the pure layout): left running it asks for an animation frame 60 times a second while anything
  // moves, and each costs the page a main-frame update even when nothing is drawn.
  Ticker.system.autoStart = false;
  Ticker.system.stop();
  /** A change to show: drawn in the next animation frame, and the loop runs while anything then moves. */
  const redraw = () => {
    loop.wake();
    loop.requestDraw();
  };
  /** Pixels the timeline bar takes at the bottom while it is open: the floor is fitted above it. */
  let timelineInset = 0;
  const viewport = () => ({ width: app.screen.width, height: app.screen.height - timelineInset });
  const mirror = new Mirror(store);
  const tray = new TrayPanel(store);
  const agentBox = (id: string) => {
    const feet = world.positions.get(id);
    if (!feet) return null;
    const bounds = app.canvas.getBoundingClientRect();
    // The character with its badge and name plate, in world pixels around the feet.
    const topLeft = world.toCanvas({ x: feet.x - 12, y: feet.y - 44 });
    const bottomRight = world.toCanvas({ x: feet.x + 12, y: feet.y + 10 });
    return { x: bounds.left + topLeft.x, y: bounds.top + topLeft.y, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y };
  };
  // The card follows the pointer's agent, else the agent whose mirror button has keyboard focus.
  const card = new HoverCard();
  const placeCard = () => {
    const active = document.activeElement as HTMLElement | null;
    const focusedAgent = active && mirror.root.contains(active) ? (active.dataset.agent ?? null) : null;
    const id = world.hovered ?? focusedAgent;
    if (id === null) return card.hide();
    card.show(hoverCardFacts(shownFleet(store.getState()), id, shownNowMs(store.getState())), agentBox(id));
  };
  mirror.root.addEventListener('focusin', () => requestAnimationFrame(placeCard));
  mirror.root.addEventListener('focusout', () => setTimeout(placeCard, 0));
  tray.attachWorld({
    agentBox,
    pan(deltaX, deltaY) {
      world.moveCamera(panBy(world.camera, deltaX, deltaY));
      redraw();
    },
  });
  const picker = new PickerPanel(store);
  // The station menu's actions, in order; another action joins by adding an entry here.
  const stationActions: StationAction[] = [
    launchAction((station) => void actions.openLaunch(station.key, station.label)),
    profileAction((station) => void actions.openProfile(station.key, station.label)),
  ];
  const stationMenu = new StationMenu(store, stationActions, (key) => {
    const record = world.stationViews.get(key)?.record;
    return record ? { key: record.key, label: record.label, lobby: record.lobby } : null;
  });
  const launchPanel = new LaunchPanel(store);
  const profilePanel = new ProfilePanel(store);
  // Picking an agent from the needs-you queue (or a notification): focus it, centre the view on it, open its tray.
  const pickAgent = (personaId: string) => {
    flush();
    const feet = world.positions.get(personaId);
    if (feet) world.moveCamera(centredCamera(world.camera, feet, viewport()));
    actions.focus(personaId);
    actions.openTray(personaId);
    redraw();
  };
  const portraits = new Portraits(sprites.art);
  const queue = new QueueStrip(pickAgent, (look) => portraits.url(look), () => shownNowMs(store.getState()));
  // A job's parent link does what picking from the queue does: focus, centre, open the tray.
  const jobsBoard = new JobsBoard(store, pickAgent);
  const usageHud = new UsageHud(store);
  setInterval(() => {
    queue.tick();
    if (card.shown !== null) placeCard();
  }, QUEUE_TICK_MS);
  attachNotifications({ bridge, pick: pickAgent });
  const timeline = new Timeline(store);
  attachAway(store);
  store.subscribe((state, previous) => {
    if (state.history.timelineOpen === previous.history.timelineOpen) return;
    timelineInset = state.history.timelineOpen ? TIMELINE_INSET : 0;
    world.resize(viewport());
    tray.place();
    redraw();
  });
  host.after(
    queue.root,
    mirror.root,
    createToolbar(store, () => {
      world.fit(viewport());
      redraw();
    }),
    tray.root,
    card.root,
    picker.root,
    stationMenu.root,
    launchPanel.root,
    profilePanel.root,
    createBacklogPanel(store),
    new LobbyPanel(store).root,
    jobsBoard.root,
    createMessages(store),
    createToast(store),
    createNotices(store),
    createEmptyHint(store, bridge),
    usageHud.root,
    timeline.root,
    timeline.banner,
    new AwayPanel(store, pickAgent).root,
  );

  const NO_PENDING: AppState['ui']['pending'] = {};
  let shownPast = false;
  // Unchanged agents keep their records from snapshot to snapshot, so the world and the mirror skip them.
  const agentModels = new AgentModelCache();
  let shown: Pick<AppState, 'fleet' | 'ui'> | null = null;
  const render = (live: AppState) => {
    // The world draws the moment the timeline shows, else now; the live fleet keeps changing underneath meanwhile.
    const past = inPast(live);
    const state = past ? { ...live, fleet: shownFleet(live), ui: { ...live.ui, pending: NO_PENDING } } : live;
    if (!shown || state.fleet !== shown.fleet || state.ui.pending !== shown.ui.pending || state.ui.reducedMotion !== shown.ui.reducedMotion) {
      world.reducedMotion = state.ui.reducedMotion;
      const model = selectWorld(state, agentModels);
      // A jump in time (a seek, a return to live) puts everyone at their places at once; a live change walks.
      world.sync(model, viewport(), past !== shownPast || (past && state.fleet !== shown?.fleet));
      shownPast = past;
      mirror.sync(model);
      if (!shown || state.fleet !== shown.fleet) queue.sync(state.fleet);
      // Envelopes are live messages: they wait while the past is shown, and fly on (none again) back live.
      envelopes.root.hidden = past;
      if (!past) envelopes.sync(state.fleet?.teams, state.ui.reducedMotion, state.fleet?.messages);
      tray.place();
      if (card.shown !== null) placeCard();
      loop.wake();
    }
    if (!shown || state.ui.focused !== shown.ui.focused) {
      world.setFocused(state.ui.focused);
      loop.wake();
    }
    shown = { fleet: state.fleet, ui: state.ui };
  };
  // Snapshots can arrive many times a frame while the fleet churns: apply only the latest, once per animation frame
  // (a timer stands in while the page is hidden, so the mirror stays current without drawing).
  let scheduled = false;
  const flush = () => {
    if (!scheduled) return;
    scheduled = false;
    render(store.getState());
    // A change to a visible seat is on screen in this animation frame, not at the loop's next 10 fps tick.
    loop.drawNow();
  };
  store.subscribe(() => {
    if (scheduled) return;
    scheduled = true;
    if (document.hidden) setTimeout(flush, HIDDEN_SYNC_MS);
    else requestAnimationFrame(flush);
  });
  render(store.getState());
  attachInput(app.canvas, world, store, () => {
    redraw();
    tray.place();
    placeCard();
  });
  addEventListener('resize', () => {
    app.renderer.resize(host.clientWidth, host.clientHeight);
    flush();
    world.resize(viewport());
    tray.place();
    redraw();
  });

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

const host = document.getElementById('world')!;
boot(host).catch((error: unknown) => {
  const message = document.createElement('p');
  message.className = 'boot-error';
  message.textContent = `Pixelfleet could not start: ${describeFailure(error)}`;
  host.replaceChildren(message);
});
