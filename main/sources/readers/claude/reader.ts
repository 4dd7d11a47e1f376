/**
 * The Claude Code seat reader: the I/O edge around the pure parser and reducer. Per seat it keeps the journal's
 * tail state and the projection state, so a refresh reads only what was appended.
 */
import path from 'node:path';
import type { Candidate, SeatAddress, SubagentSummary } from '../../../../shared/schemas';
import type { DiscoverOptions, Projection, ReplayResult, SeatReader } from '../port';
import { DEFAULT_TAIL, tailReduce, type TailOptions, type TailState } from '../tail';
import { ChildFileIndex } from './childFiles';
import { discoverSessions, findSession } from './discover';
import { earlierEntries } from './earlier';
import { createFold, foldLine, type ClaudeFold } from './journalFold';
import { escapeCwd, locateJournal, projectsDir } from './locate';
import { olderThanWindow, REPLAY_REASONS } from './reasons';
import type { CallRecord } from './projectionState';
import { activityOf, locateCall, recentCalls, summarize, unreplayable } from './reducer';
import { replayChild } from './replay';
import { replayInline } from './replayInline';
import { inlineReplayable, sharedPrompts } from './sidechains';
import { DISCOVER_LIMIT } from '../kit/bounds';
import { SeatStates } from '../kit/seatStates';
import { UsageLedger } from './ledger';
import { claudeUsage, type ClaudeUsageAnswer } from './usage';
import { censusView } from '../kit/census';
import { CLAUDE_KNOWN } from './known';

/** Options of the Claude reader. */
export interface ClaudeReaderOptions {
  /** The Claude home (`CLAUDE_CONFIG_DIR`, default `~/.claude`); sessions live in `<home>/projects`. */
  home: string;
  /** Tail bounds; the design's are the default. */
  tail?: TailOptions;
  /** The app's background pass of whole-session usage; absent: the reader keeps one in memory. */
  usageLedger?: UsageLedger;
  /** The clock that spaces out a reading pass's growing totals (tests); `Date.now` by default. */
  now?: () => number;
}


interface SeatState {
  journal: string | null;
  tail: TailState | null;
  /** What the journal gave since the last cold read: projection, messages, whether the window starts inside it. */
  fold: ClaudeFold;
  /** The projection as an unchanged read returns it (0 bytes read), the same object until the journal changes. */
  quiet: Projection | null;
  /** The session's subagent files on disk, kept once a live locator or the earlier list needs them (rules 11–12). */
  children: ChildFileIndex | null;
  /** The last usage answer, reused while neither the journal nor the background pass moved (issue 26). */
  usage: ClaudeUsageAnswer | null;
  /** The last projection handed out with usage, and what it was built from: an unchanged seat gets the same object. */
  withUsage: { base: Projection; answer: ClaudeUsageAnswer; out: Projection } | null;
}

/** Creates the reader for Claude Code seats. */
export function createClaudeReader(options: ClaudeReaderOptions): SeatReader {
  const tailOptions = options.tail ?? DEFAULT_TAIL;
  const ledger = options.usageLedger ?? new UsageLedger();
  const now = options.now ?? Date.now;
  const seats = new SeatStates<SeatState>(
    () => ({ journal: null, tail: null, fold: createFold(), quiet: null, children: null, usage: null, withUsage: null }),
    seatKey,
  );

  async function refresh(seat: SeatAddress, state: SeatState): Promise<Projection> {
    state.journal ??= await locateJournal(seat);
    if (!state.journal) return { ok: false, reason: 'journal not found' };
    let result;
    try {
      // Each line is folded as it is read; a cold read (first, rotated, truncated, rewritten) starts a fresh fold
      // before its first line (rule 8), so the journal is read once.
      const step = await tailReduce(state.journal, state.tail, tailOptions, state.fold, (_cause, windowStart) => createFold(windowStart), foldLine);
      result = step.result;
      state.fold = step.derived;
    } catch (error) {
      state.tail = null;
      state.quiet = null;
      state.fold = createFold();
      const code = (error as NodeJS.ErrnoException).code;
      // Forget a located (not given) path: the session may reappear elsewhere.
      if (!seat.path) state.journal = null;
      return { ok: false, reason: code === 'ENOENT' ? 'journal not found' : `journal unreadable (${code ?? 'error'})` };
    }
    state.tail = result.state;
    const childrenMoved = await refreshChildren(state, state.journal);
    // Nothing moved on disk: the same answer as last time, without summarising again.
    if (!result.changed && !childrenMoved && state.quiet) return state.quiet;
    const { projection: folded, messages } = state.fold;
    const read = { bytes: result.bytesRead, skippedLines: result.state.skippedLines + folded.skippedLines };
    const census = censusView(state.fold.census, CLAUDE_KNOWN);
    const projection: Projection = { ok: true, subagents: summaryOf(state), read, lastWriteMs: result.state.mtimeMs, activity: activityOf(folded), messages, census };
    state.quiet = { ...projection, read: { ...read, bytes: 0 } };
    return projection;
  }

  /** The projection with the seat's usage and each located subagent's (issue 26); from memory, no read. */
  function withUsage(state: SeatState, projection: Projection): Projection {
    if (!projection.ok || !state.journal || !state.tail) return projection;
    const answer = claudeUsage(state.fold, state.journal, state.tail.size, projection.subagents, ledger, state.usage, now());
    state.usage = answer;
    const last = state.withUsage;
    if (last && last.base === projection && last.answer === answer) return last.out;
    const out: Projection = { ...projection, subagents: answer.subagents, usage: answer.usage.usage, usageTally: answer.usage.tally };
    // The quiet answer (0 bytes read) keeps its identity; a read's answer is handed out once.
    if (projection === state.quiet) state.withUsage = { base: projection, answer, out };
    return out;
  }

  /**
   * Rescans the session's subagent files when a running call still lacks a locator (its sidecar may name it,
   * rule 11) or the read window starts inside the journal (earlier subagents, rule 12); true when they changed.
   * Only the earlier list shows the files' times, so only it has every listed file statted again.
   */
  async function refreshChildren(state: SeatState, journal: string): Promise<boolean> {
    const { projection, windowed } = state.fold;
    const unlocated = [...projection.running].some((id) => projection.calls.get(id)?.agentId === null);
    if (!windowed && !unlocated) return false;
    const sessionId = projection.sessionId ?? path.basename(journal, '.jsonl');
    if (!state.children || state.children.sessionId !== sessionId) state.children = new ChildFileIndex(path.dirname(journal), sessionId);
    const moved = await state.children.refresh({ flat: windowed, before: windowed ? projection.firstAt : null, restat: windowed });
    let located = false;
    for (const file of state.children.files) {
      if (file.toolUseId !== null && locateCall(projection, file.toolUseId, file.agentId)) located = true;
    }
    return moved || located;
  }

  /** The summary, with the earlier subagents on disk when the window starts inside the journal (rule 12). */
  function summaryOf(state: SeatState): SubagentSummary {
    const { projection, windowed } = state.fold;
    const summary = summarize(projection);
    if (!windowed || !state.children) return summary;
    const earlier = earlierEntries(state.children.files, projection.firstAt, recentCalls(projection));
    return earlier.length > 0 ? { ...summary, earlier } : summary;
  }

  /** The replay of a call the projection knows: its child file, its inline sidechain, or why neither. */
  function replayCall(seat: SeatAddress, state: SeatState, journal: string, call: CallRecord, cursor: string | undefined): Promise<ReplayResult> | ReplayResult {
    const target = { parentJournal: journal, sessionId: state.fold.projection.sessionId ?? seat.sessionId, seatSessionId: seat.sessionId };
    if (call.agentId !== null) return replayChild({ ...target, call }, cursor);
    const shared = sharedPrompts(state.fold.projection);
    if (call.sidechain && inlineReplayable(call, shared)) return replayInline({ ...target, call: { ...call, sidechain: call.sidechain } }, cursor);
    return { status: 'unavailable', reason: REPLAY_REASONS[unreplayable(call, shared)] };
  }

  return {
    harness: 'claude',

    // No cache here: the fleet keeps the one candidate cache, so a walk is only ever reused by one rule.
    discover(discoverOptions?: DiscoverOptions): Promise<Candidate[]> {
      return discoverSessions(options.home, discoverOptions?.limit ?? DISCOVER_LIMIT);
    },

    resolve(sessionId: string): Promise<Candidate | null> {
      return findSession(options.home, sessionId);
    },

    project(seat: SeatAddress): Promise<Projection> {
      return seats.run(seat, async (state) => withUsage(state, await refresh(seat, state)));
    },

    replay(seat: SeatAddress, nativeId: string, cursor?: string): Promise<ReplayResult> {
      return seats.run(seat, async (state): Promise<ReplayResult> => {
        const projection = await refresh(seat, state);
        if (!projection.ok) return { status: 'unavailable', reason: `The session journal cannot be read (${projection.reason}).` };
        const journal = state.journal;
        if (!journal) return { status: 'unavailable', reason: REPLAY_REASONS.notInSession };
        const call = state.fold.projection.calls.get(nativeId);
        if (call) return replayCall(seat, state, journal, call, cursor);
        // An earlier subagent: its own file is the locator, and replay checks its ids line by line (rule 12).
        const file = state.children?.byNativeId(nativeId);
        const sessionId = state.fold.projection.sessionId ?? seat.sessionId;
        if (file) return replayChild({ parentJournal: journal, sessionId, seatSessionId: seat.sessionId, call: { nativeId, agentId: file.agentId, state: 'ended' } }, cursor);
        return { status: 'unavailable', reason: state.fold.windowed ? olderThanWindow(tailOptions.coldBytes) : REPLAY_REASONS.notInSession };
      });
    },

    watchPaths(seat: SeatAddress): string[] {
      if (seat.path) return [seat.path];
      const known = seats.peek(seat)?.journal;
      if (known) return [known];
      // Not located yet: watch where it would be when the folder is known, else the projects folder itself.
      if (seat.cwd) return [path.join(projectsDir(seat.home), escapeCwd(seat.cwd), `${seat.sessionId}.jsonl`)];
      return [projectsDir(seat.home)];
    },

    forget(seat: SeatAddress): void {
      seats.forget(seat);
    },

    dispose(): void {
      seats.clear();
    },
  };
}

function seatKey(seat: SeatAddress): string {
  // NUL cannot occur in a path or a session id, so the fields cannot run into each other.
  return `${seat.home}\0${seat.sessionId}\0${seat.path ?? '\0'}\0${seat.cwd ?? '\0'}`;
}
