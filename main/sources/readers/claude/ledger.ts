/**
 * The background pass (issue 26): whole-session Claude totals without whole-file reads on the hot path. Each
 * journal a seat looks up is read from its start once, at most one file at a time, yielding to the event loop
 * between 1 MiB chunks; afterwards only appended bytes are read. A checkpoint in the app home keeps each file's
 * identity, offset and running fold, so a restart resumes where the pass stood, never counting a byte twice. A
 * replaced, truncated or rewritten file restarts its entry from zero.
 */
import { type FileHandle } from 'node:fs/promises';
import { openRegular } from '../kit/openRegular';
import { readSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileIdentity, sameIdentity } from '../tail';
import { parseRecord } from './parseLine';
import { FINGERPRINT_BYTES, MAX_LINE_BYTES } from '../kit/bounds';
import { USAGE_CHECKPOINT_FILES, USAGE_PASS_CHUNK_BYTES, USAGE_RESTAT_FILES, USAGE_RESTAT_MS } from '../../../kit/usage/bounds';
import { CHECKPOINT_FILE, loadCheckpoint, saveCheckpoint, type CheckpointEntry } from './checkpoint';
import { createClaudeUsage, foldClaudeUsage, foldUsageFacts, type ClaudeUsageFold } from './usageFold';
import { scanUsageLine } from './scanLine';
import { SessionFiles } from './sessionFiles';
import { FlatAgents } from './flatAgents';

/** What the ledger knows of one journal: its fold so far and whether it covers the file as last seen. */
export interface LedgerView {
  fold: ClaudeUsageFold;
  /** Bytes read so far (a line boundary): a change tells a caller its cached answer is stale. */
  offset: number;
  /** True once the pass has read up to the file's size as last seen (totals are whole, not partial). */
  done: boolean;
}

/** Options of the ledger; without `appHome` the checkpoint lives in memory only (a CLI one-off, a test). */
export interface UsageLedgerOptions {
  appHome?: string;
  log?: (message: string) => void;
  /** Bytes per chunk (the design's 1 MiB by default; tests give a small one to stop mid-pass). */
  chunkBytes?: number;
}

interface Tracked {
  entry: CheckpointEntry | null;
  /** File size when last seen (stat or the reader's tail); the pass is done when the entry's offset reaches it. */
  size: number | null;
  missing: boolean;
}

const USAGE = Buffer.from('"usage"');
/** The least time between two checkpoint writes while passes run (dispose always writes). */
const CHECKPOINT_SAVE_MS = 5_000;
const NEWLINE = 0x0a;

/** The ledger of whole-session usage per journal. */
export class UsageLedger {
  private readonly files = new Map<string, Tracked>();
  private readonly queue = new Set<string>();
  private readonly file: string | null;
  private readonly log: (message: string) => void;
  private readonly chunkBytes: number;
  private loaded: Promise<void>;
  private pumping: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** When the checkpoint was last written, and the write waiting for the interval to pass. */
  private savedAt = 0;
  private saveTimer: NodeJS.Timeout | null = null;
  private disposed = false;
  /** Where the next restat tick starts in the tracked files. */
  private restatCursor = 0;
  /** Bytes the pass has read (for the benchmark and tests). */
  bytesRead = 0;
  /** Moves whenever anything a lookup answers may have changed: a caller's cached answer is stale when it moved. */
  version = 0;
  /** Folds seats counted from, by project folder and file (rule U8 across sessions). */
  private readonly shared = new Map<string, Map<string, { fold: ClaudeUsageFold; messages: number }>>();
  /** Sessions' subagent files; a new listing starts the pass of each file it found (issue 37). */
  private readonly sessions = new SessionFiles((files) => {
    this.version += 1;
    for (const file of files) this.lookup(file);
  });

  /** Flat subagent files (2.0.24–2.1.1) by owning session; a change starts the pass of each file it found (issue 37). */
  private readonly flat = new FlatAgents((files) => {
    this.version += 1;
    for (const file of files) this.lookup(file);
  });

  constructor(options: UsageLedgerOptions = {}) {
    this.file = options.appHome ? path.join(options.appHome, CHECKPOINT_FILE) : null;
    this.log = options.log ?? ((message) => console.error(message));
    this.chunkBytes = options.chunkBytes ?? USAGE_PASS_CHUNK_BYTES;
    this.loaded = this.file ? this.load(this.file) : Promise.resolve();
  }

  private async load(file: string): Promise<void> {
    for (const entry of await loadCheckpoint(file, this.log)) this.files.set(entry.path, { entry, size: null, missing: false });
  }

  /**
   * What the ledger has for a journal, without I/O; starts tracking it (its pass is queued) when new. `size` is the
   * file's size when the caller knows it (the reader's tail): more than the ledger has read queues the appended bytes.
   * Null while nothing is read yet; 'missing' when the file is not there.
   */
  lookup(file: string, size: number | null = null): LedgerView | 'missing' | null {
    let tracked = this.files.get(file);
    if (!tracked) {
      tracked = { entry: null, size, missing: false };
      this.files.set(file, tracked);
      this.enqueue(file);
      this.version += 1;
    } else if (size !== null && size !== tracked.size) {
      tracked.size = size;
      this.version += 1;
      if (tracked.entry === null || tracked.entry.offset !== size) this.enqueue(file);
    } else if (tracked.size === null && !this.queue.has(file)) this.enqueue(file);
    this.startTimer();
    if (tracked.missing) return 'missing';
    if (tracked.entry === null) return null;
    return { fold: tracked.entry.fold, offset: tracked.entry.offset, done: tracked.size !== null && tracked.entry.offset >= tracked.size && !this.queue.has(file) };
  }

  /** The subagent journals under a session's `subagents/` folder, without I/O; null while its first listing runs. */
  sessionFiles(folder: string): readonly string[] | null {
    return this.disposed ? [] : this.sessions.files(folder);
  }

  /**
   * Shares the folds a seat counted from (its journal, subagent and flat files) under the project folder, so a
   * session of the same folder counts a message another one holds once (rule U8 across a resumed session's
   * journals); moves `version` when a file's fold or its number of messages changed.
   */
  share(folder: string, parts: readonly { file: string; fold: ClaudeUsageFold }[]): void {
    let shared = this.shared.get(folder);
    if (!shared) this.shared.set(folder, (shared = new Map()));
    for (const { file, fold } of parts) {
      const known = shared.get(file);
      if (known?.fold === fold && known.messages === fold.copies.size) continue;
      shared.set(file, { fold, messages: fold.copies.size });
      this.version += 1;
    }
  }

  /** The shared files of a project folder other than `own`, and a key that moves when any of them counted more. */
  peers(folder: string, own: ReadonlySet<string>): { parts: { file: string; fold: ClaudeUsageFold }[]; key: string } {
    const parts: { file: string; fold: ClaudeUsageFold }[] = [];
    let messages = 0;
    for (const [file, known] of this.shared.get(folder) ?? []) {
      if (own.has(file)) continue;
      parts.push({ file, fold: known.fold });
      messages += known.fold.copies.size;
    }
    return { parts, key: `${parts.length}:${messages}` };
  }

  /** The flat agent files beside a session's journal in `folder` that the session owns; null while the first listing runs. */
  flatFiles(folder: string, sessionId: string): readonly string[] | null {
    return this.disposed ? [] : this.flat.files(folder, sessionId);
  }

  /** Resolves once every listing and every queued pass is done (tests, the CLI and the benchmark wait on it). */
  async idle(): Promise<void> {
    await this.loaded;
    await this.sessions.settled();
    await this.flat.settled();
    while (this.pumping) await this.pumping;
  }

  /** Stops the timer and writes the checkpoint. */
  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    await this.pumping?.catch(() => undefined);
    await this.save();
  }

  private enqueue(file: string): void {
    this.queue.add(file);
    if (!this.pumping && !this.disposed) this.pumping = this.pump().finally(() => (this.pumping = null));
  }

  private startTimer(): void {
    if (this.timer || this.disposed) return;
    // Files the pass finished are looked at again now and then for appended bytes (one stat each).
    this.timer = setInterval(() => this.restat(), USAGE_RESTAT_MS);
    this.timer.unref();
  }

  private restat(): void {
    this.sessions.refresh();
    this.flat.refresh();
    // At most USAGE_RESTAT_FILES stats a tick, in turn (a session may hold hundreds of finished subagent files).
    const files = [...this.files.entries()];
    const count = Math.min(files.length, USAGE_RESTAT_FILES);
    for (let step = 0; step < count; step += 1) {
      const [file, tracked] = files[(this.restatCursor + step) % files.length];
      try {
        const size = statSync(file).size;
        if (tracked.missing) this.version += 1;
        tracked.missing = false;
        if (size !== tracked.size || tracked.entry?.offset !== size) {
          tracked.size = size;
          this.version += 1;
          if (tracked.entry?.offset !== size) this.enqueue(file);
        }
      } catch {
        if (!tracked.missing) this.version += 1;
        tracked.missing = true;
      }
    }
    this.restatCursor = files.length === 0 ? 0 : (this.restatCursor + count) % files.length;
  }

  /** One file at a time, until the queue is empty. */
  private async pump(): Promise<void> {
    await this.loaded;
    while (this.queue.size > 0 && !this.disposed) {
      const file = this.queue.values().next().value as string;
      this.queue.delete(file);
      try {
        await this.pass(file);
      } catch (error) {
        const tracked = this.files.get(file);
        if (tracked) tracked.missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      }
      this.version += 1;
    }
    this.saveSoon();
  }

  /** Reads one journal from its checkpoint offset to its end, chunk by chunk. */
  private async pass(file: string): Promise<void> {
    const tracked = this.files.get(file);
    if (!tracked) return;
    const handle = await openRegular(file);
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw Object.assign(new Error('not a file'), { code: 'ENOENT' });
      tracked.missing = false;
      tracked.size = info.size;
      const identity = fileIdentity(info);
      let entry = tracked.entry;
      // A replaced, truncated or rewritten file restarts its checkpoint.
      if (!entry || !sameIdentity(entry, identity) || info.size < entry.offset || (await fingerprint(handle, entry.offset)) !== entry.fingerprint) {
        entry = { path: file, ...identity, offset: 0, fingerprint: '', fold: createClaudeUsage() };
        tracked.entry = entry;
      }
      await this.readFrom(handle, entry, info.size);
    } finally {
      await handle.close();
    }
  }

  private async readFrom(handle: FileHandle, entry: CheckpointEntry, size: number): Promise<void> {
    const buffer = Buffer.allocUnsafe(this.chunkBytes);
    let position = entry.offset;
    /** Pieces of a line that began in an earlier chunk (joined once it ends); `skipping` while an over-long one is passed over. */
    let pending: Buffer[] | null = null;
    let pendingBytes = 0;
    let skipping = false;
    /** True when the over-long line being passed over holds usage (it is then counted as skipped). */
    let skippedUsage = false;
    let sinceSave = 0;
    while (position < size && !this.disposed) {
      // A synchronous read of one chunk (a fraction of a millisecond from the page cache): a pooled read waits for a
      // thread and then for the event loop, which on a busy machine took longer than the chunk's work.
      const bytesRead = readSync(handle.fd, buffer, 0, Math.min(this.chunkBytes, size - position), position);
      if (bytesRead === 0) break;
      this.bytesRead += bytesRead;
      const chunk = buffer.subarray(0, bytesRead);
      let start = 0;
      if (pending !== null || skipping) {
        const newline = chunk.indexOf(NEWLINE);
        const piece = newline < 0 ? chunk : chunk.subarray(0, newline);
        if (skipping) skippedUsage ||= piece.includes(USAGE);
        else {
          pending!.push(Buffer.from(piece));
          pendingBytes += piece.length;
          if (pendingBytes > MAX_LINE_BYTES) {
            // An over-long line is passed over, as the tail does (MAX_LINE_BYTES); one that holds usage is counted.
            skippedUsage = pending!.some((part) => part.includes(USAGE));
            pending = null;
            pendingBytes = 0;
            skipping = true;
          }
        }
        if (newline < 0) {
          position += bytesRead;
          // Issue 36: the pass yields inside a long line too, so a 40 MB line never holds the host.
          await new Promise<void>((resolve) => setImmediate(resolve));
          continue;
        }
        if (!skipping && pending) foldBytes(entry.fold, Buffer.concat(pending));
        if (skipping && skippedUsage) entry.fold.main.skipped += 1;
        skipping = false;
        skippedUsage = false;
        pending = null;
        pendingBytes = 0;
        start = newline + 1;
      }
      const end = chunk.lastIndexOf(NEWLINE);
      // Only lines that hold "usage" are decoded and parsed; every other line is passed over in the buffer.
      let at = start;
      while (at <= end) {
        const hit = chunk.indexOf(USAGE, at);
        if (hit < 0 || hit > end) break;
        const lineStart = chunk.lastIndexOf(NEWLINE, hit) + 1;
        const lineEnd = chunk.indexOf(NEWLINE, hit);
        foldBytes(entry.fold, chunk.subarray(Math.max(lineStart, start), lineEnd));
        at = lineEnd + 1;
      }
      // The bytes after the chunk's last newline begin a line the next chunk ends.
      if (end + 1 < bytesRead && end >= start - 1) {
        pending = [Buffer.from(chunk.subarray(Math.max(end + 1, start)))];
        pendingBytes = pending[0].length;
      }
      position += bytesRead;
      entry.offset = position - pendingBytes;
      this.version += 1;
      sinceSave += bytesRead;
      if (sinceSave >= 64 * this.chunkBytes) {
        sinceSave = 0;
        entry.fingerprint = await fingerprint(handle, entry.offset);
        this.saveSoon();
      }
      // Yield between chunks: the census, the page's updates and IPC run in between.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    entry.fingerprint = await fingerprint(handle, entry.offset);
  }

  /**
   * Writes the checkpoint now, or once CHECKPOINT_SAVE_MS passed since the last write: a fleet appending all the time
   * ends a pass several times a second, and the whole checkpoint (every tracked file) was written at each end.
   * Only a crash can lose the writes waiting; they are read again from the last checkpoint.
   */
  private saveSoon(): void {
    if (!this.file || this.disposed || this.saveTimer) return;
    const wait = Math.max(0, this.savedAt + CHECKPOINT_SAVE_MS - Date.now());
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      if (!this.disposed) void this.save();
    }, wait);
    this.saveTimer.unref?.();
  }

  private async save(): Promise<void> {
    if (!this.file) return;
    this.savedAt = Date.now();
    const entries = [...this.files.values()].map((tracked) => tracked.entry).filter((entry): entry is CheckpointEntry => entry !== null);
    try {
      await saveCheckpoint(this.file, entries.slice(-USAGE_CHECKPOINT_FILES));
    } catch (error) {
      this.log(`pixelfleet: the usage checkpoint could not be written (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
    }
  }
}

function foldBytes(fold: ClaudeUsageFold, line: Buffer): void {
  if (line.indexOf(USAGE) < 0) return;
  const text = line.toString('utf8');
  // The scan reads the few facts without parsing the whole line; a line it cannot read is parsed in full.
  const facts = scanUsageLine(text);
  if (facts) return foldUsageFacts(fold, facts);
  const record = parseRecord(text);
  if (record !== null && record !== 'invalid') foldClaudeUsage(fold, record);
}

async function fingerprint(handle: FileHandle, offset: number): Promise<string> {
  const length = Math.min(FINGERPRINT_BYTES, offset);
  if (length === 0) return '';
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, offset - length);
  return buffer.subarray(0, bytesRead).toString('hex');
}
