/**
 * Rule 13 (header index): lobby discovery stats every walked rollout and reads its line 1 only when the rollout is
 * new to the index or its size or mtime differs from what the index recorded. The index lives in memory for the
 * reader's life and, when the app hands in an app home, in a file there (./headerIndexFile), so a new start reads no
 * header of an unchanged rollout.
 */
import { join, sep } from 'node:path';
import type { CodexFileSystem, FileFacts } from './fileSystem';
import type { RolloutFile } from './discovery';
import type { CodexHeader, HeaderRead } from './header';
import type { IndexedHeader, IndexedRead, IndexedRollouts } from './headerIndexRows';
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
  /** The indexed rollouts in walk order (as the file holds them until a discovery finds a change). */
  private rollouts: IndexedRollouts = { paths: [], entries: [] };
  /** The same entries by path under `sessions/`, built when a lookup out of walk order first needs it. */
  private byPath: Map<string, IndexedHeader> | null = null;
  /** The file's rollouts being read, once, by the first discovery. */
  private loading: Promise<void> | null = null;
  /** False until the first discovery has checked every loaded entry against its file. */
  private checked = false;
  /** What the file holds, in its order (paths and the very read objects written), to tell whether a write is due. */
  private saved: { paths: string[]; reads: IndexedRead[] } = { paths: [], reads: [] };
  /** True while the file is of an older version: the next discovery writes it in this one. */
  private stale = false;
  private queue: Promise<unknown> = Promise.resolve();
  /** `<home>/sessions/`: a walked path is this and a path of the index. */
  private readonly sessions: string;

  constructor(
    private readonly fs: CodexFileSystem,
    home: string,
    /** The file in the app home; null: the index lives in memory only (a CLI one-off, a test). */
    private readonly file: HeaderIndexFile | null,
    /** Rollouts written to the file, the most recent (walk order) first. */
    private readonly bound: number = CODEX_HEADER_INDEX_ENTRIES,
  ) {
    this.sessions = join(home, 'sessions') + sep;
  }

  /** Line 1 of a rollout as the last discovery found it (for child discovery); nothing before the first discovery. */
  known(path: string): IndexedRead | undefined {
    return this.checked ? this.lookup(path)?.read : undefined;
  }

  /** Each walked file, in walk order, with its facts and line 1; null for a file gone or unreadable. Serialised. */
  discover(files: RolloutFile[]): Promise<Array<IndexedRollout | null>> {
    const run = this.queue.then(() => this.discoverNow(files));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async load(): Promise<void> {
    if (!this.file) return;
    const loaded = await this.file.load();
    this.rollouts = loaded.rollouts;
    this.stale = loaded.stale;
    this.saved = { paths: loaded.rollouts.paths, reads: loaded.rollouts.entries.map((entry) => entry.read) };
  }

  private async discoverNow(files: RolloutFile[]): Promise<Array<IndexedRollout | null>> {
    this.loading ??= this.load();
    await this.loading;
    const { paths, entries } = this.rollouts;
    // Stats first, synchronous in batches between which other work runs, then line 1 of the new or changed only.
    const found: Array<IndexedRollout | null> = new Array<IndexedRollout | null>(files.length);
    /** Per walked file, the entry it keeps (unchanged) or null (gone, or to be read again). */
    const kept: Array<IndexedHeader | null> = new Array<IndexedHeader | null>(files.length).fill(null);
    const changed: Array<{ index: number; facts: FileFacts; known: IndexedHeader | undefined }> = [];
    let unchanged = 0;
    for (let index = 0; index < files.length; index++) {
      if (index > 0 && index % CODEX_STAT_BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
      const file = files[index];
      const now = this.fs.statNow(file.path);
      if (!now) {
        found[index] = null; // gone since the walk listed it
        continue;
      }
      // The index is in walk order: while no rollout came or went, walked file N is entry N (no lookup, no key).
      const under = index < paths.length ? paths[index] : '';
      const atIndex = under !== '' && file.path.length === this.sessions.length + under.length && file.path.endsWith(under) && file.path.startsWith(this.sessions);
      const known = atIndex ? entries[index] : this.lookup(file.path);
      if (known && known.size === now.size && known.mtimeMs === now.mtimeMs) {
        found[index] = { file, facts: now, read: known.read };
        kept[index] = known;
        unchanged += 1;
      } else {
        changed.push({ index, facts: now, known });
      }
    }
    // Every walked file was indexed and unchanged, and the index holds nothing else: it stays as it is.
    if (unchanged === files.length && paths.length === files.length && !this.stale) {
      this.checked = true;
      return found;
    }
    await mapBounded(changed, CODEX_HEADER_CONCURRENCY, async ({ index, facts, known }) => {
      const again = await this.reread(files[index], facts, known);
      found[index] = again.rollout;
      kept[index] = again.entry;
    });
    // Only walked files stay, in walk order: a deleted rollout, or one now beyond the walk's bound, leaves the index.
    const next: IndexedRollouts = { paths: [], entries: [] };
    for (let index = 0; index < files.length; index++) {
      const entry = kept[index];
      if (!entry) continue;
      next.paths.push(files[index].path.slice(this.sessions.length));
      next.entries.push(entry);
    }
    this.rollouts = next;
    this.byPath = null;
    this.checked = true;
    if (this.file) await this.saveIfChanged(this.file, next);
    return found;
  }

  /** The entry of a walked path, by its path under `sessions/`. */
  private lookup(path: string): IndexedHeader | undefined {
    if (!path.startsWith(this.sessions)) return undefined;
    if (!this.byPath) {
      const { paths, entries } = this.rollouts;
      this.byPath = new Map(paths.map((under, index) => [under, entries[index]]));
    }
    return this.byPath.get(path.slice(this.sessions.length));
  }

  /** Reads line 1 of a rollout new to the index or whose size or mtime changed; `entry` is what the index keeps. */
  private async reread(file: RolloutFile, facts: FileFacts, known: IndexedHeader | undefined): Promise<{ rollout: IndexedRollout | null; entry: IndexedHeader | null }> {
    let read: HeaderRead;
    try {
      ({ read } = await this.fs.readHeader(file.path));
    } catch {
      return { rollout: null, entry: null };
    }
    // Read again next time, once line 1 is complete.
    if (read.kind === 'incomplete') return { rollout: { file, facts, read: null }, entry: null };
    // An appended rollout keeps its line 1: the recorded read is kept, so new facts alone never force a write.
    const indexed = known && sameRead(known.read, read) ? known.read : read;
    return { rollout: { file, facts, read: indexed }, entry: { size: facts.size, mtimeMs: facts.mtimeMs, read: indexed } };
  }

  /**
   * Writes the most recent `bound` entries when a rollout came, went, or its line 1 changed; at most once a call.
   * A failed write (logged by the file) is not retried until something changes again.
   */
  private async saveIfChanged(file: HeaderIndexFile, rollouts: IndexedRollouts): Promise<void> {
    const count = Math.min(rollouts.paths.length, this.bound);
    const written: IndexedRollouts = { paths: rollouts.paths.slice(0, count), entries: rollouts.entries.slice(0, count) };
    const reads = written.entries.map((entry) => entry.read);
    // Both lists are in walk order, so a rollout that came or went shifts every later one: compared in place.
    const same = count === this.saved.paths.length && written.paths.every((path, index) => path === this.saved.paths[index] && reads[index] === this.saved.reads[index]);
    if (same && !this.stale) return;
    this.stale = false;
    await file.save(written);
    this.saved = { paths: written.paths, reads };
  }
}

function sameRead(left: IndexedRead, right: HeaderRead): boolean {
  if (left.kind !== 'header' || right.kind !== 'header') return left.kind === right.kind;
  return sameHeader(left.header, right.header);
}

function sameHeader(left: CodexHeader, right: CodexHeader): boolean {
  // The index does not keep `cliVersion` (only a seat's own header read uses it), so it is not compared.
  const keys = (Object.keys(left) as Array<keyof CodexHeader>).filter((key) => key !== 'cliVersion');
  return keys.length === Object.keys(right).filter((key) => key !== 'cliVersion').length && keys.every((key) => left[key] === right[key]);
}
