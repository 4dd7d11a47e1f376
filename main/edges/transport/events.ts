/**
 * The one way events leave main. Each payload is validated against the contract like a response; one that breaks
 * it is a bug in main, logged once per event and not sent, so a renderer never receives what it cannot trust.
 */
import { parseEvent, type EventName, type EventOf } from '../../../shared/contract';

export type EventListener = <E extends EventName>(event: E, payload: EventOf<E>) => void;

export interface EventStream {
  emit<E extends EventName>(event: E, payload: EventOf<E>): void;
  /** Adds a listener; returns the function that removes it. */
  onEvent(listener: EventListener): () => void;
}

export function createEventStream(log: (message: string) => void): EventStream {
  const listeners = new Set<EventListener>();
  return {
    emit(event, payload) {
      const checked = parseEvent(event, payload);
      if (!checked.ok) {
        log(`pixelfleet: not sent: ${checked.error.message}`);
        return;
      }
      for (const listener of listeners) {
        try {
          listener(event, checked.value);
        } catch (error) {
          log(`pixelfleet: ${event} listener failed: ${(error as Error)?.message ?? String(error)}`);
        }
      }
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
