/** The desktop entry point: one window over the same services browser mode runs, started by the one bootstrap. */
import { app, BrowserWindow, dialog, Notification, shell } from 'electron';
import { join } from 'node:path';
import { runDesktop, type Started } from '../setup/bootstrap';
import { isSafeExternalUrl } from '../edges/transport/externalUrl';
import type { EventOf } from '../../shared/contract';
import { createDesktopDelivery } from '../core/notify/desktop';
import { IPC_EVENT, registerIpc } from './ipc';
import { registerAppScheme, serveRenderer } from './protocol';
import { createMainWindow } from './window';

registerAppScheme();

let started: Started | null = null;
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
  void runDesktop({
    argv: process.argv.slice(1),
    env: process.env,
    // The CLI, browser mode and the desktop app share one data folder (a demo's is a throwaway one).
    setDataFolder: (home) => app.setPath('userData', home),
    whenReady: () => app.whenReady(),
    showBootError: (title, reason) => dialog.showErrorBox(title, reason),
    quit: () => app.quit(),
    log: (message) => console.error(message),
    openExternal: async (url) => {
      if (isSafeExternalUrl(url)) await shell.openExternal(url);
    },
    openWindow(services) {
      const root = app.getAppPath();
      serveRenderer(join(root, 'out', 'renderer'));
      const window = createMainWindow(join(root, 'out', 'preload', 'index.cjs'));
      undoIpc = registerIpc(services.app, window);
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
      services.app.onEvent((name, payload) => {
        if (name === 'notify.show') notify(payload as EventOf<'notify.show'>);
      });
      started = services;
    },
  });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    if (!started) return;
    event.preventDefault();
    const running = started;
    started = null;
    undoIpc?.();
    void running.stop().finally(() => app.quit());
  });
}
