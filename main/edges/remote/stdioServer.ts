/**
 * `pixelfleet serve --stdio`: the app's router and events over stdin/stdout as newline-delimited JSON. No port and no
 * token: ssh has already authenticated the caller. Requests go through the same router as the WebSocket's, so they
 * are validated exactly alike; frames over the bound are refused; the server ends when stdin ends.
 */
import type { Readable, Writable } from 'node:stream';
import type { Router } from '../transport/router';
import type { EventListener } from '../transport/events';
import { answerRequest } from '../transport/answerRequest';
import { createLineDecoder, encodeFrame, frameOrFault, type FrameEvent } from './framing';
import { checkHello, helloFrame, versionMismatch } from './protocol';
import { CONTRACT_VERSION } from '../../../shared/contract';
import { MAX_FRAME_BYTES } from './bounds';

/** What the stdio server serves: a router and an event stream (an App is one). */
export interface StdioServed {
  router: Router;
  onEvent(listener: EventListener): () => void;
}

/** Options of one stdio session. */
export interface StdioServerOptions {
  served: StdioServed;
  input: Readable;
  output: Writable;
  appVersion: string;
  maxFrameBytes?: number;
  log?: (message: string) => void;
}

/** Serves until the input ends (or the peer is refused); resolves with the reason it stopped. */
export function serveStdio(options: StdioServerOptions): Promise<'eof' | 'refused'> {
  const { served, input, output, appVersion } = options;
  const log = options.log ?? (() => {});
  const maxBytes = options.maxFrameBytes ?? MAX_FRAME_BYTES;
  let greeted = false;
  let stopped = false;
  let offEvents: (() => void) | null = null;

  const write = (value: unknown) => {
    if (stopped && !('hello' in (value as object))) return;
    const line = encodeFrame(value, maxBytes);
    if (line !== null) {
      output.write(line);
      return;
    }
    const id = (value as { id?: unknown }).id ?? null;
    log(`pixelfleet: a frame over ${maxBytes} bytes was not sent`);
    if (id !== null) output.write(encodeFrame({ id, ok: false, error: { code: 'internal', message: `The answer is larger than ${maxBytes} bytes.` } })!);
  };
  const fail = (message: string) => write({ id: null, ok: false, error: { code: 'invalid_message', message } });
  const faultWords = {
    tooLarge: (bytes: number) => `A frame is at most ${maxBytes} bytes; one of ${bytes} bytes was refused.`,
    garbage: (reason: string) => `A frame is one JSON object per line: ${reason} was refused.`,
  };

  return new Promise((resolve) => {
    const stop = (reason: 'eof' | 'refused') => {
      if (stopped) return;
      stopped = true;
      offEvents?.();
      input.off('data', onData);
      resolve(reason);
    };
    const onFrame = (event: FrameEvent) => {
      const step = frameOrFault(event, faultWords);
      if (step === null) return;
      if ('fault' in step) return fail(step.fault);
      const frame = step.frame;
      if (!greeted) {
        const hello = checkHello(frame, appVersion, 'host');
        if (!hello.ok && hello.kind === 'not-hello') {
          write({ ...helloFrame(appVersion), error: { code: 'invalid_message', message: 'The first frame is { hello: { contract, app } }.' } });
          return stop('refused');
        }
        if (!hello.ok) {
          write({ ...helloFrame(appVersion), error: { code: 'unreachable', message: hello.mismatch } });
          // The log speaks from this end: the peer is the remote here (the frame above speaks from the peer's end).
          log(`pixelfleet: refused a peer: ${versionMismatch(hello.peer, { contract: CONTRACT_VERSION, app: appVersion })}`);
          return stop('refused');
        }
        greeted = true;
        write(helloFrame(appVersion));
        offEvents = served.onEvent((name, payload) => write({ event: name, payload }));
        return;
      }
      void answerRequest(served.router, frame, write, (error) => log(`pixelfleet: a stdio message failed: ${(error as Error)?.message ?? String(error)}`));
    };
    const decoder = createLineDecoder(onFrame, maxBytes);
    const onData = (chunk: Buffer | string) => decoder.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    input.on('data', onData);
    const onEnd = () => {
      decoder.end();
      stop('eof');
    };
    input.once('end', onEnd);
    input.once('close', onEnd);
    input.once('error', onEnd);
  });
}
