/**
 * Reads the lines of a byte range of an open file, in chunks, with their start offsets. Used by replay, which reads
 * bounded windows of a child rollout on request (the parent is tailed with ../tail instead).
 */
import type { FileHandle } from 'node:fs/promises';
import { READ_CHUNK_BYTES } from '../kit/bounds';

const NEWLINE = 0x0a;

/** A line from a range: its bytes (no newline), where it starts, and whether a newline closed it. */
export interface RangeLine {
  bytes: Buffer;
  offset: number;
  complete: boolean;
}

/**
 * Calls onLine for each line starting at or after `start` and before `end` (a partial first line is skipped when
 * `start` is not a line boundary). Lines longer than `maxLineBytes` are dropped. Stops early when onLine returns
 * false. Returns the bytes read.
 */
export async function forEachLine(handle: FileHandle, start: number, end: number, maxLineBytes: number, onLine: (line: RangeLine) => boolean | void): Promise<number> {
  let position = start;
  let bytesRead = 0;
  let skipping = false;
  if (start > 0) {
    // `start` is a boundary only when the byte before it is a newline.
    const probe = Buffer.alloc(1);
    const { bytesRead: got } = await handle.read(probe, 0, 1, start - 1);
    bytesRead += got;
    skipping = got === 1 && probe[0] !== NEWLINE;
  }
  let parts: Buffer[] = [];
  let partBytes = 0;
  let lineStart = start;
  const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  while (position < end) {
    const { bytesRead: got } = await handle.read(chunk, 0, Math.min(READ_CHUNK_BYTES, end - position), position);
    if (got === 0) break;
    bytesRead += got;
    let cursor = 0;
    while (cursor < got) {
      const newline = chunk.indexOf(NEWLINE, cursor);
      const stop = newline === -1 || newline >= got ? got : newline;
      if (!skipping) {
        if (partBytes + (stop - cursor) > maxLineBytes) {
          skipping = true;
          parts = [];
          partBytes = 0;
        } else {
          parts.push(Buffer.from(chunk.subarray(cursor, stop)));
          partBytes += stop - cursor;
        }
      }
      if (stop === got) break;
      if (!skipping && onLine({ bytes: Buffer.concat(parts, partBytes), offset: lineStart, complete: true }) === false) return bytesRead;
      skipping = false;
      parts = [];
      partBytes = 0;
      lineStart = position + stop + 1;
      cursor = stop + 1;
    }
    position += got;
  }
  if (!skipping && partBytes > 0) onLine({ bytes: Buffer.concat(parts, partBytes), offset: lineStart, complete: false });
  return bytesRead;
}
