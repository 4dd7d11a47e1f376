/**
 * Request answering shared by the WebSocket and the stdio servers: the same id bound, the same router, the same
 * answer to a throw. Each server only says how an answer is sent and how a throw is logged.
 */
import { ID_MAX_LENGTH } from '../../../shared/bounds';
import type { Router } from './router';

/** A request as a client sends it: `{ id, channel, payload }`, every field unchecked. */
export interface RequestMessage {
  id?: unknown;
  channel?: unknown;
  payload?: unknown;
}

/**
 * Answers one request through the router and sends `{ id, ok, value | error }`. An id over the bound is refused at
 * once (before any await, so it keeps its place among the answers); a throw is logged and answered as internal.
 */
export async function answerRequest(router: Router, message: RequestMessage, send: (answer: Record<string, unknown>) => void, onThrow: (error: unknown) => void): Promise<void> {
  const id = typeof message.id === 'number' || typeof message.id === 'string' ? message.id : null;
  // The id is echoed in the answer, so it is held to the contract's id bound like every other string.
  if (typeof id === 'string' && id.length > ID_MAX_LENGTH) {
    send({ id: null, ok: false, error: { code: 'invalid_message', message: `A message id is at most ${ID_MAX_LENGTH} characters.` } });
    return;
  }
  try {
    const answer = await router.handle(message.channel, message.payload);
    send({ id, ...answer });
  } catch (error) {
    onThrow(error);
    send({ id, ok: false, error: { code: 'internal', message: 'Internal error.' } });
  }
}
