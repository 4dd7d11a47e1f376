/** The preload: exposes exactly the contract's channels and events on `window.pixelfleet`, nothing else. */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { shownValue } from '../../shared/bounds';
import { channelNames, eventNames } from '../../shared/contract';

const channels = new Set<string>(channelNames);
const events = new Set<string>(eventNames);

contextBridge.exposeInMainWorld('pixelfleet', {
  invoke(channel: string, payload: unknown) {
    if (!channels.has(channel)) {
      return Promise.resolve({ ok: false, error: { code: 'unknown_channel', message: `Unknown channel ${shownValue(String(channel))}.` } });
    }
    return ipcRenderer.invoke(`pixelfleet:${channel}`, payload);
  },
  on(event: string, listener: (payload: unknown) => void) {
    if (!events.has(event)) return () => {};
    const handler = (_sender: IpcRendererEvent, name: string, payload: unknown) => {
      if (name === event) listener(payload);
    };
    ipcRenderer.on('pixelfleet:event', handler);
    return () => ipcRenderer.removeListener('pixelfleet:event', handler);
  },
});
