/**
 * The watches behind live updates, one plain fs.watch per path: a file's own changes, a folder's entries. A path that
 * does not exist yet (a journal not yet written) is waited for by watching its nearest existing folder, and reported
 * when it (or a folder on the way to it) appears; the next `set` then watches it as it is. A general-purpose watcher
 * would also list a watched folder again and stat each file on every event — at 100 agents, a seventh of the host's
 * time.
 */
import { statSync, watch as watchPath, type FSWatcher as PathWatch } from 'node:fs';
import { dirname, join, sep } from 'node:path';

/** Paths an event names (null: it named none that is known, so everything may have changed). */
export type ChangeListener = (paths: readonly string[] | null) => void;

/** A folder watched on behalf of paths under it that do not exist yet. */
interface Waiting {
  handle: PathWatch;
  paths: Set<string>;
}

/** One set of watched paths, kept equal to the wanted set by `set`. */
export class PathWatchers {
  private readonly own = new Map<string, PathWatch>();
  /** Paths not yet there, by the existing folder watched for them. */
  private readonly waiting = new Map<string, Waiting>();
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
    // Waits are worked out afresh (a path may have appeared, or a folder on its way); a folder still waited on keeps
    // its watch.
    const waits = new Map<string, Set<string>>();
    for (const path of wanted) {
      if (this.own.has(path)) continue;
      const kind = kindOf(path);
      if (kind !== null) this.watchExisting(path, kind);
      else {
        const folder = nearestFolder(path);
        waits.set(folder, (waits.get(folder) ?? new Set()).add(path));
      }
    }
    for (const [folder, entry] of this.waiting) {
      if (waits.has(folder)) continue;
      entry.handle.close();
      this.waiting.delete(folder);
    }
    for (const [folder, paths] of waits) this.waitIn(folder, paths);
  }

  /** How many paths are watched or waited for. */
  get size(): number {
    let waiting = 0;
    for (const entry of this.waiting.values()) waiting += entry.paths.size;
    return this.own.size + waiting;
  }

  /** Stops every watch. */
  close(): void {
    this.closed = true;
    for (const handle of this.own.values()) handle.close();
    for (const entry of this.waiting.values()) entry.handle.close();
    this.own.clear();
    this.waiting.clear();
  }

  private watchExisting(path: string, kind: 'file' | 'folder'): void {
    const handle = this.open(path, (event, name) => {
      if (kind === 'file') {
        // A file replaced or removed: this watch follows the old file, so it is let go and set again at the next sync.
        if (event === 'rename' && handle) this.drop(path, handle);
        this.onChange([path]);
        return;
      }
      const entry = name ? join(path, name) : null;
      // An entry that appeared or went changes the folder's listing too (a Codex parent's new child).
      this.onChange(entry === null ? [path] : event === 'rename' ? [entry, path] : [entry]);
    });
    if (handle) this.own.set(path, handle);
  }

  /** Watches `folder` for the paths under it that do not exist yet; only entries on the way to one are reported. */
  private waitIn(folder: string, paths: Set<string>): void {
    const known = this.waiting.get(folder);
    if (known) {
      known.paths = paths;
      return;
    }
    const handle = this.open(folder, (_event, name) => {
      const waited = this.waiting.get(folder);
      if (!waited) return;
      const changed = name ? join(folder, name) : null;
      const named = [...waited.paths].filter((path) => changed === null || path === changed || path.startsWith(changed + sep));
      if (named.length > 0) this.onChange([...named, ...named.map(dirname)]);
    });
    if (handle) this.waiting.set(folder, { handle, paths });
  }

  private open(path: string, listener: (event: string, name: string | null) => void): PathWatch | null {
    let handle: PathWatch;
    try {
      handle = watchPath(path, { persistent: true }, (event, name) => listener(event, typeof name === 'string' && name !== '' ? name : null));
    } catch (error) {
      this.log?.(`pixelfleet: cannot watch ${path}: ${String(error)}`);
      return null;
    }
    handle.on('error', () => {
      this.drop(path, handle);
      this.onChange([path, dirname(path)]);
    });
    return handle;
  }

  private drop(path: string, handle: PathWatch): void {
    handle.close();
    if (this.own.get(path) === handle) this.own.delete(path);
    const waited = this.waiting.get(path);
    if (waited?.handle === handle) this.waiting.delete(path);
  }
}

/** The nearest folder above `path` that exists (the root at worst). */
function nearestFolder(path: string): string {
  let folder = dirname(path);
  while (kindOf(folder) !== 'folder' && dirname(folder) !== folder) folder = dirname(folder);
  return folder;
}

function kindOf(path: string): 'file' | 'folder' | null {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'file';
  } catch {
    return null;
  }
}
