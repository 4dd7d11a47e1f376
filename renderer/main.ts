/**
 * Boots the page: connects the bridge, creates the store, starts PixiJS (WebGL, canvas as the fallback), draws the
 * world and the DOM panels, and exposes `window.__pixelfleet` for tests and tools (see testHook.ts).
 */
// Pixi otherwise compiles shaders and uniform uploads with `new Function`, which the page's CSP forbids.
import 'pixi.js/unsafe-eval';
import { Application, autoDetectRenderer, Ticker } from 'pixi.js';
import { connectBridge } from './connect';
import { attachConnectionLine } from './panels/connection';
import { createMessages, createBacklogPanel, createToolbar } from './panels/panels';
import { HoverCard, hoverCardFacts } from './panels/hoverCard';
import { LobbyPanel } from './panels/lobby';
import { createToast } from './panels/toast';
import { Mirror } from './panels/mirror';
import { JobsBoard } from './panels/jobs';
import { UsageHud } from './panels/usageHud';
import { attachPacePanel } from './panels/pacePanel';
import { attachNotifications } from './panels/notifications';
import { QueueStrip } from './panels/queue';
import { attachUiScale } from './panels/uiScale';
import { centredCamera } from './world/camera';
import { createEmptyHint, createNotices } from './panels/notices';
import { followTopBand, STRIP_BAND } from './panels/topBand';
import { LaunchPanel } from './panels/launchPanel';
import { PickerPanel } from './panels/picker';
import { launchAction, profileAction, type StationAction } from './panels/stationActions';
import { ProfilePanel } from './panels/profilePanel';
import { StationMenu } from './panels/stationMenu';
import { TrayPanel } from './panels/tray';
import { ActRow } from './panels/actRow';
import { ReplyBox } from './panels/replyBox';
import { TerminalPanel } from './panels/terminalPanel';
import { TerminalActions } from './store/terminalActions';
import { Timeline, TIMELINE_INSET } from './panels/timeline';
import { AwayPanel } from './panels/awayPanel';
import { attachAway } from './history/pageHistory';
import type { AppState } from './store/appState';
import { createAppStore, describeFailure } from './store/createAppStore';
import { inPast, shownFleet, shownNowMs } from './store/historyActions';
import { FrameLoop } from './world/frameLoop';
import { panBy } from './world/camera';
import { attachInput } from './world/input';
import { attachCardDrop } from './world/cardDrop';
import { EnvelopeLayer } from './world/EnvelopeLayer';
import { SceneDrawer } from './world/SceneDrawer';
import { AgentModelCache, selectWorld } from './world/model';
import { Portraits } from './world/portrait';
import { loadSprites } from './world/sprites';
import { World } from './world/World';
import { createWorldContext } from './world/glContext';
import { installPageHook } from './testHook';
import './style.css';

/** Milliseconds between refreshes of the queue's waiting times. */
const QUEUE_TICK_MS = 5000;

/** Milliseconds between applying snapshots while the page is hidden (no animation frames run then). */
const HIDDEN_SYNC_MS = 250;

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
    // The world's input hit-tests the pure layout (world/input.ts): Pixi's own pointer events would walk the whole
    // scene on every pointer move for listeners nobody registered.
    eventMode: 'none',
    eventFeatures: { move: false, globalMove: false, click: false, wheel: false },
  });
  // Pixel art from a few atlases (characters, labels, the sheet, Graphics' white): a shader that picks among 4
  // textures, not the 32 the GPU allows, so each pixel software WebGL shades costs a quarter as much (issue 17).
  app.renderer.limits.maxBatchableTextures = 4;
  // The frame loop draws, and only when something on screen changed: not the application's own render every tick.
  app.ticker.remove(app.render, app);
  const world = new World(sprites);
  // The floor's own renderer, drawing on the CPU into the backdrop canvas (see world/backdrop.ts); the WebGL one where
  // Canvas 2D is not there.
  const sceneryRenderer = await autoDetectRenderer({
    preference: 'canvas',
    canvas: world.backdrop.canvas,
    width: 1,
    height: 1,
    resolution: 1,
    backgroundAlpha: 0,
    antialias: false,
    roundPixels: true,
    eventMode: 'none',
    eventFeatures: { move: false, globalMove: false, click: false, wheel: false },
  }).catch(() => app.renderer);
  host.append(world.backdrop.canvas, app.canvas);
  app.canvas.tabIndex = 0;
  app.canvas.setAttribute('aria-hidden', 'true');

  const envelopes = new EnvelopeLayer(world.positions);
  host.append(envelopes.root);
  world.viewer.onCamera = (camera) => envelopes.place(camera);
  envelopes.place(world.camera);
  app.stage.addChild(world.root);
  app.ticker.stop();
  const drawer = new SceneDrawer(app.renderer, app.stage, [sprites.looks, sprites.labels]);
  const loop = new FrameLoop(
    (deltaMs) => world.animate(deltaMs),
    () => {
      world.paintScenery(sceneryRenderer);
      return drawer.draw(world.plan, world.camera);
    },
  );
  // Pixi's system ticker only drives its pointer-over check for its own event system, which the world does not use
  // (input hit-tests the pure layout): left running it asks for an animation frame 60 times a second while anything
  // moves, and each costs the page a main-frame update even when nothing is drawn.
  Ticker.system.autoStart = false;
  Ticker.system.stop();
  /**
   * A change to show: drawn in the next animation frame, and the loop runs while anything then moves; a camera the
   * owner moved (`follow`) is drawn at the pointer's pace (see frameLoop.ts).
   */
  const redraw = (follow = false) => {
    loop.wake();
    loop.requestDraw(follow);
  };
  /** Pixels the timeline bar takes at the bottom while it is open: the floor is fitted above it. */
  let timelineInset = 0;
  /** Pixels the top band takes (the toolbar, the strip's rows, and the notices under them while any show): the floor is fitted below it. */
  let topBand = STRIP_BAND;
  const viewport = () => ({ width: app.screen.width, height: app.screen.height - timelineInset, top: topBand });
  const mirror = new Mirror(store);
  // Acting from the world (issue 39): replies, dialog keys, interrupt and the terminal panel.
  const terminals = new TerminalActions(bridge, store);
  const terminalPanel = new TerminalPanel(store, terminals);
  const tray = new TrayPanel(store, new ActRow(terminals, (personaId) => void terminalPanel.open(personaId)));
  const agentBox = (id: string) => {
    const feet = world.positions.get(id);
    if (!feet) return null;
    const bounds = app.canvas.getBoundingClientRect();
    // The character with its badge and name plate, in world pixels around the feet.
    const topLeft = world.toCanvas({ x: feet.x - 12, y: feet.y - 44 });
    const bottomRight = world.toCanvas({ x: feet.x + 12, y: feet.y + 10 });
    return { x: bounds.left + topLeft.x, y: bounds.top + topLeft.y, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y };
  };
  /** The character with its name plate and host tag (wider than the character): what the tray keeps clear of. */
  const agentWithPlate = (id: string) => {
    const box = agentBox(id);
    const plate = world.agentViews.get(id)?.namePlate;
    if (!box || !plate?.visible) return box;
    const bounds = app.canvas.getBoundingClientRect();
    const drawn = plate.getBounds();
    const left = Math.min(box.x, bounds.left + drawn.x);
    const right = Math.max(box.x + box.width, bounds.left + drawn.x + drawn.width);
    const bottom = Math.max(box.y + box.height, bounds.top + drawn.y + drawn.height);
    return { x: left, y: box.y, width: right - left, height: bottom - box.y };
  };
  // The card follows the pointer's agent, else the agent whose mirror button has keyboard focus.
  const card = new HoverCard();
  const placeCard = () => {
    const active = document.activeElement as HTMLElement | null;
    const focusedAgent = active && mirror.root.contains(active) ? (active.dataset.agent ?? null) : null;
    const id = world.input.hovered ?? focusedAgent;
    // The open tray tells all the card would, beside the same agent: no card over it.
    if (id === null || id === store.getState().ui.tray) return card.hide();
    card.show(hoverCardFacts(shownFleet(store.getState()), id, shownNowMs(store.getState())), agentBox(id));
  };
  mirror.root.addEventListener('focusin', () => requestAnimationFrame(placeCard));
  store.subscribe((state, previous) => {
    if (state.ui.tray !== previous.ui.tray) requestAnimationFrame(placeCard);
  });
  mirror.root.addEventListener('focusout', () => setTimeout(placeCard, 0));
  tray.attachWorld({
    agentBox: agentWithPlate,
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
  const queue = new QueueStrip(pickAgent, (look) => portraits.url(look), () => shownNowMs(store.getState()), (personaId) => new ReplyBox(personaId, terminals));
  // A job's parent link does what picking from the queue does: focus, centre, open the tray.
  const jobsBoard = new JobsBoard(store, pickAgent);
  const usageHud = new UsageHud(store);
  attachPacePanel(bridge, usageHud.root); // issue 41: the HUD line opens the pace panel
  setInterval(() => {
    queue.tick();
    if (card.shown !== null) placeCard();
  }, QUEUE_TICK_MS);
  attachNotifications({ bridge, pick: pickAgent });
  const timeline = new Timeline(store);
  attachAway(store);
  const notices = createNotices(store);
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
    terminalPanel.root,
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
    notices,
    createEmptyHint(store, bridge),
    usageHud.root,
    timeline.root,
    new AwayPanel(store, pickAgent).root,
  );
  // The strip's rows and any notice take the top band: the floor is fitted below it, and panels open below it.
  followTopBand(queue.root, notices, (height) => {
    if (height === topBand) return;
    topBand = height;
    world.resize(viewport());
    tray.place();
    redraw();
  });

  const NO_PENDING: AppState['ui']['pending'] = {};
  let shownPast = false;
  // Unchanged agents keep their records from snapshot to snapshot, so the world and the mirror skip them.
  const agentModels = new AgentModelCache();
  let shown: Pick<AppState, 'fleet' | 'ui'> | null = null;
  const render = (live: AppState) => {
    // The world draws the moment the timeline shows, else now; the live fleet keeps changing underneath meanwhile.
    // Until the first moment asked for is answered, the world stays live: a frame drawn before the answer shows nothing
    // new, and in software WebGL its read-back held the page for tens of milliseconds just as the answer came in.
    const past = inPast(live) && (shownPast || live.history.viewing?.moment != null);
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
      world.input.setFocused(state.ui.focused);
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
    // A change to a visible seat is on screen in this animation frame, not at the loop's next looping step.
    loop.drawNow();
  };
  store.subscribe(() => {
    if (scheduled) return;
    scheduled = true;
    if (document.hidden) setTimeout(flush, HIDDEN_SYNC_MS);
    else requestAnimationFrame(flush);
  });
  render(store.getState());
  /** The camera last asked to be drawn: input that moved it is drawn at the pointer's pace. */
  let askedCamera = world.camera;
  attachInput(app.canvas, world, store, () => {
    const moved = world.camera !== askedCamera;
    askedCamera = world.camera;
    redraw(moved);
    tray.place();
    placeCard();
  });
  attachCardDrop(app.canvas, world, store, redraw);
  addEventListener('resize', () => {
    app.renderer.resize(host.clientWidth, host.clientHeight);
    flush();
    world.resize(viewport());
    tray.place();
    redraw();
  });

  installPageHook({ store, app, world, drawer, envelopes, loop, usageHud, worldContext, flush });
}

const host = document.getElementById('world')!;
boot(host).catch((error: unknown) => {
  const message = document.createElement('p');
  message.className = 'boot-error';
  message.textContent = `Pixelfleet could not start: ${describeFailure(error)}`;
  host.replaceChildren(message);
});
