/**
 * Newline-delimited JSON framing for `serve --stdio`: bytes in, one frame per line out. A line longer than the frame
 * bound is refused without being held in memory (the rest of it is skipped up to its newline); a line that is not a
 * JSON object is reported and skipped; a last line without a newline at the end of the stream is reported, not used.
 */
import { MAX_FRAME_BYTES } from './bounds';

/** What the decoder found: a frame (a parsed JSON object), or a problem with one line. */
export type FrameEvent =
  | { kind: 'frame'; value: Record<string, unknown> }
  | { kind: 'too-large'; bytes: number }
  | { kind: 'garbage'; reason: string }
  | { kind: 'truncated'; bytes: number };

/** A line decoder: push chunks, end once; each finding goes to `onEvent` in stream order. */
export interface LineDecoder {
  push(chunk: Buffer): void;
  /** The stream ended: a partial last line is reported as truncated. */
  end(): void;
}

/** Creates a decoder with a frame bound (bytes per line, newline excluded). */
export function createLineDecoder(onEvent: (event: FrameEvent) => void, maxBytes: number = MAX_FRAME_BYTES): LineDecoder {
  let parts: Buffer[] = [];
  let held = 0;
  /** Bytes of an over-long line seen so far; while it is non-null the line is skipped up to its newline. */
  let skipping: number | null = null;

  const finishLine = (line: Buffer) => {
    if (line.length === 0) return;
    onEvent(parseFrame(line));
  };

  return {
    push(chunk) {
      let start = 0;
      while (start < chunk.length) {
        const newline = chunk.indexOf(0x0a, start);
        const stop = newline === -1 ? chunk.length : newline;
        const piece = chunk.subarray(start, stop);
        if (skipping !== null) {
          skipping += piece.length;
        } else if (held + piece.length > maxBytes) {
          skipping = held + piece.length;
          parts = [];
          held = 0;
        } else if (piece.length > 0) {
          // A copy: the caller may reuse its chunk.
          parts.push(Buffer.from(piece));
          held += piece.length;
        }
        if (newline === -1) break;
        if (skipping !== null) {
          onEvent({ kind: 'too-large', bytes: skipping });
          skipping = null;
        } else {
          const line = parts.length === 1 ? parts[0] : Buffer.concat(parts, held);
          parts = [];
          held = 0;
          finishLine(line);
        }
        start = newline + 1;
      }
    },
    end() {
      if (skipping !== null) onEvent({ kind: 'too-large', bytes: skipping });
      else if (held > 0) onEvent({ kind: 'truncated', bytes: held });
      skipping = null;
      parts = [];
      held = 0;
    },
  };
}

/** One line as a frame: a JSON object, or why it is garbage. */
export function parseFrame(line: Buffer | string): FrameEvent {
  let value: unknown;
  try {
    value = JSON.parse(typeof line === 'string' ? line : line.toString('utf8'));
  } catch {
    return { kind: 'garbage', reason: 'a line that is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'garbage', reason: 'a line that is not a JSON object' };
  return { kind: 'frame', value: value as Record<string, unknown> };
}

/** A frame as one line, or null when it is larger than the bound (the caller answers with an error instead). */
export function encodeFrame(value: unknown, maxBytes: number = MAX_FRAME_BYTES): string | null {
  const text = JSON.stringify(value);
  // JSON.stringify escapes newlines inside strings, so the line holds exactly one frame.
  if (Buffer.byteLength(text) > maxBytes) return null;
  return `${text}\n`;
}

/** How one end of the stream words a refused line: too large (its bytes) or not a JSON object (why). */
export interface FaultWords {
  tooLarge(bytes: number): string;
  garbage(reason: string): string;
}

/**
 * The step both ends take with each decoder finding: a frame to use, a fault worded for this end, or null for a
 * truncated last line (the stream ended mid-line: nothing to use and nothing to answer).
 */
export function frameOrFault(event: FrameEvent, words: FaultWords): { frame: Record<string, unknown> } | { fault: string } | null {
  switch (event.kind) {
    case 'too-large':
      return { fault: words.tooLarge(event.bytes) };
    case 'garbage':
      return { fault: words.garbage(event.reason) };
    case 'truncated':
      return null;
    case 'frame':
      return { frame: event.value };
    default:
      event satisfies never;
      return null;
  }
}
