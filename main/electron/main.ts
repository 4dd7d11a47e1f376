/** The desktop entry point: one window over the same services browser mode runs. */
import { app, BrowserWindow, Notification, shell } from 'electron';
import { join } from 'node:path';
import { createApp, type App } from '../app';
import { resolveAppHome } from '../config/paths';
import { isSafeExternalUrl } from '../transport/externalUrl';
import type { EventOf } from '../../shared/contract';
import { createDesktopDelivery } from '../notify/desktop';
import { IPC_EVENT, registerIpc } from './ipc';
import { registerAppScheme, serveRenderer } from './protocol';
import { createMainWindow } from './window';

const home = resolveAppHome();
// The CLI, browser mode and the desktop app share one data folder.
app.setPath('userData', home);
registerAppScheme();

const argv = process.argv.slice(1);
const demoIndex = argv.indexOf('--demo');
const agentsIndex = argv.indexOf('--agents');
const demo = demoIndex >= 0 ? { agents: agentsIndex >= 0 ? Math.max(1, Number(argv[agentsIndex + 1]) || 6) : 6 } : undefined;

let services: App | null = null;
let undoIpc: (() => void) | null = null;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const window = BrowserWindow.getAllWindows()[0];
    if (window) {
      if (window.isMinimized()) window.restore();
      window.focus();
    }
  });
  app.whenReady().then(async () => {
    const root = app.getAppPath();
    serveRenderer(join(root, 'out', 'renderer'));
    services = await createApp({
      home,
      mode: 'electron',
      demo,
      openExternal: async (url) => {
        if (isSafeExternalUrl(url)) await shell.openExternal(url);
      },
    });
    const window = createMainWindow(join(root, 'out', 'preload', 'index.cjs'));
    undoIpc = registerIpc(services, window);
    const notify = createDesktopDelivery({
      Notification,
      isFocused: () => !window.isDestroyed() && window.isFocused(),
      focusAgent: (personaId) => {
        if (window.isDestroyed()) return;
        if (window.isMinimized()) window.restore();
        window.show();
        window.focus();
        window.webContents.send(IPC_EVENT, 'agent.focus', { personaId });
      },
    });
    services.onEvent((name, payload) => {
      if (name === 'notify.show') notify(payload as EventOf<'notify.show'>);
    });
  });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    if (!services) return;
    event.preventDefault();
    const running = services;
    services = null;
    undoIpc?.();
    void running.dispose().finally(() => app.quit());
  });
}
