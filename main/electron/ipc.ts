/** One IPC handler per contract channel: the sender frame is checked, requests and responses validated by the router. */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { channelNames } from '../../shared/contract';
import type { App } from '../setup/app';
import { APP_ORIGIN } from './protocol';

/** The prefix of every IPC channel name. */
export const IPC_PREFIX = 'pixelfleet:';
/** The IPC channel carrying events main → renderer. */
export const IPC_EVENT = 'pixelfleet:event';

function trustedSender(event: IpcMainInvokeEvent, window: BrowserWindow): boolean {
  const frame = event.senderFrame;
  if (!frame || event.sender !== window.webContents) return false;
  // Only the top frame of our own window, showing our own page, may call.
  if (frame.parent !== null) return false;
  try {
    return new URL(frame.url).origin === APP_ORIGIN;
  } catch {
    return false;
  }
}

/** Registers the handlers and forwards the app's events to the window; returns the undo function. */
export function registerIpc(app: App, window: BrowserWindow): () => void {
  for (const channel of channelNames) {
    ipcMain.handle(`${IPC_PREFIX}${channel}`, (event, payload: unknown) => {
      if (!trustedSender(event, window)) {
        return { ok: false, error: { code: 'forbidden', message: 'This frame may not talk to Pixelfleet.' } };
      }
      return app.router.handle(channel, payload);
    });
  }
  const offEvents = app.onEvent((name, payload) => {
    if (!window.isDestroyed()) window.webContents.send(IPC_EVENT, name, payload);
  });
  return () => {
    offEvents();
    for (const channel of channelNames) ipcMain.removeHandler(`${IPC_PREFIX}${channel}`);
  };
}
