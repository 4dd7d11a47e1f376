/**
 * Finding rollouts under `<home>/sessions/YYYY/MM/DD/`: the bounded walk (4,096 newest files, newest date folders
 * first), a header cache, and the per-parent child index (≤ 64 children, ≤ 32 parents) with its invalidation rules.
 */
import { join, sep } from 'node:path';
import { type CodexFileSystem } from './fileSystem';
import { type CodexHeader, type HeaderRead } from './header';
import { mapBounded } from '../kit/concurrency';
import { CODEX_CHILDREN, CODEX_HEADER_CACHE, CODEX_HEADER_CONCURRENCY, CODEX_HEADERS, CODEX_PARENTS, CODEX_RECHECK_MS, CODEX_WALK_SLICE_MS } from '../kit/bounds';


const YEAR = /^\d{4}$/;
const MONTH_OR_DAY = /^\d{2}$/;
const ROLLOUT = /^rollout-.*\.jsonl$/;

/** One rollout file found by the walk. */
export interface RolloutFile {
  path: string;
  name: string;
  dayFolder: string;
}

/** The result of a walk: files newest first, the newest folder chain, and how many directories were read. */
export interface Walk {
  files: RolloutFile[];
  /** sessions/, newest year, newest month and newest day folder (where a new rollout would appear). */
  newestChain: string[];
}

/** Lists the newest rollout files, newest date folders first, stopping at `limit`. */
export async function walkRollouts(fs: CodexFileSystem, home: string, limit = CODEX_HEADERS): Promise<Walk> {
  const files: RolloutFile[] = [];
  const newestChain: string[] = [join(home, 'sessions')];
  for await (const { yearFolder, monthFolder, dayFolder } of dayFolders(fs, home)) {
    if (newestChain.length === 1) newestChain.push(yearFolder, monthFolder, dayFolder);
    // File names start with the local creation time, so a reverse name sort is newest first.
    for (const name of listNames(fs, dayFolder, ROLLOUT)) {
      // `join` would normalise again what is already normal (a listed name holds no separator); 4,096 times.
      files.push({ path: `${dayFolder}${sep}${name}`, name, dayFolder });
      if (files.length >= limit) return { files, newestChain };
    }
  }
  return { files, newestChain };
}

/**
 * Rollout files whose name ends with `-<thread id>.jsonl`, newest date folders first, stopping at the first day
 * that holds one. Names only (directory listings), and no file bound: an old session still on disk is found.
 */
export async function findRolloutsNamed(fs: CodexFileSystem, home: string, threadId: string): Promise<RolloutFile[]> {
  const suffix = `-${threadId}.jsonl`;
  for await (const { dayFolder } of dayFolders(fs, home)) {
    const names = listNames(fs, dayFolder, ROLLOUT).filter((name) => name.endsWith(suffix));
    if (names.length > 0) return names.map((name) => ({ path: join(dayFolder, name), name, dayFolder }));
  }
  return [];
}

/**
 * The day folders under `sessions/`, newest first, each with its month and year folder. Listings are synchronous
 * (./fileSystem), so once the walk has listed for `CODEX_WALK_SLICE_MS` it lets other work run before going on.
 */
async function* dayFolders(fs: CodexFileSystem, home: string): AsyncGenerator<{ yearFolder: string; monthFolder: string; dayFolder: string }> {
  const sessions = join(home, 'sessions');
  let sliceStart = performance.now();
  for (const year of listNames(fs, sessions, YEAR)) {
    const yearFolder = join(sessions, year);
    for (const month of listNames(fs, yearFolder, MONTH_OR_DAY)) {
      const monthFolder = join(yearFolder, month);
      for (const day of listNames(fs, monthFolder, MONTH_OR_DAY)) {
        if (performance.now() - sliceStart >= CODEX_WALK_SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          sliceStart = performance.now();
        }
        yield { yearFolder, monthFolder, dayFolder: join(monthFolder, day) };
      }
    }
  }
}

function listNames(fs: CodexFileSystem, folder: string, pattern: RegExp): string[] {
  try {
    return fs.readdirNow(folder).filter((name) => pattern.test(name)).sort().reverse();
  } catch {
    return []; // a missing or unreadable folder holds nothing
  }
}

/** A header lookup: the header or null, plus what it cost. */
export interface HeaderLookup {
  header: CodexHeader | null;
  bytes: number;
  /** True when the first line was over 64 KiB (skipped and counted). */
  tooLong: boolean;
  /** True when the first line was still being written (no newline yet): it is read again next time. */
  incomplete: boolean;
}

/** Headers by path and file identity; line 1 never changes once complete, so a hit costs nothing. */
export class HeaderCache {
  private readonly entries = new Map<string, { ino: number; read: HeaderRead }>();

  constructor(
    private readonly fs: CodexFileSystem,
    /** Line 1 as the lobby's header index last checked it against the file (./headerIndex), asked first. */
    private readonly known: (path: string) => HeaderRead | undefined = () => undefined,
  ) {}

  /** The header of a rollout, read at most once per file identity (an incomplete first line is retried). */
  async lookup(path: string, ino?: number): Promise<HeaderLookup> {
    const indexed = ino === undefined ? this.known(path) : undefined;
    if (indexed) return fromRead(indexed, 0);
    const cached = this.entries.get(path);
    if (cached && (ino === undefined || cached.ino === ino)) return fromRead(cached.read, 0);
    let read: HeaderRead;
    let fileIno: number;
    try {
      ({ read, ino: fileIno } = await this.fs.readHeader(path));
    } catch {
      return { header: null, bytes: 0, tooLong: false, incomplete: false };
    }
    if (read.kind !== 'incomplete') {
      this.entries.delete(path);
      this.entries.set(path, { ino: fileIno, read });
      if (this.entries.size > CODEX_HEADER_CACHE) {
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
    }
    return fromRead(read, read.bytes);
  }

  /** Forgets every cached header. */
  clear(): void {
    this.entries.clear();
  }
}

function fromRead(read: HeaderRead, bytes: number): HeaderLookup {
  return { header: read.kind === 'header' ? read.header : null, bytes, tooLong: read.kind === 'too-long', incomplete: read.kind === 'incomplete' };
}

/** A discovered direct child file. */
export interface ChildFile {
  path: string;
  header: CodexHeader;
}

/** The discovery result for one parent, with what it cost this call. */
export interface ChildDiscovery {
  children: ChildFile[];
  /** Folders rechecked for new children (also what a watcher should watch). */
  watchFolders: string[];
  /** First lines over 64 KiB met by the last walk. */
  skippedHeaders: number;
  bytes: number;
  walked: boolean;
}

interface ParentEntry {
  signature: string;
  folders: Map<string, number>;
  checkedAtMs: number;
  /**
   * False when the walk may have missed a child the folders will not tell of: a first line still being written (its
   * completion changes no folder), or a folder that changed within `CODEX_RECHECK_MS` of the walk (a file listed
   * after the walk's listing but before its folder times were taken). Such an entry is walked again when the parent
   * changes, as every entry once was.
   */
  settled: boolean;
  /** The home walk the children came from. */
  walkSeq: number;
  children: ChildFile[];
  skippedHeaders: number;
}

/**
 * One walk of a home's rollouts, shared by all its parents: every child file by the thread id it names as parent, and
 * the folder times it was taken at. Many Codex seats of one home recheck on their own clocks; while the folders stand
 * as they were walked, a parent that must look again takes its children from here instead of walking again.
 */
interface HomeWalk {
  /** The walk's folders (the newest chain, and the folders of the home's cached parents) and their times. */
  folders: Map<string, number>;
  /** sessions/ and its newest year, month and day folder: where a new child appears. */
  newestChain: string[];
  byParent: Map<string, ChildFile[]>;
  /** Walks of this index so far when this one was taken (a parent knows which walk its children came from). */
  seq: number;
  skippedHeaders: number;
  bytes: number;
  settled: boolean;
}

/** Homes whose last walk is kept (a local home and a few remotes' mirrors). */
const KEPT_HOME_WALKS = 8;

/** Rules 3 (direct children, at most 64) and 4 (discovery reuse: while nothing changed, recheck folders every 2 s). */
export class ChildIndex {
  private readonly parents = new Map<string, ParentEntry>();
  private readonly homes = new Map<string, HomeWalk>();
  private walks = 0;

  constructor(
    private readonly fs: CodexFileSystem,
    private readonly headers: HeaderCache,
    private readonly now: () => number,
  ) {}

  /** The parent's direct children; `parentSignature` is the parent rollout's identity, size and mtime. */
  async discover(home: string, parentId: string, parentPath: string, parentSignature: string): Promise<ChildDiscovery> {
    const key = `${home}\0${parentId}`;
    const cached = this.parents.get(key);
    const verdict = cached ? await this.stale(cached, parentSignature) : 'changed';
    if (cached && verdict === 'current') {
      this.parents.delete(key);
      this.parents.set(key, cached); // most recently used last
      return { children: cached.children, watchFolders: [...cached.folders.keys()], skippedHeaders: cached.skippedHeaders, bytes: 0, walked: false };
    }
    const parentFolder = join(parentPath, '..');
    // An unsettled entry needs a walk newer than its own; else the home's last walk serves while its folders stand.
    const { walk, walked } = await this.homeWalk(home, parentFolder, cached && verdict === 'unsettled' ? cached.walkSeq : 0);
    // Issue 36: a rollout naming itself as parent, or a child carrying the parent's own thread id, is no subagent.
    const children = (walk.byParent.get(parentId) ?? []).filter((child) => child.header.id !== parentId && child.path !== parentPath);
    children.sort((left, right) => startMs(right.header) - startMs(left.header));
    children.splice(CODEX_CHILDREN);
    // The parent watches where a new child would appear, and its own folder.
    const folders = new Map([...walk.newestChain, parentFolder].map((folder) => [folder, walk.folders.get(folder) ?? -1]));
    const entry: ParentEntry = { signature: parentSignature, folders, checkedAtMs: this.now(), children, skippedHeaders: walk.skippedHeaders, settled: walk.settled, walkSeq: walk.seq };
    this.parents.delete(key);
    this.parents.set(key, entry);
    while (this.parents.size > CODEX_PARENTS) {
      const oldest = this.parents.keys().next().value;
      if (oldest === undefined) break;
      this.parents.delete(oldest);
    }
    return { children, watchFolders: [...entry.folders.keys()], skippedHeaders: walk.skippedHeaders, bytes: walked ? walk.bytes : 0, walked };
  }

  /**
   * The home's last walk while its folders (with `parentFolder`) stand as walked, if it is newer than walk `after`;
   * else a new walk. Folder times are taken before the listing where the last walk named the folders (a file made
   * during the walk then shows as a change); a folder new to this walk is timed after it, and if it changed within
   * `CODEX_RECHECK_MS` of the walk the walk is unsettled, as it is when it met a first line still being written.
   */
  private async homeWalk(home: string, parentFolder: string, after: number): Promise<{ walk: HomeWalk; walked: boolean }> {
    const known = this.homes.get(home);
    const before = known ? await this.folderTimes([...new Set([...known.folders.keys(), parentFolder])]) : new Map<string, number>();
    if (known && known.seq > after && known.folders.has(parentFolder) && [...known.folders].every(([folder, mtimeMs]) => before.get(folder) === mtimeMs)) return { walk: known, walked: false };
    const walkedAtMs = this.now();
    const walked = await walkRollouts(this.fs, home);
    let bytes = 0;
    let skippedHeaders = 0;
    let incomplete = false;
    const byParent = new Map<string, ChildFile[]>();
    const lookups = await lookupAll(this.headers, walked.files);
    for (const [index, found] of lookups.entries()) {
      bytes += found.bytes;
      if (found.tooLong) skippedHeaders += 1;
      if (found.incomplete) incomplete = true;
      const header = found.header;
      if (!header || header.origin !== 'child' || header.parentThreadId === null) continue;
      const siblings = byParent.get(header.parentThreadId);
      const child = { path: walked.files[index].path, header };
      if (siblings) siblings.push(child);
      else byParent.set(header.parentThreadId, [child]);
    }
    // The walk keeps the times of the folders still asked about: its newest chain, this parent's folder and those of
    // the home's cached parents (an old day folder no parent sits in any more is not statted at every walk).
    const needed = new Set([...walked.newestChain, parentFolder]);
    for (const [key, entry] of this.parents) if (key.startsWith(`${home}\0`)) for (const folder of entry.folders.keys()) needed.add(folder);
    const late = await this.folderTimes([...needed].filter((folder) => !before.has(folder)));
    const recent = [...late.values()].some((mtimeMs) => mtimeMs > walkedAtMs - CODEX_RECHECK_MS);
    const kept = [...before].filter(([folder]) => needed.has(folder));
    const walk: HomeWalk = { seq: ++this.walks, folders: new Map([...kept, ...late]), newestChain: walked.newestChain, byParent, skippedHeaders, bytes, settled: !incomplete && !recent };
    this.homes.delete(home);
    this.homes.set(home, walk);
    if (this.homes.size > KEPT_HOME_WALKS) this.homes.delete(this.homes.keys().next().value!);
    return { walk, walked: true };
  }

  /** The folders last watched for this parent, if cached. */
  watchFolders(home: string, parentId: string): string[] | null {
    const cached = this.parents.get(`${home}\0${parentId}`);
    return cached ? [...cached.folders.keys()] : null;
  }

  /** Drops one parent's cached result. */
  forget(home: string, parentId: string): void {
    this.parents.delete(`${home}\0${parentId}`);
  }

  /** Drops every cached result. */
  clear(): void {
    this.parents.clear();
    this.homes.clear();
  }

  /**
   * Whether a parent's cached children must be found again: its folders are rechecked every `CODEX_RECHECK_MS`, and at
   * once when the parent changed (a spawn is written there around the child's creation); a changed folder means a
   * walk. An unsettled entry is walked again whenever the parent changes.
   */
  private async stale(entry: ParentEntry, parentSignature: string): Promise<'current' | 'changed' | 'unsettled'> {
    if (entry.signature === parentSignature) return (await this.foldersChanged(entry, false)) ? 'changed' : 'current';
    if (!entry.settled) return 'unsettled';
    entry.signature = parentSignature;
    return (await this.foldersChanged(entry, true)) ? 'changed' : 'current';
  }

  private async foldersChanged(entry: ParentEntry, force: boolean): Promise<boolean> {
    const now = this.now();
    if (!force && now - entry.checkedAtMs < CODEX_RECHECK_MS) return false;
    entry.checkedAtMs = now;
    const current = await this.folderTimes([...entry.folders.keys()]);
    for (const [folder, mtimeMs] of entry.folders) if (current.get(folder) !== mtimeMs) return true;
    return false;
  }

  private async folderTimes(folders: string[]): Promise<Map<string, number>> {
    const times = new Map<string, number>();
    for (const folder of folders) {
      try {
        times.set(folder, (await this.fs.stat(folder)).mtimeMs);
      } catch {
        times.set(folder, -1); // missing now; its creation later counts as a change
      }
    }
    return times;
  }
}


/** Looks up the headers of many files with bounded concurrency, in file order. */
function lookupAll(headers: HeaderCache, files: RolloutFile[]): Promise<HeaderLookup[]> {
  return mapBounded(files, CODEX_HEADER_CONCURRENCY, (file) => headers.lookup(file.path));
}

function startMs(header: CodexHeader): number {
  const parsed = header.timestamp ? Date.parse(header.timestamp) : NaN;
  return Number.isFinite(parsed) ? parsed : 0;
}
