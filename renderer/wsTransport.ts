/** The browser-mode transport: one WebSocket carrying numbered requests, answers and pushed events. */
import type { Answer } from '../shared/contract';
import { DISCONNECTED_EVENT, RECONNECTED_EVENT, type RawTransport } from './bridge';

interface Pending {
  resolve: (answer: Answer<unknown>) => void;
}

/** Opens the socket and resolves once it is open; reconnects with backoff when the host restarts. */
export function openWebSocketTransport(url: string): Promise<RawTransport> {
  let socket: WebSocket;
  let nextId = 1;
  let closed = false;
  const pending = new Map<number, Pending>();
  const listeners = new Set<(event: string, payload: unknown) => void>();
  const queue: string[] = [];

  const failAll = (message: string) => {
    for (const [id, entry] of pending) {
      entry.resolve({ ok: false, error: { code: 'disconnected', message } });
      pending.delete(id);
    }
  };

  const connect = (onFirstOpen?: () => void, onFirstError?: (error: Error) => void, attempt = 0) => {
    socket = new WebSocket(url);
    socket.addEventListener('open', () => {
      attempt = 0;
      onFirstOpen?.();
      onFirstOpen = undefined;
      onFirstError = undefined;
      for (const message of queue.splice(0)) socket.send(message);
      for (const listener of listeners) listener(RECONNECTED_EVENT, {});
    });
    socket.addEventListener('message', (message) => {
      let data: { id?: number; ok?: boolean; value?: unknown; error?: { code: string; message: string }; event?: string; payload?: unknown };
      try {
        data = JSON.parse(String(message.data));
      } catch {
        return;
      }
      if (typeof data.event === 'string') {
        for (const listener of listeners) listener(data.event, data.payload);
      } else if (typeof data.id === 'number') {
        const entry = pending.get(data.id);
        if (!entry) return;
        pending.delete(data.id);
        entry.resolve(data.ok ? { ok: true, value: data.value } : { ok: false, error: data.error ?? { code: 'internal', message: 'No answer.' } });
      } else if (data.error) {
        console.warn(`pixelfleet: ${data.error.message}`);
      }
    });
    socket.addEventListener('close', (event) => {
      failAll('The connection to Pixelfleet closed.');
      if (onFirstError) {
        onFirstError(new Error(`Pixelfleet refused the connection (${event.code}${event.reason ? `: ${event.reason}` : ''}).`));
        return;
      }
      if (closed) return;
      // The page keeps what it shows and says it is reconnecting until the host answers again.
      for (const listener of listeners) listener(DISCONNECTED_EVENT, {});
      setTimeout(() => connect(undefined, undefined, attempt + 1), Math.min(5000, 250 * 2 ** attempt));
    });
  };

  return new Promise((resolve, reject) => {
    const transport: RawTransport = {
      request(channel, payload) {
        const id = nextId++;
        const message = JSON.stringify({ id, channel, payload });
        return new Promise((done) => {
          pending.set(id, { resolve: done });
          if (socket.readyState === WebSocket.OPEN) socket.send(message);
          else queue.push(message);
        });
      },
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      close() {
        closed = true;
        socket.close();
      },
    };
    connect(() => resolve(transport), reject);
  });
}
