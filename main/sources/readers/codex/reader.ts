/**
 * The Codex CLI seat reader: tails the parent rollout, discovers direct children from rollout headers, settles them
 * from the parent's records, and replays a child on request. All filesystem access is asynchronous.
 */
import { join, resolve, sep } from 'node:path';
import type { Candidate, SeatAddress, SubagentEntry } from '../../../../shared/schemas';
import { ServiceError } from '../../../kit/errors';
import type { DiscoverOptions, Projection, ReplayResult, SeatReader } from '../port';
import { DEFAULT_TAIL, tailLines, tailReduce, type TailState } from '../tail';
import { ChildIndex, findRolloutsNamed, HeaderCache, walkRollouts, type ChildFile, type RolloutFile } from './discovery';
import { nodeFileSystem, type CodexFileSystem, type FileFacts } from './fileSystem';
import type { CodexHeader } from './header';
import { HeaderIndex, type IndexedRollout } from './headerIndex';
import { HeaderIndexFile } from './headerIndexFile';
import { childEntry, needsTaskScan, summarise, type ChildFacts } from './projection';
import { createParentState, reduceParentLine, type ParentState } from './records';
import { readChildWindow } from './replay';
import { codexActivityBasis } from './activity';
import { codexSeatUsage, scanChildUsage, type ChildUsageScan } from './usage';
import { CODEX_TASK_SCAN_COLD_BYTES } from '../kit/bounds';
import { SeatStates } from '../kit/seatStates';
import { censusView, noteVersion } from '../kit/census';
import { CODEX_KNOWN } from './known';
import { LINE_POSITION, replayPage } from '../kit/pager';

const THREAD_TOKEN = /^[0-9A-Za-z-]{1,64}$/;

/** Options of the Codex reader; `fs` and `now` are injectable for tests and the benchmark. */
export interface CodexReaderOptions {
  home: string;
  now?: () => number;
  fs?: CodexFileSystem;
  /** The header index file (in the app home) and where to report it set aside; absent: an index in memory only. */
  headerIndex?: {
    file: string;
    log: (message: string) => void;
    /** Rollouts kept in the file, the most recent; tests give a small one. */
    bound?: number;
  };
}

interface ChildScan {
  tail: TailState | null;
  latestTaskStartedMs: number | null;
}

interface SeatState {
  path: string | null;
  tail: TailState | null;
  parent: ParentState;
  /** Inode whose line-1 header was checked against the seat's thread id. */
  checkedIno: number | null;
  childScans: Map<string, ChildScan>;
  /** Each child rollout's usage tail, by path (issue 26). */
  childUsage: Map<string, ChildUsageScan>;
}

/** A discovered rollout whose line 1 is a session's header (not a child's, not a helper's). */
type SessionRollout = IndexedRollout & { read: { kind: 'header'; header: CodexHeader } };

type Settled = { ok: false; reason: string } | { ok: true; projection: Projection; path: string; children: ChildFile[]; entries: SubagentEntry[] };

/** Builds the Codex reader for one Codex home. */
export function createCodexReader(options: CodexReaderOptions): SeatReader {
  const fs = options.fs ?? nodeFileSystem;
  const now = options.now ?? Date.now;
  const indexFile = options.headerIndex ? new HeaderIndexFile(options.headerIndex.file, options.home, options.headerIndex.log) : null;
  const headerIndex = new HeaderIndex(fs, options.home, indexFile, options.headerIndex?.bound);
  // Child discovery asks the lobby's index first: a header it checked is not read again.
  const headers = new HeaderCache(fs, (path) => headerIndex.known(path));
  const index = new ChildIndex(fs, headers, now);
  // Reads of one seat are serialised: two censuses never share a parent state mid-read.
  const seats = new SeatStates<SeatState>((seat) => ({ path: seat.path ?? null, tail: null, parent: createParentState(), checkedIno: null, childScans: new Map(), childUsage: new Map() }));

  async function locate(seat: SeatAddress): Promise<string | null> {
    const suffix = `-${seat.sessionId}.jsonl`;
    const walk = await walkRollouts(fs, seat.home);
    return walk.files.find((file) => file.name.endsWith(suffix))?.path ?? null;
  }

  async function settle(seat: SeatAddress): Promise<Settled> {
    if (seat.harness !== 'codex') return { ok: false, reason: 'This seat is not a Codex session.' };
    return seats.run(seat, (state) => settleSeat(seat, state));
  }

  async function settleSeat(seat: SeatAddress, state: SeatState): Promise<Settled> {
    state.path = seat.path ?? state.path ?? (await locate(seat));
    const path = state.path;
    if (!path) return { ok: false, reason: `No rollout for Codex thread ${seat.sessionId} was found under ${join(seat.home, 'sessions')}.` };
    let bytes = 0;
    try {
      // A first, rotated, truncated or rewritten read starts from a clean parent state before its first line.
      const { result, derived: parent } = await tailReduce(path, state.tail, DEFAULT_TAIL, state.parent, createParentState, reduceParentLine);
      bytes += result.bytesRead;
      state.parent = parent;
      state.tail = result.state;
      // A cold read may be another file under the same inode (rewritten in place): its header is checked again.
      if (result.cold || state.checkedIno !== result.state.ino) {
        const { read } = await fs.readHeader(path);
        bytes += read.bytes;
        const id = read.kind === 'header' ? read.header.id : null;
        // A window that starts inside the rollout did not read line 1: the version comes from the header read here.
        if (read.kind === 'header') noteVersion(parent.census, read.header.cliVersion);
        if (id !== seat.sessionId) {
          state.tail = null;
          return { ok: false, reason: `The rollout ${path} belongs to thread ${id ?? '(no header)'}, not ${seat.sessionId}.` };
        }
        state.checkedIno = result.state.ino;
      }
      const tail = result.state;
      const signature = `${tail.dev}:${tail.ino}:${tail.size}:${tail.mtimeMs}`;
      const discovery = await index.discover(seat.home, seat.sessionId, path, signature);
      bytes += discovery.bytes;
      const facts: ChildFacts[] = [];
      const scans = new Map<string, ChildScan>();
      for (const child of discovery.children) {
        // Re-stat'ed on every read (appends and idle transitions show), synchronously: a few microseconds on a local
        // file where a pooled stat costs tens, for every child of every Codex seat at each census.
        const info = fs.statNow(child.path);
        if (!info) continue; // moved or deleted since the walk
        const known = { header: child.header, path: child.path, mtimeMs: info.mtimeMs, size: info.size };
        let scan = state.childScans.get(child.path) ?? { tail: null, latestTaskStartedMs: null };
        if (needsTaskScan(known, parent.records)) {
          const scanned = await scanTaskStarted(child.path, scan);
          scan = scanned.scan;
          bytes += scanned.bytes;
        }
        scans.set(child.path, scan);
        facts.push({ ...known, latestTaskStartedMs: scan.latestTaskStartedMs });
      }
      state.childScans = scans;
      const usageScans = new Map<string, ChildUsageScan>();
      for (const child of facts) {
        try {
          const scanned = await scanChildUsage(child.path, state.childUsage.get(child.path));
          usageScans.set(child.path, scanned.scan);
          bytes += scanned.bytes;
        } catch {
          // moved or deleted since the walk: no usage for it
        }
      }
      state.childUsage = usageScans;
      const settled = facts.map((child) => childEntry(child, parent.records, now(), parent.waited));
      const { usage, entries } = codexSeatUsage(parent.usage, settled, facts.map((child) => child.path), usageScans);
      const projection: Projection = {
        ok: true,
        subagents: summarise(entries),
        read: { bytes, skippedLines: tail.skippedLines + parent.malformed + discovery.skippedHeaders },
        lastWriteMs: tail.mtimeMs,
        activity: codexActivityBasis(parent.activity),
        usage: usage.usage,
        usageTally: usage.tally,
        census: censusView(parent.census, CODEX_KNOWN),
      };
      return { ok: true, projection, path, children: discovery.children, entries };
    } catch (error) {
      state.tail = null;
      const code = (error as NodeJS.ErrnoException).code;
      const what = code === 'ENOENT' ? 'is gone (moved or deleted)' : `cannot be read (${code ?? String(error)})`;
      return { ok: false, reason: `The Codex rollout ${path} ${what}.` };
    }
  }

  /** A rollout as discovery lists it; children and internal helper sessions (review, compact, memory) are not seats. */
  function candidateOf(file: RolloutFile, header: CodexHeader | null, info: FileFacts): Candidate | null {
    if (!header || header.origin !== 'session') return null;
    const seat: SeatAddress = { harness: 'codex', home: options.home, sessionId: header.id, cwd: header.cwd, path: file.path };
    return { id: `codex:${header.id}`, harness: 'codex', seat, cwdHint: header.cwd, lastActivity: new Date(info.mtimeMs).toISOString(), size: info.size };
  }

  return {
    harness: 'codex',
    async discover(discoverOptions?: DiscoverOptions): Promise<Candidate[]> {
      const walk = await walkRollouts(fs, options.home);
      const sessions = (await headerIndex.discover(walk.files)).filter((found): found is SessionRollout => found?.read?.kind === 'header' && found.read.header.origin === 'session');
      sessions.sort((left, right) => right.facts.mtimeMs - left.facts.mtimeMs);
      // Only the candidates returned are built (the lobby asks for 200 of up to 4,096).
      const limited = discoverOptions?.limit !== undefined ? sessions.slice(0, discoverOptions.limit) : sessions;
      return limited.flatMap((session) => candidateOf(session.file, session.read.header, session.facts) ?? []);
    },
    async resolve(sessionId: string): Promise<Candidate | null> {
      // The thread id is joined into a file-name suffix only once it is a plain token.
      if (!THREAD_TOKEN.test(sessionId)) return null;
      for (const file of await findRolloutsNamed(fs, options.home, sessionId)) {
        const header = (await headers.lookup(file.path)).header;
        const info = header?.id === sessionId ? await fs.stat(file.path).catch(() => null) : null;
        const candidate = header && info ? candidateOf(file, header, info) : null;
        if (candidate) return candidate;
      }
      return null;
    },
    async project(seat: SeatAddress): Promise<Projection> {
      const settled = await settle(seat);
      return settled.ok ? settled.projection : settled;
    },
    async replay(seat: SeatAddress, nativeId: string, cursor?: string): Promise<ReplayResult> {
      if (!THREAD_TOKEN.test(nativeId)) return { status: 'refused', reason: 'That is not a Codex thread id.' };
      const spec = { owner: { harness: 'codex' as const, ids: [seat.sessionId, nativeId] }, position: LINE_POSITION };
      return replayPage(spec, cursor, async (request) => {
        const settled = await settle(seat);
        if (!settled.ok) return { status: 'unavailable', reason: settled.reason };
        const child = settled.children.find((candidate) => candidate.header.id === nativeId);
        if (!child) return { status: 'refused', reason: `Thread ${nativeId} is not a discovered direct child of this session.` };
        // Both identities are checked again, from the files themselves, right before the child's bytes are read.
        const parentHeader = await readHeaderOrNull(fs, settled.path);
        if (parentHeader === 'missing' || parentHeader?.id !== seat.sessionId) return { status: 'refused', reason: 'The parent rollout no longer carries this session id.' };
        const childHeader = await readHeaderOrNull(fs, child.path);
        if (childHeader === 'missing') return { status: 'unavailable', reason: 'The subagent rollout file is gone (moved or deleted), so it cannot be replayed.' };
        if (childHeader?.id !== nativeId || childHeader.origin !== 'child' || childHeader.parentThreadId !== seat.sessionId) {
          return { status: 'refused', reason: 'The subagent file no longer names this thread and this parent.' };
        }
        const entry = settled.entries.find((candidate) => candidate.nativeId === nativeId);
        return readChildWindow({ path: child.path, forked: childHeader.forkedFromId !== null, running: entry?.state === 'running' }, request);
      });
    },
    watchPaths(seat: SeatAddress): string[] {
      const state = seats.peek(seat);
      const path = seat.path ?? state?.path ?? null;
      const folders = index.watchFolders(seat.home, seat.sessionId) ?? [join(seat.home, 'sessions')];
      // The child rollouts the seat reads: they sit in the watched folders, and naming them lets a census started by
      // their change read this seat again (and only the seats whose files changed).
      const children = state ? [...state.childScans.keys()] : [];
      return path ? [path, ...children, ...folders] : [...children, ...folders];
    },
    forget(seat: SeatAddress): void {
      seats.forget(seat);
      index.forget(seat.home, seat.sessionId);
    },
    dispose(): void {
      seats.clear();
      index.clear();
      headers.clear();
    },
  };
}

/** Reads line 1 afresh (never from the cache); `missing` when the file is gone. */
async function readHeaderOrNull(fs: CodexFileSystem, path: string): Promise<CodexHeader | null | 'missing'> {
  try {
    const { read } = await fs.readHeader(path);
    return read.kind === 'header' ? read.header : null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : null;
  }
}

/** Tails a child for its newest `task_started` (only when a parent record ended it and it was written since). */
async function scanTaskStarted(path: string, scan: ChildScan): Promise<{ scan: ChildScan; bytes: number }> {
  let latest: number | null = null;
  const result = await tailLines(path, scan.tail, { ...DEFAULT_TAIL, coldBytes: CODEX_TASK_SCAN_COLD_BYTES }, (line) => {
    if (!line.includes('"task_started"')) return;
    try {
      const parsed = JSON.parse(line) as { timestamp?: unknown; type?: unknown; payload?: { type?: unknown } };
      const at = typeof parsed.timestamp === 'string' ? Date.parse(parsed.timestamp) : NaN;
      if (parsed.type === 'event_msg' && parsed.payload?.type === 'task_started' && Number.isFinite(at)) latest = Math.max(latest ?? at, at);
    } catch {
      // a bad child line says nothing about its turns
    }
  });
  const previous = result.cold ? null : scan.latestTaskStartedMs;
  const found: number | null = latest;
  const merged = found === null ? previous : Math.max(previous ?? found, found);
  return { scan: { tail: result.state, latestTaskStartedMs: merged }, bytes: result.bytesRead };
}

/** The seat a CLI target names: home from --codex-home, else $CODEX_HOME, else the folder above `sessions/`. */
export async function seatFromCliTarget(target: string, flags: { codexHome?: string }): Promise<SeatAddress> {
  const path = resolve(target);
  let header;
  try {
    const { read } = await nodeFileSystem.readHeader(path);
    header = read.kind === 'header' ? read.header : null;
  } catch {
    throw new ServiceError('not_found', `Cannot read ${path}; give the path of a Codex rollout (.jsonl).`);
  }
  if (!header) throw new ServiceError('invalid_request', `${path} is not a Codex rollout: its first line is not a session_meta header.`);
  const home = flags.codexHome || homeAboveSessions(path);
  if (!home) throw new ServiceError('invalid_request', `Cannot tell the Codex home from ${path}; pass --codex-home DIR.`);
  return { harness: 'codex', home: resolve(home), sessionId: header.id, cwd: header.cwd, path };
}

function homeAboveSessions(path: string): string | null {
  const segments = path.split(sep);
  const at = segments.lastIndexOf('sessions', segments.length - 2);
  return at > 0 ? segments.slice(0, at).join(sep) || sep : null;
}
