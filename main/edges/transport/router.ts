/**
 * Routes contract requests to service handlers. Every transport (Electron IPC, WebSocket, in-memory) goes through
 * here: the request is validated strictly, the handler's answer is validated before it leaves, and a failure
 * becomes `{ code, message }` without changing anything.
 */
import {
  isChannel,
  parseRequest,
  parseResponse,
  type Answer,
  type ChannelName,
  type Channels,
  type ResponseOf,
} from '../../../shared/contract';
import type { z } from 'zod';
import { ServiceError } from '../../kit/errors';

/** One handler per channel, receiving the validated request. */
export type Handlers = {
  [C in ChannelName]: (request: z.infer<Channels[C]['request']>) => Promise<ResponseOf<C>> | ResponseOf<C>;
};

/** The request dispatcher shared by all transports. */
export interface Router {
  handle(channel: unknown, payload: unknown): Promise<Answer<unknown>>;
}

/** Builds a router over a complete set of handlers. */
export function createRouter(handlers: Handlers, log: (message: string) => void = () => {}): Router {
  return {
    async handle(channel, payload) {
      if (!isChannel(channel)) {
        return { ok: false, error: { code: 'unknown_channel', message: `Unknown channel ${JSON.stringify(String(channel)).slice(0, 80)}.` } };
      }
      const request = parseRequest(channel, payload);
      if (!request.ok) return request;
      try {
        const handler = handlers[channel] as (value: unknown) => Promise<unknown> | unknown;
        const value = await handler(request.value);
        const response = parseResponse(channel, value);
        if (!response.ok) log(`pixelfleet: ${response.error.message}`);
        return response;
      } catch (error) {
        if (error instanceof ServiceError) return { ok: false, error: { code: error.code, message: error.message } };
        log(`pixelfleet: ${channel} failed: ${(error as Error)?.stack ?? String(error)}`);
        return { ok: false, error: { code: 'internal', message: `${channel} failed: ${(error as Error)?.message ?? String(error)}` } };
      }
    },
  };
}
