/**
 * The renderer's one API to main: Electron's preload bridge when present, the WebSocket client otherwise.
 * Both validate with the same contract: requests before sending, responses and events tolerantly on arrival.
 */
import {
  parseEvent,
  parseRequest,
  parseResponse,
  type Answer,
  type ChannelName,
  type ContractError,
  type EventName,
  type EventOf,
  eventNames,
  type RequestOf,
  type ResponseOf,
} from '../shared/contract';

/** The raw channel a bridge speaks over: Electron IPC, a WebSocket, or an in-memory pair in tests. */
export interface RawTransport {
  request(channel: string, payload: unknown): Promise<Answer<unknown>>;
  subscribe(listener: (event: string, payload: unknown) => void): () => void;
  close(): void;
}

/** A failed request, carrying the contract's `{ code, message }`. */
export class BridgeError extends Error {
  readonly code: string;
  constructor(error: ContractError) {
    super(error.message);
    this.name = 'BridgeError';
    this.code = error.code;
  }
}

/** The typed API the store and panels use. */
export interface Bridge {
  readonly kind: 'electron' | 'websocket' | 'memory';
  invoke<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>>;
  on<E extends EventName>(event: E, listener: (payload: EventOf<E>) => void): () => void;
  /** Listens for the transport coming back after a drop (a restarted host): anything held may be stale. */
  onReconnected(listener: () => void): () => void;
  /** Listens for the transport dropping (the host stopped or restarts); it then keeps trying to reconnect. */
  onDisconnected?(listener: () => void): () => void;
  close(): void;
}

/** The pseudo-event a raw transport sends when it reconnected (not part of the contract). */
export const RECONNECTED_EVENT = 'transport.reconnected';

/** The pseudo-event a raw transport sends when it dropped and starts reconnecting (not part of the contract). */
export const DISCONNECTED_EVENT = 'transport.disconnected';

/** The object the Electron preload exposes on `window.pixelfleet` (exactly the contract's channels). */
export interface PreloadApi {
  invoke(channel: string, payload: unknown): Promise<Answer<unknown>>;
  on(event: string, listener: (payload: unknown) => void): () => void;
}

/** Wraps a raw transport in the contract's validation. */
export function createBridgeFromTransport(transport: RawTransport, kind: Bridge['kind']): Bridge {
  return {
    kind,
    async invoke(channel, request) {
      const checked = parseRequest(channel, request);
      if (!checked.ok) throw new BridgeError(checked.error);
      const answer = await transport.request(channel, checked.value);
      if (!answer.ok) throw new BridgeError(answer.error);
      const parsed = parseResponse(channel, answer.value);
      if (!parsed.ok) throw new BridgeError(parsed.error);
      return parsed.value;
    },
    on(event, listener) {
      return transport.subscribe((name, payload) => {
        if (name !== event) return;
        const parsed = parseEvent(event, payload);
        if (parsed.ok) listener(parsed.value);
        else console.warn(`pixelfleet: dropped event ${parsed.error.message}`);
      });
    },
    onReconnected(listener) {
      return transport.subscribe((name) => {
        if (name === RECONNECTED_EVENT) listener();
      });
    },
    onDisconnected(listener) {
      return transport.subscribe((name) => {
        if (name === DISCONNECTED_EVENT) listener();
      });
    },
    close: () => transport.close(),
  };
}

/** The preload API as a raw transport. */
export function preloadTransport(api: PreloadApi): RawTransport {
  return {
    request: (channel, payload) => api.invoke(channel, payload),
    subscribe(listener) {
      const offs = eventNames.map((event) => api.on(event, (payload) => listener(event, payload)));
      return () => offs.forEach((off) => off());
    },
    close() {},
  };
}
