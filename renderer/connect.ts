/** Connects the page to main: the Electron preload bridge when present, the token-bearing WebSocket otherwise. */
import { createBridgeFromTransport, preloadTransport, type Bridge, type PreloadApi } from './bridge';
import { openWebSocketTransport } from './wsTransport';

/** Picks the transport for this page: the preload bridge inside Electron, the token-bearing WebSocket otherwise. */
export async function connectBridge(): Promise<Bridge> {
  const preload = (globalThis as { pixelfleet?: PreloadApi }).pixelfleet;
  if (preload) return createBridgeFromTransport(preloadTransport(preload), 'electron');
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const transport = await openWebSocketTransport(`${scheme}://${location.host}/ws?token=${encodeURIComponent(token)}`);
  return createBridgeFromTransport(transport, 'websocket');
}
