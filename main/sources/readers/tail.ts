/**
 * Incremental, bounded line tailing of an append-only journal, keyed by file identity (device, inode, birth time)
 * and a byte offset checked against a fingerprint of the bytes before it. Shared by the Claude and Codex readers.
 * No path reads a whole file into memory.
 */
import { type FileHandle } from 'node:fs/promises';
import { openRegularFile } from './kit/openRegular';
import { statSync, type Stats } from 'node:fs';
import { COLD_READ_BYTES, FINGERPRINT_BYTES, MAX_LINE_BYTES, READ_CHUNK_BYTES } from './kit/bounds';

/**
 * Who a file is, as far as the platform tells: device and inode, and its birth time where the file system records
 * one (null where it does not). An inode number can be reused once a file is deleted; the birth time cannot.
 */
export interface FileIdentity {
  dev: number;
  ino: number;
  birthtimeMs: number | null;
}

/** The identity of a file from its stats (birth time only where the platform gives one). */
export function fileIdentity(info: Stats): FileIdentity {
  return { dev: info.dev, ino: info.ino, birthtimeMs: info.birthtimeMs > 0 ? info.birthtimeMs : null };
}

/** True when both describe the same file: same device and inode, and the same birth time where both know it. */
export function sameIdentity(known: FileIdentity, now: FileIdentity): boolean {
  if (known.dev !== now.dev || known.ino !== now.ino) return false;
  return known.birthtimeMs === null || now.birthtimeMs === null || known.birthtimeMs === now.birthtimeMs;
}

/** Reads the fingerprint of an open file at `offset`: up to FINGERPRINT_BYTES bytes that end there. */
export async function readFingerprint(handle: FileHandle, offset: number): Promise<Buffer> {
  const length = Math.min(FINGERPRINT_BYTES, offset);
  const buffer = Buffer.alloc(length);
  return buffer.subarray(0, await readFully(handle, buffer, length, offset - length));
}

/** Why a read started cold: no earlier state, another file at the path, a shorter file, or different bytes. */
export type ColdCause = 'first' | 'replaced' | 'truncated' | 'rewritten';

/** What a tail remembers between calls for one file. */
export interface TailState extends FileIdentity {
  /** Bytes of the file consumed so far (the next read starts here); includes `pending`. */
  offset: number;
  /** Bytes after the last newline, held back until the line is complete. */
  pending: Buffer;
  /** Lines skipped as longer than `maxLineBytes` since the last cold read. */
  skippedLines: number;
  /** True while the bytes being read belong to an over-long line that is being skipped. */
  skippingLongLine: boolean;
  /** File size (bytes) and modification time (ms since epoch) at the last call. */
  size: number;
  mtimeMs: number;
  /** Status change time (ms since epoch) at the last call: any write, truncation or chmod moves it. */
  ctimeMs: number;
  /** The bytes just before `offset` (see FINGERPRINT_BYTES); a mismatch means the file was rewritten. */
  fingerprint: Buffer;
}

/** Bounds of a tail: how far back a cold read starts and how long one line may be (bytes). */
export interface TailOptions {
  coldBytes: number;
  maxLineBytes: number;
}

/** The journal bounds of the design: cold read ≤ last 2 MiB, a line over 8 MiB is skipped. */
export const DEFAULT_TAIL: TailOptions = { coldBytes: COLD_READ_BYTES, maxLineBytes: MAX_LINE_BYTES };

/** The outcome of one tail call. `cold` means lines start afresh: the caller must reset what it derived. */
export interface TailResult {
  state: TailState;
  cold: boolean;
  bytesRead: number;
  changed: boolean;
  /** Why the read was cold; absent when it was not. */
  cause?: ColdCause;
}

const NEWLINE = 0x0a;

/**
 * Reads only what is new since `state` (null = cold). Calls onLine for each complete line (without the newline),
 * in order, with the byte offset where the line starts in the file. When the result is `cold`, every line delivered
 * by this call belongs to a fresh start, so a caller that keeps derived state should either collect what onLine
 * gives and apply it after the call (to a reset state when cold), or reset in `onCold`, which is called once, before
 * the first line, when the read starts cold, with the byte offset where its window starts (0 = the whole file).
 * Throws only for I/O errors (ENOENT and the like).
 */
export async function tailLines(
  path: string,
  state: TailState | null,
  options: TailOptions,
  onLine: (line: string, offset: number) => void,
  onCold?: (cause: ColdCause, windowStart: number) => void,
): Promise<TailResult> {
  // One synchronous stat decides whether anything moved: a few microseconds on a local file, where a pooled
  // asynchronous stat costs tens (the census of unchanged seats is nothing but these).
  const quick = statSync(path);
  if (state !== null && unchanged(state, quick)) return { state, cold: false, bytesRead: 0, changed: false };
  // Only a regular file is tailed: opening a FIFO would block a thread of the pool until a writer appears.
  if (!quick.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: 'ENOTFILE' });
  // The opened handle, not the path, is what gets read: its own stats (taken as it was opened) decide identity and size.
  const { handle, info } = await openRegularFile(path);
  try {
    const cause = await coldCause(handle, state, info);
    if (cause !== null) onCold?.(cause, coldWindowStart(info.size, options));
    return await readFrom(handle, cause === null ? state : null, info, options, onLine, cause);
  } finally {
    await handle.close();
  }
}

/**
 * One tail → reduce step with the single cold-read reset: lines are reduced into `derived` as they are read, and a
 * cold read (first read, replaced, truncated or rewritten file) starts from `fresh(cause, windowStart)` before its
 * first line, so the file is read once. `windowStart` is the byte offset where the cold window begins: above 0 when
 * the file is longer than the cold-read bound and its earlier bytes are not read. Returns the tail's result and the
 * state the lines went into.
 */
export async function tailReduce<S>(
  path: string,
  tail: TailState | null,
  options: TailOptions,
  derived: S,
  fresh: (cause: ColdCause, windowStart: number) => S,
  reduce: (state: S, line: string, offset: number) => void,
): Promise<{ result: TailResult; derived: S }> {
  let target = derived;
  const result = await tailLines(path, tail, options, (line, offset) => reduce(target, line, offset), (cause, windowStart) => {
    target = fresh(cause, windowStart);
  });
  return { result, derived: target };
}

/** Where a cold read of a file of `size` bytes starts: the last `coldBytes` (rule: cold read 2 MiB). */
function coldWindowStart(size: number, options: TailOptions): number {
  return Math.max(0, size - options.coldBytes);
}

/**
 * Bytes to read at once from `position`: a cold window of at most the design's size in one piece (its lines are
 * split from one buffer, nothing carried across reads), anything longer in chunks.
 */
function readSize(position: number, size: number, cold: boolean): number {
  const rest = size - position;
  return cold && rest <= COLD_READ_BYTES + 1 ? rest : Math.min(READ_CHUNK_BYTES, rest);
}

/** True when nothing about the file moved since the last call (identity, size, modification and change time). */
function unchanged(state: TailState, info: Stats): boolean {
  return sameIdentity(state, fileIdentity(info)) && state.size === info.size && state.mtimeMs === info.mtimeMs && state.ctimeMs === info.ctimeMs;
}

/** Why the next read must start cold, or null when the file only grew (or was touched) since `state`. */
async function coldCause(handle: FileHandle, state: TailState | null, info: Stats): Promise<ColdCause | null> {
  if (state === null) return 'first';
  // Another file at the path (rotation, or a deleted file whose inode number was reused).
  if (!sameIdentity(state, fileIdentity(info))) return 'replaced';
  if (info.size < state.offset) return 'truncated';
  // Truncated and regrown past the offset, or rewritten at the same size: the bytes before the offset differ.
  const now = await readFingerprint(handle, state.offset);
  return now.equals(state.fingerprint) ? null : 'rewritten';
}

/** Reads from `state` on (null = cold, from the last coldBytes) to the end of the open file. */
async function readFrom(
  handle: FileHandle,
  state: TailState | null,
  info: Stats,
  options: TailOptions,
  onLine: (line: string, offset: number) => void,
  cause: ColdCause | null,
): Promise<TailResult> {
  const size = info.size;
  const times = { size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs };
  let position: number;
  let discardHead = false;
  const next: TailState = state === null
    ? { ...fileIdentity(info), offset: 0, pending: Buffer.alloc(0), skippedLines: 0, skippingLongLine: false, ...times, fingerprint: Buffer.alloc(0) }
    : { ...state, ...times };
  if (state === null) {
    const start = await lastLineWindow(handle, coldWindowStart(size, options), size, options.maxLineBytes);
    // Start one byte early: if that byte is a newline, `start` is itself a line boundary (rule 8).
    position = start > 0 ? start - 1 : 0;
    discardHead = start > 0;
  } else {
    position = state.offset;
  }

  const splitter = new LineSplitter(next, options.maxLineBytes, discardHead, onLine, position - next.pending.length);
  let bytesRead = 0;
  // The bytes of the last read stay at hand: the fingerprint is taken from them rather than read again.
  let last = Buffer.alloc(0);
  if (position < size) {
    const chunk = Buffer.allocUnsafe(readSize(position, size, state === null));
    while (position < size) {
      const want = Math.min(chunk.length, size - position);
      const got = await readFully(handle, chunk, want, position);
      if (got === 0) break; // the file shrank while reading; the next call sees it
      bytesRead += got;
      position += got;
      last = chunk.subarray(0, got);
      splitter.push(last, position - got);
    }
  }
  splitter.finish();
  if (state === null || position !== state.offset) {
    const length = Math.min(FINGERPRINT_BYTES, position);
    next.fingerprint = last.length >= length ? Buffer.from(last.subarray(last.length - length)) : await readFingerprint(handle, position);
  }
  next.offset = position;
  return cause === null ? { state: next, cold: false, bytesRead, changed: true } : { state: next, cold: true, bytesRead, changed: true, cause };
}

/** Bytes read per step when looking back for the start of the last line. */
const LOOK_BACK_BYTES = 64 * 1024;

/**
 * Issue 36: where a cold read starts so that it holds the journal's last line whole. The window is the last
 * `coldBytes`, but when the last line is longer than that (a pasted screenshot) its start is looked up further back,
 * within `maxLineBytes` of the end — a last line up to the line bound is read, never dropped as a partial head.
 */
async function lastLineWindow(handle: FileHandle, start: number, size: number, maxLineBytes: number): Promise<number> {
  if (start === 0) return 0;
  const end = size - 1; // a trailing newline ends the last line; it is not its start
  const floor = Math.max(0, size - maxLineBytes - 1);
  const buffer = Buffer.allocUnsafe(LOOK_BACK_BYTES);
  let to = end;
  while (to > floor) {
    const from = Math.max(floor, to - LOOK_BACK_BYTES);
    const got = await readFully(handle, buffer, to - from, from);
    const newline = buffer.subarray(0, got).lastIndexOf(NEWLINE);
    if (newline !== -1) return Math.min(start, from + newline + 1);
    to = from;
  }
  return floor === 0 ? 0 : start;
}

/** Reads up to `want` bytes at `position` into the start of `buffer`, fewer only at the end of the file. */
async function readFully(handle: FileHandle, buffer: Buffer, want: number, position: number): Promise<number> {
  let got = 0;
  while (got < want) {
    const { bytesRead } = await handle.read(buffer, got, want - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got;
}

/** Splits pushed bytes into lines, holding back a partial line and skipping over-long ones without buffering them. */
class LineSplitter {
  private parts: Buffer[] = [];
  private partBytes = 0;

  constructor(
    private readonly state: TailState,
    private readonly maxLineBytes: number,
    private discardHead: boolean,
    private readonly onLine: (line: string, offset: number) => void,
    /** File offset where the line being assembled starts (the held-back fragment's start, when there is one). */
    private lineStart: number,
  ) {
    if (state.pending.length > 0) {
      this.parts.push(state.pending);
      this.partBytes = state.pending.length;
    }
  }

  /** Splits `bytes`, which start at file offset `base`. */
  push(bytes: Buffer, base: number): void {
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(NEWLINE, start);
      const end = newline === -1 ? bytes.length : newline;
      if (this.discardHead || this.state.skippingLongLine) {
        if (newline !== -1) {
          this.discardHead = false;
          this.state.skippingLongLine = false;
        }
      } else if (this.partBytes + (end - start) > this.maxLineBytes) {
        // Over the line bound: count it once and drop everything up to its newline.
        this.state.skippedLines += 1;
        this.parts = [];
        this.partBytes = 0;
        this.state.skippingLongLine = newline === -1;
      } else if (newline === -1) {
        // Copy: the chunk buffer is reused by the next read.
        this.parts.push(Buffer.from(bytes.subarray(start, end)));
        this.partBytes += end - start;
      } else {
        this.emit(bytes, start, end);
      }
      if (newline === -1) break;
      start = newline + 1;
      this.lineStart = base + start;
    }
  }

  /** Stores the held-back fragment, or emits it when it already is a complete JSON object (rule 9). */
  finish(): void {
    // A cold read that found no line boundary yet keeps discarding on the next call (not counted: not a bad line).
    if (this.discardHead) this.state.skippingLongLine = true;
    const fragment = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.partBytes);
    this.parts = [];
    this.partBytes = 0;
    if (fragment.length > 0 && !this.state.skippingLongLine && isCompleteJsonObject(fragment)) {
      this.onLine(fragment.toString('utf8'), this.lineStart);
      this.state.pending = Buffer.alloc(0);
      return;
    }
    this.state.pending = fragment;
  }

  /** Emits the line that ends at `end` of `bytes`, after any fragment held from earlier reads. */
  private emit(bytes: Buffer, start: number, end: number): void {
    if (this.parts.length === 0) {
      // Decoded straight from the read buffer: no copy of the line's bytes first.
      this.onLine(bytes.toString('utf8', start, end), this.lineStart);
      return;
    }
    this.parts.push(bytes.subarray(start, end));
    const whole = Buffer.concat(this.parts, this.partBytes + end - start);
    this.parts = [];
    this.partBytes = 0;
    this.onLine(whole.toString('utf8'), this.lineStart);
  }
}

/** True when the bytes parse as one JSON object; a partly written line never does. */
function isCompleteJsonObject(bytes: Buffer): boolean {
  let first = 0;
  while (first < bytes.length && bytes[first] <= 0x20) first++;
  let last = bytes.length - 1;
  while (last > first && bytes[last] <= 0x20) last--;
  if (bytes[first] !== 0x7b || bytes[last] !== 0x7d) return false;
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
