/**
 * The subagent files of one session on disk (rules 11–12 of RULES.md): `<session>/subagents/agent-<id>.jsonl` with
 * their `.meta.json` sidecars (2.1.2+), and, when asked, the flat `agent-<id>.jsonl` beside the sessions (2.0.24–2.1.1).
 * Known from file metadata, each file's own first line (its ids) and its sidecar; never from the parent journal.
 * A folder is listed again only when its modification time moved, so an unchanged folder costs one `stat`; while a
 * call only waits for its locator, a listing stats and reads only the files it had not listed before.
 */
import { lstatSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { openRegularFile } from '../kit/openRegular';
import path from 'node:path';
import { isPlainToken } from './locate';
import { CLAUDE_CHILD_FILES_LISTED, CLAUDE_CHILD_HEAD_BYTES, CLAUDE_CHILD_HEAD_READS, CLAUDE_SIDECAR_BYTES, EARLIER_LIMIT, RECENT_LIMIT } from '../kit/bounds';
import { isObject } from '../kit/json';

/** One subagent file of the session, with the facts its metadata, first line and sidecar give. */
export interface ChildFile {
  agentId: string;
  file: string;
  /** Modification time (ms since epoch): when the subagent last wrote. */
  mtimeMs: number;
  /** The first line's timestamp, else the file's birth time, else its modification time (ISO). */
  startedAt: string;
  /** From the sidecar, when it carries them. */
  description: string | null;
  agentType: string | null;
  /** The parent call's `tool_use.id`, the sidecar's exact spawn edge (rule 11). */
  toolUseId: string | null;
}

/** What a file's first line says; `skip` for files that are not listed (another session, internal, unreadable). */
type Head = { agentId: string; sessionId: string | null; at: string | null; warmup: boolean } | 'skip';

interface Known {
  identity: string;
  head: Head;
}

type Sidecar = Pick<ChildFile, 'description' | 'agentType' | 'toolUseId'>;

const AGENT_FILE = /^agent-(.+)\.jsonl$/;

/** The subagent files of one session, refreshed when their folders change. */
export class ChildFileIndex {
  /** What the last complete scan saw of the folders, and with which options; null forces a scan. */
  private memo: ScanMemo | null = null;
  private heads = new Map<string, Known>();
  private sidecars = new Map<string, Sidecar | null>();
  private current: ChildFile[] = [];
  /**
   * Without `restat`: each folder's subagent file names at its last listing (at most the files a listing stats),
   * each with whether its sidecar was there, and the files the last scan went through.
   */
  private names = new Map<string, ReadonlyMap<string, boolean>>();
  private kept: Candidate[] = [];
  /** Without `restat`: the last scan left first lines unread, so the next refresh goes through `kept` again. */
  private retry = false;
  /** Directory listings, stats of subagent files and first lines or sidecars read so far (for tests and the bench). */
  readonly io = { listings: 0, stats: 0, reads: 0 };

  constructor(
    private readonly projectFolder: string,
    readonly sessionId: string,
  ) {}

  /** The session's files found by the last scan, newest modification first. */
  get files(): readonly ChildFile[] {
    return this.current;
  }

  /** The file listed under this native id (its sidecar's call id, else `agent-<id>`). */
  byNativeId(nativeId: string): ChildFile | null {
    return this.current.find((file) => childNativeId(file) === nativeId) ?? null;
  }

  /**
   * Scans again when a folder's modification time moved (or `options` changed); true when the list may differ.
   * `flat` adds the flat layout; `before` is the read window's first timestamp, files started earlier count
   * against the bound of 64. `restat` stats every listed file again, for the times the earlier list shows (rule 12);
   * without it only files not listed before (or whose sidecar is new) are statted, and the others keep the
   * metadata they were first seen with, which is all a live locator needs (rule 11).
   */
  async refresh(options: { flat: boolean; before: string | null; restat: boolean }): Promise<boolean> {
    if (!isPlainToken(this.sessionId)) return false;
    const subagents = path.join(this.projectFolder, this.sessionId, 'subagents');
    const memo: ScanMemo = { subagents: mtimeOf(subagents), flat: options.flat ? mtimeOf(this.projectFolder) : null, before: options.before, restat: options.restat };
    let candidates: Candidate[];
    if (this.memo && sameMemo(this.memo, memo)) {
      // Nothing moved in the folders: only first lines the last scan could not read yet are worth a look.
      if (!this.retry) return false;
      candidates = this.kept;
    } else {
      if (this.memo?.restat !== options.restat) this.forgetListing();
      const known = options.restat ? null : new Map(this.kept.map((candidate) => [candidate.file, candidate]));
      candidates = [];
      for (const folder of options.flat ? [subagents, this.projectFolder] : [subagents]) {
        const listed = await this.listFolder(folder, known);
        if (!options.restat) this.names.set(folder, listed.names);
        candidates.push(...listed.candidates);
      }
      candidates.sort((a, b) => b.mtimeMs - a.mtimeMs);
    }
    const found: ChildFile[] = [];
    const heads = new Map<string, Known>();
    const sidecars = new Map<string, Sidecar | null>();
    const kept: Candidate[] = [];
    let reads: number = CLAUDE_CHILD_HEAD_READS;
    let complete = true;
    let earlier = 0;
    for (const candidate of candidates) {
      // Up to eight of them may be the children of calls `recent` already lists, and are then left out.
      if (earlier >= EARLIER_LIMIT + RECENT_LIMIT) break;
      kept.push(candidate);
      let known = this.heads.get(candidate.file);
      if (!known || known.identity !== candidate.identity) {
        if (reads <= 0) {
          complete = false;
          continue;
        }
        reads -= 1;
        this.io.reads += 1;
        const head = await readHead(candidate.file, candidate.agentId);
        // A first line still being written is read again on the next refresh.
        if (head === null) {
          complete = false;
          continue;
        }
        known = { identity: candidate.identity, head };
      }
      heads.set(candidate.file, known);
      const { head } = known;
      if (head === 'skip' || head.warmup || head.sessionId !== this.sessionId) continue;
      const startedAt = head.at ?? new Date(candidate.birthtimeMs > 0 ? candidate.birthtimeMs : candidate.mtimeMs).toISOString();
      const sidecar = candidate.sidecar ? await this.sidecar(candidate.sidecar, sidecars) : null;
      found.push({ agentId: candidate.agentId, file: candidate.file, mtimeMs: candidate.mtimeMs, startedAt, description: null, agentType: null, toolUseId: null, ...sidecar });
      if (startedBefore(startedAt, options.before)) earlier += 1;
    }
    // Only what this scan saw is remembered, so the memory stays within the scan's bounds (a session that keeps
    // spawning subagents does not grow it).
    this.heads = heads;
    this.sidecars = sidecars;
    if (options.restat) {
      this.memo = complete ? memo : null;
    } else {
      // The listing stays good while the folders do not move; unread first lines are tried again from `kept`.
      this.memo = memo;
      this.kept = kept;
      this.retry = !complete;
    }
    const changed = !sameFiles(found, this.current);
    this.current = found;
    return changed;
  }

  /** Forgets the listings kept between scans without `restat`, so the next scan stats every file. */
  private forgetListing(): void {
    this.names = new Map();
    this.kept = [];
    this.retry = false;
  }

  /**
   * A folder's subagent files by metadata only. Labelled ids (`acompact-…` and the other internal forks, format §7)
   * are not Agent-tool spawns and are left out, as are ids that could not be a file name and links. With `known`
   * (the files the last scan went through), a file whose name and sidecar were both listed before is not statted
   * again: it keeps its earlier metadata when `known` holds it and is left out when not (the last scan went past it).
   */
  private async listFolder(folder: string, known: ReadonlyMap<string, Candidate> | null): Promise<{ names: ReadonlyMap<string, boolean>; candidates: Candidate[] }> {
    let names: string[];
    this.io.listings += 1;
    try {
      names = await readdir(folder);
    } catch {
      return { names: new Map(), candidates: [] };
    }
    const present = new Set(names);
    // Names from `readdir` hold no separator, so after the normal folder and a separator joining is concatenating.
    const prefix = path.join(folder, path.sep);
    const before = known ? this.names.get(folder) : undefined;
    const listed = new Map<string, boolean>();
    const candidates: Candidate[] = [];
    for (const name of names) {
      if (listed.size >= CLAUDE_CHILD_FILES_LISTED) break;
      if (!name.endsWith('.jsonl')) continue;
      const agentId = AGENT_FILE.exec(name)?.[1];
      if (!agentId || !isPlainToken(agentId) || agentId.includes('-')) continue;
      const sidecarName = `agent-${agentId}.meta.json`;
      const hasSidecar = present.has(sidecarName);
      const seen = before?.get(name);
      listed.set(name, hasSidecar);
      const file = prefix + name;
      const sidecar = hasSidecar ? prefix + sidecarName : null;
      // Listed before, with its sidecar then if it has one now: nothing about it that a stat would tell is new.
      if (seen !== undefined && (seen || !hasSidecar)) {
        const kept = known?.get(file);
        if (kept) candidates.push(kept.sidecar === sidecar ? kept : { ...kept, sidecar });
        continue;
      }
      try {
        // Synchronous: a few microseconds per local file, where a pooled asynchronous stat costs tens to hundreds.
        this.io.stats += 1;
        const info = lstatSync(file);
        if (!info.isFile()) continue;
        candidates.push({ agentId, file, identity: `${info.dev}:${info.ino}:${info.birthtimeMs}`, mtimeMs: info.mtimeMs, birthtimeMs: info.birthtimeMs, sidecar });
      } catch {
        // Removed between listing and stat.
      }
    }
    return { names: listed, candidates };
  }

  /** How many sidecars are remembered (for tests of the bound). */
  get rememberedSidecars(): number {
    return this.sidecars.size;
  }

  /** A sidecar's facts, read once while its file stays in the scans; noted in `seen`, this scan's memory. */
  private async sidecar(file: string, seen: Map<string, Sidecar | null>): Promise<Sidecar | null> {
    if (!this.sidecars.has(file)) this.io.reads += 1;
    const sidecar = this.sidecars.has(file) ? (this.sidecars.get(file) ?? null) : await readSidecar(file);
    seen.set(file, sidecar);
    return sidecar;
  }
}

/** True when a file started before the read window's first timestamp (always, when that is unknown). */
export function startedBefore(startedAt: string, before: string | null): boolean {
  if (before === null) return true;
  const [start, window] = [Date.parse(startedAt), Date.parse(before)];
  return Number.isNaN(start) || Number.isNaN(window) ? true : start < window;
}

/** The native id an earlier entry carries: the sidecar's call id when it names one, else `agent-<agent id>`. */
export function childNativeId(file: Pick<ChildFile, 'agentId' | 'toolUseId'>): string {
  return file.toolUseId ?? `agent-${file.agentId}`;
}

interface ScanMemo {
  subagents: number | null;
  flat: number | null;
  before: string | null;
  restat: boolean;
}

/** Field by field, so an unchanged folder costs its stat and nothing else (no serialising). */
function sameMemo(a: ScanMemo, b: ScanMemo): boolean {
  return a.subagents === b.subagents && a.flat === b.flat && a.before === b.before && a.restat === b.restat;
}

/** Entry by entry and field by field, so a scan that found the same files says so without serialising them. */
function sameFiles(a: readonly ChildFile[], b: readonly ChildFile[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((file, index) => {
    const other = b[index];
    return (
      file.agentId === other.agentId &&
      file.file === other.file &&
      file.mtimeMs === other.mtimeMs &&
      file.startedAt === other.startedAt &&
      file.description === other.description &&
      file.agentType === other.agentType &&
      file.toolUseId === other.toolUseId
    );
  });
}

interface Candidate {
  agentId: string;
  file: string;
  identity: string;
  mtimeMs: number;
  birthtimeMs: number;
  sidecar: string | null;
}

/**
 * A file's first line: its own agent id must be the file's, its session id is returned for the caller to check.
 * Null while the line is still being written; 'skip' for a file that can never be listed.
 */
async function readHead(file: string, agentId: string): Promise<Head | null> {
  const text = await readPrefix(file, CLAUDE_CHILD_HEAD_BYTES);
  if (text === null) return 'skip';
  const newline = text.indexOf('\n');
  if (newline === -1) return Buffer.byteLength(text) >= CLAUDE_CHILD_HEAD_BYTES ? 'skip' : null;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(0, newline));
  } catch {
    return 'skip';
  }
  if (!isObject(value) || value.agentId !== agentId) return 'skip';
  const message = isObject(value.message) ? value.message : {};
  return {
    agentId,
    sessionId: typeof value.sessionId === 'string' ? value.sessionId : null,
    at: typeof value.timestamp === 'string' && !Number.isNaN(Date.parse(value.timestamp)) ? value.timestamp : null,
    // Pre-warm agents of 2.0.x (format §7) are not subagents the owner asked for.
    warmup: value.type === 'user' && typeof message.content === 'string' && message.content.trim() === 'Warmup',
  };
}

/** The label facts of a sidecar; a damaged sidecar gives none. */
async function readSidecar(file: string): Promise<Sidecar | null> {
  const text = await readPrefix(file, CLAUDE_SIDECAR_BYTES);
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(value)) return null;
  const field = (key: string): string | null => {
    const entry = value[key];
    return typeof entry === 'string' && entry.trim() !== '' ? entry.trim() : null;
  };
  const toolUseId = field('toolUseId');
  return { description: field('description'), agentType: field('agentType'), toolUseId: toolUseId && isPlainToken(toolUseId) ? toolUseId : null };
}

/** Up to `maxBytes` from the start of a regular file (links are not followed), or null when it cannot be read. */
async function readPrefix(file: string, maxBytes: number): Promise<string | null> {
  let handle;
  let info;
  try {
    // Synchronous, as the listing's own stats: a few microseconds on a local file.
    if (!lstatSync(file).isFile()) return null;
    ({ handle, info } = await openRegularFile(file));
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(Math.min(maxBytes, info.size));
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.toString('utf8', 0, filled);
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

/** A folder's modification time, or null when it does not exist; one synchronous stat (microseconds). */
function mtimeOf(folder: string): number | null {
  try {
    return statSync(folder).mtimeMs;
  } catch {
    return null;
  }
}

