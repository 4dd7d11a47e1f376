/**
 * Boots the page: connects the bridge, creates the store, starts PixiJS (WebGL, canvas as the fallback), draws the
 * world and the DOM panels, and exposes `window.__pixelfleet` for tests and tools.
 */
// Pixi otherwise compiles shaders and uniform uploads with `new Function`, which the page's CSP forbids.
import 'pixi.js/unsafe-eval';
import { Application, RendererType } from 'pixi.js';
import { connectBridge } from './connect';
import { createMessages, createBacklogPanel, createLobbyPanel, createToolbar } from './panels/panels';
import { Mirror } from './panels/mirror';
import { PickerPanel } from './panels/picker';
import { TrayPanel } from './panels/tray';
import type { AppState } from './store/appState';
import { createAppStore, describeFailure } from './store/createAppStore';
import { FrameLoop } from './world/frameLoop';
import { attachInput } from './world/input';
import { selectWorld } from './world/model';
import { loadSprites } from './world/sprites';
import { World } from './world/World';
import './style.css';

/** The page hook's shape. */
export interface PageHook {
  state(): Omit<AppState, 'actions'>;
  actions: AppState['actions'];
  screenPosition(kind: 'agent' | 'station', id: string): { x: number; y: number } | null;
  renderer: 'webgl' | 'webgpu' | 'canvas' | 'unknown';
  rendererName: string;
  ticker(): { running: boolean; frames: number };
}

function rendererKind(type: number): PageHook['renderer'] {
  if (type === RendererType.WEBGL) return 'webgl';
  if (type === RendererType.WEBGPU) return 'webgpu';
  if (type === RendererType.CANVAS) return 'canvas';
  return 'unknown';
}

async function boot(host: HTMLElement): Promise<void> {
  const bridge = await connectBridge();
  const store = createAppStore({ bridge });
  const { actions } = store.getState();
  const motionQuery = matchMedia('(prefers-reduced-motion: reduce)');
  actions.setReducedMotion(motionQuery.matches);
  motionQuery.addEventListener('change', () => actions.setReducedMotion(motionQuery.matches));

  const [sprites] = await Promise.all([loadSprites(), actions.load()]);
  const app = new Application();
  await app.init({
    preference: ['webgl', 'canvas'],
    width: host.clientWidth || innerWidth,
    height: host.clientHeight || innerHeight,
    background: 0x3b2a22,
    antialias: false,
    roundPixels: true,
    autoStart: false,
    sharedTicker: false,
  });
  host.append(app.canvas);
  app.canvas.tabIndex = 0;
  app.canvas.setAttribute('aria-hidden', 'true');

  const world = new World(sprites);
  app.stage.addChild(world.root);
  const loop = new FrameLoop(app.ticker, (deltaMs) => world.animate(deltaMs));
  const viewport = () => ({ width: app.screen.width, height: app.screen.height });
  const mirror = new Mirror(store);
  const tray = new TrayPanel(store);
  const picker = new PickerPanel(store);
  host.after(
    mirror.root,
    createToolbar(store, () => {
      world.fit(viewport());
      loop.wake();
    }),
    tray.root,
    picker.root,
    createBacklogPanel(store),
    createLobbyPanel(store),
    createMessages(store),
  );

  let shown: Pick<AppState, 'fleet' | 'ui'> | null = null;
  const render = (state: AppState) => {
    if (!shown || state.fleet !== shown.fleet || state.ui.pending !== shown.ui.pending || state.ui.reducedMotion !== shown.ui.reducedMotion) {
      world.reducedMotion = state.ui.reducedMotion;
      const model = selectWorld(state);
      world.sync(model, viewport());
      mirror.sync(model);
      loop.wake();
    }
    if (!shown || state.ui.focused !== shown.ui.focused) {
      world.setFocused(state.ui.focused);
      loop.wake();
    }
    shown = { fleet: state.fleet, ui: state.ui };
  };
  store.subscribe(render);
  render(store.getState());
  attachInput(app.canvas, world, store, () => loop.wake());
  addEventListener('resize', () => {
    app.renderer.resize(host.clientWidth, host.clientHeight);
    loop.wake();
  });

  const hook: PageHook = {
    state() {
      const { actions: _actions, ...rest } = store.getState();
      return rest;
    },
    actions,
    screenPosition(kind, id) {
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
    ticker: () => loop.state,
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
