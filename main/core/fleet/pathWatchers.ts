/**
 * The watches behind live updates: a path that exists is watched with one plain fs.watch (a file's own changes, a
 * folder's entries), which costs nothing per event; a path that does not exist yet (a journal not yet written) is left
 * to chokidar, which waits for it to appear. chokidar would also list a watched folder again and stat each file on
 * every event — at 100 agents that was a seventh of the host's time.
 */
import { statSync, watch as watchPath, type FSWatcher as PathWatch } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';

/** Paths an event names (null: it named none that is known, so everything may have changed). */
export type ChangeListener = (paths: readonly string[] | null) => void;

/** One set of watched paths, kept equal to the wanted set by `set`. */
export class PathWatchers {
  private readonly own = new Map<string, PathWatch>();
  private readonly waiting = new Set<string>();
  private absent: FSWatcher | null = null;
  private closed = false;

  constructor(
    private readonly onChange: ChangeListener,
    private readonly log?: (message: string) => void,
  ) {}

  /** Watches exactly `wanted`: new paths are added, paths no longer wanted are let go. */
  set(wanted: ReadonlySet<string>): void {
    if (this.closed) return;
    for (const [path, handle] of this.own) {
      if (!wanted.has(path)) {
        handle.close();
        this.own.delete(path);
      }
    }
    const leave = [...this.waiting].filter((path) => !wanted.has(path));
    for (const path of leave) this.waiting.delete(path);
    if (leave.length) this.absent?.unwatch(leave);
    const wait: string[] = [];
    const appeared: string[] = [];
    for (const path of wanted) {
      if (this.own.has(path)) continue;
      const kind = kindOf(path);
      if (kind === null) {
        if (!this.waiting.has(path)) wait.push(path);
        continue;
      }
      if (this.waiting.delete(path)) appeared.push(path);
      this.watchExisting(path, kind);
    }
    if (appeared.length) this.absent?.unwatch(appeared);
    if (wait.length) {
      for (const path of wait) this.waiting.add(path);
      this.absentWatcher().add(wait);
    }
  }

  /** How many paths are watched (by either means). */
  get size(): number {
    return this.own.size + this.waiting.size;
  }

  /** Stops every watch. */
  async close(): Promise<void> {
    this.closed = true;
    for (const handle of this.own.values()) handle.close();
    this.own.clear();
    this.waiting.clear();
    await this.absent?.close();
  }

  private watchExisting(path: string, kind: 'file' | 'folder'): void {
    let handle: PathWatch;
    try {
      handle = watchPath(path, { persistent: true }, (event, name) => {
        if (kind === 'file') {
          // A file replaced or removed: this watch follows the old file, so it is let go and set again at the next sync.
          if (event === 'rename') this.drop(path, handle);
          this.onChange([path]);
          return;
        }
        const entry = typeof name === 'string' && name !== '' ? join(path, name) : null;
        // An entry that appeared or went changes the folder's listing too (a Codex parent's new child).
        this.onChange(entry === null ? [path] : event === 'rename' ? [entry, path] : [entry]);
      });
    } catch (error) {
      this.log?.(`pixelfleet: cannot watch ${path}: ${String(error)}`);
      return;
    }
    handle.on('error', () => {
      this.drop(path, handle);
      this.onChange([path, dirname(path)]);
    });
    this.own.set(path, handle);
  }

  private drop(path: string, handle: PathWatch): void {
    handle.close();
    if (this.own.get(path) === handle) this.own.delete(path);
  }

  /** chokidar, for paths that do not exist yet: it reports them when they appear (and the next sync watches them). */
  private absentWatcher(): FSWatcher {
    if (this.absent) return this.absent;
    const absent = watch([], { ignoreInitial: true, depth: 0, persistent: true, awaitWriteFinish: false });
    absent.on('all', (_event, path) => this.onChange(typeof path === 'string' ? [path, dirname(path)] : null));
    absent.on('raw', (_event, name, details) => {
      const watched = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
      if (typeof watched !== 'string') return this.onChange(null);
      this.onChange(typeof name === 'string' && name !== '' && name !== basename(watched) ? [join(watched, name), watched] : [watched]);
    });
    absent.on('error', (error) => this.log?.(`pixelfleet: file watcher: ${String(error)}`));
    this.absent = absent;
    return absent;
  }
}

function kindOf(path: string): 'file' | 'folder' | null {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'file';
  } catch {
    return null;
  }
}
