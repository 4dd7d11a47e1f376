/**
 * Rule 13 (header index): lobby discovery stats every walked rollout and reads its line 1 only when the rollout is
 * new to the index or its size or mtime differs from what the index recorded. The index lives in memory for the
 * reader's life and, when the app hands in an app home, in a file there (./headerIndexFile), so a new start reads no
 * header of an unchanged rollout.
 */
import type { CodexFileSystem, FileFacts } from './fileSystem';
import type { RolloutFile } from './discovery';
import type { CodexHeader, HeaderRead } from './header';
import type { IndexedHeader, IndexedRead } from './headerIndexCodec';
import type { HeaderIndexFile } from './headerIndexFile';
import { mapBounded } from '../kit/concurrency';
import { CODEX_HEADER_CONCURRENCY, CODEX_HEADER_INDEX_ENTRIES, CODEX_STAT_BATCH } from '../kit/bounds';

/** A walked rollout as discovery sees it now: its file facts and line 1 (null while line 1 is still being written). */
export interface IndexedRollout {
  file: RolloutFile;
  facts: FileFacts;
  read: IndexedRead | null;
}

/** The header index of one Codex home: validated per file by size and mtime, written only when it changed. */
export class HeaderIndex {
  private entries: Map<string, IndexedHeader> | null = null;
  /** The file's entries being read, once, by the first discovery. */
  private loading: Promise<void> | null = null;
  /** False until the first discovery has checked every loaded entry against its file. */
  private checked = false;
  /** What the file holds, in its order (paths and the very read objects written), to tell whether a write is due. */
  private saved: { paths: string[]; reads: IndexedRead[] } = { paths: [], reads: [] };
  /** True while the file is of an older version: the next discovery writes it in this one. */
  private stale = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly fs: CodexFileSystem,
    /** The file in the app home; null: the index lives in memory only (a CLI one-off, a test). */
    private readonly file: HeaderIndexFile | null,
    /** Rollouts written to the file, the most recent (walk order) first. */
    private readonly bound: number = CODEX_HEADER_INDEX_ENTRIES,
  ) {}

  /** Line 1 of a rollout as the last discovery found it (for child discovery); nothing before the first discovery. */
  known(path: string): IndexedRead | undefined {
    return this.checked ? this.entries?.get(path)?.read : undefined;
  }

  /** Each walked file, in walk order, with its facts and line 1; null for a file gone or unreadable. Serialised. */
  discover(files: RolloutFile[]): Promise<Array<IndexedRollout | null>> {
    const run = this.queue.then(() => this.discoverNow(files));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async load(): Promise<void> {
    const loaded = this.file ? await this.file.load() : { entries: new Map<string, IndexedHeader>(), stale: false };
    this.entries = loaded.entries;
    this.stale = loaded.stale;
    this.saved = { paths: [...loaded.entries.keys()], reads: Array.from(loaded.entries.values(), (entry) => entry.read) };
  }

  private async discoverNow(files: RolloutFile[]): Promise<Array<IndexedRollout | null>> {
    this.loading ??= this.load();
    await this.loading;
    const entries = this.entries ?? new Map<string, IndexedHeader>();
    // Stats first, synchronous in batches between which other work runs, then line 1 of the new or changed only.
    const found: Array<IndexedRollout | null> = new Array<IndexedRollout | null>(files.length);
    const changed: Array<{ index: number; facts: FileFacts }> = [];
    let unchanged = 0;
    for (let index = 0; index < files.length; index++) {
      if (index > 0 && index % CODEX_STAT_BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
      const file = files[index];
      const now = this.fs.statNow(file.path);
      const known = entries.get(file.path);
      if (!now) {
        entries.delete(file.path); // gone since the walk listed it
        found[index] = null;
      } else if (known && known.size === now.size && known.mtimeMs === now.mtimeMs) {
        found[index] = { file, facts: now, read: known.read };
        unchanged += 1;
      } else {
        changed.push({ index, facts: now });
      }
    }
    // Every walked file was indexed and unchanged, and the index holds nothing else: it is the walk's, in walk order.
    if (unchanged === files.length && entries.size === files.length && !this.stale) {
      this.checked = true;
      return found;
    }
    await mapBounded(changed, CODEX_HEADER_CONCURRENCY, async ({ index, facts }) => {
      found[index] = await this.reread(entries, files[index], facts);
    });
    // Only walked files stay, in walk order: a deleted rollout, or one now beyond the walk's bound, leaves the index.
    const kept = new Map<string, IndexedHeader>();
    for (const file of files) {
      const entry = entries.get(file.path);
      if (entry) kept.set(file.path, entry);
    }
    this.entries = kept;
    this.checked = true;
    if (this.file) await this.saveIfChanged(this.file, kept);
    return found;
  }

  /** Reads line 1 of a rollout new to the index or whose size or mtime changed. */
  private async reread(entries: Map<string, IndexedHeader>, file: RolloutFile, facts: FileFacts): Promise<IndexedRollout | null> {
    const known = entries.get(file.path);
    let read: HeaderRead;
    try {
      ({ read } = await this.fs.readHeader(file.path));
    } catch {
      entries.delete(file.path);
      return null;
    }
    if (read.kind === 'incomplete') {
      entries.delete(file.path); // read again next time, once line 1 is complete
      return { file, facts, read: null };
    }
    // An appended rollout keeps its line 1: the recorded read is kept, so new facts alone never force a write.
    const indexed = known && sameRead(known.read, read) ? known.read : read;
    entries.set(file.path, { size: facts.size, mtimeMs: facts.mtimeMs, read: indexed });
    return { file, facts, read: indexed };
  }

  /**
   * Writes the most recent `bound` entries when a rollout came, went, or its line 1 changed; at most once a call.
   * A failed write (logged by the file) is not retried until something changes again.
   */
  private async saveIfChanged(file: HeaderIndexFile, entries: Map<string, IndexedHeader>): Promise<void> {
    const written: Array<[string, IndexedHeader]> = [];
    const { paths, reads } = this.saved;
    let changed = this.stale;
    for (const [path, entry] of entries) {
      if (written.length >= this.bound) break;
      // Both lists are in walk order, so a rollout that came or went shifts every later one: compared in place.
      if (paths[written.length] !== path || reads[written.length] !== entry.read) changed = true;
      written.push([path, entry]);
    }
    if (!changed && written.length === paths.length) return;
    this.stale = false;
    await file.save(written);
    this.saved = { paths: written.map(([path]) => path), reads: written.map(([, entry]) => entry.read) };
  }

}

function sameRead(left: IndexedRead, right: HeaderRead): boolean {
  if (left.kind !== 'header' || right.kind !== 'header') return left.kind === right.kind;
  return sameHeader(left.header, right.header);
}

function sameHeader(left: CodexHeader, right: CodexHeader): boolean {
  const keys = Object.keys(left) as Array<keyof CodexHeader>;
  return keys.length === Object.keys(right).length && keys.every((key) => left[key] === right[key]);
}
