/**
 * The one port every harness reader offers. Pure parsing and reducing live beside each reader; this port is
 * the I/O edge the fleet census, the replay broker and the CLI call.
 */
import type { ActivityBasis } from './kit/activityBasis';
import type { Candidate, Harness, ReplayPage, SeatAddress, SubagentSummary } from '../../../shared/schemas';
import type { SessionMessageFact } from '../teams/sessionMessages';
import type { Usage } from '../../../shared/usage';
import type { Tally } from '../../kit/usage/tally';
import type { CensusView } from './kit/census';

/** What a reader consumed to produce a projection (for the CLI's `read` field and the benchmark). */
export interface ReadStats {
  /** Bytes read from disk (or payload bytes selected from a database) by this call. */
  bytes: number;
  /** Lines (or rows) skipped as malformed or over a bound, counted since the seat's cold read. */
  skippedLines: number;
}

/** A seat's projection, or the reason it is unknown (shown as "?", never 0). */
export type Projection =
  | {
      ok: true;
      subagents: SubagentSummary;
      read: ReadStats;
      /** Milliseconds since epoch of the transcript's last write. */
      lastWriteMs: number | null;
      /** The seat's activity as its records give it, folded in the same pass; evaluated at a time by the fleet. */
      activity: ActivityBasis;
      /** Messages to or from other sessions the journal records (labels only); absent when the harness has none. */
      messages?: SessionMessageFact[];
      /** Context fill, totals and cost from the same pass (issue 26); absent when the harness gave no usage. */
      usage?: Usage;
      /** The seat's usage with its subagents as a tally (hour buckets for "today" and `--since`). */
      usageTally?: Tally;
      /** The record census: the version the records state and what the reader's rules do not know (issue 29). */
      census?: CensusView;
    }
  | { ok: false; reason: string };

/** A replay answer; `refused` is for identity mismatches, escaped ids and foreign cursors (CLI exit 2). */
export type ReplayResult = ReplayPage | { status: 'refused'; reason: string };

/** Options for discovering candidate seats. */
export interface DiscoverOptions {
  /** Most candidates to return, newest first. */
  limit?: number;
}

/** One harness reader. Every method is asynchronous and never throws for bad input: it answers with a reason. */
export interface SeatReader {
  readonly harness: Harness;
  /** Candidate sessions from metadata only (paths, sizes, times, header lines), newest first. */
  discover(options?: DiscoverOptions): Promise<Candidate[]>;
  /**
   * The candidate discovery would list for this session id under the reader's own configured home, looked up by
   * the id alone (no listing limit: an old session still on disk resolves), or null. Never reads a transcript.
   */
  resolve(sessionId: string): Promise<Candidate | null>;
  /** The seat's subagent summary, reading incrementally within the harness's bounds. */
  project(seat: SeatAddress): Promise<Projection>;
  /** One page of a child transcript, resolved only from a recorded native id. */
  replay(seat: SeatAddress, nativeId: string, cursor?: string): Promise<ReplayResult>;
  /** Files or folders whose change should trigger a refresh of this seat (for the file watcher). */
  watchPaths(seat: SeatAddress): string[];
  /** Forget per-seat state (after `seats.close`). */
  forget(seat: SeatAddress): void;
  /** Release caches, handles and databases. */
  dispose(): void;
}
