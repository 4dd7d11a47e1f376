/**
 * Every bound the readers keep, in one place, each with its name and the rule it holds. A reader imports its bounds
 * from here and keeps none of its own, so the design's numbers (ARCHITECTURE rule 4, "Bounded reads") can be read
 * and checked in one file.
 *
 * Units: sizes are bytes; times are milliseconds; text caps are UTF-8 bytes too (what a text costs in memory and on
 * the wire), ellipsis included, never splitting a character (./text `capText`).
 *
 * Layout: the bounds of one area are one record, each bound commented where its value is; every bound is exported
 * under its own name below its record, and that name is what readers import.
 */

import { REPLAY_CURSOR_MAX_LENGTH } from '../../../../shared/bounds';

const KiB = 1024;
const MiB = 1024 * KiB;

// ── journals (Claude and Codex tails) ──────────────────────────────────────────────────────────────────────────
const JOURNALS = {
  /** Cold read: a journal read afresh starts at most this far before its end (rule: last 2 MiB). */
  COLD_READ_BYTES: 2 * MiB,
  /** A journal line longer than this is skipped and counted, never held in memory. */
  MAX_LINE_BYTES: 8 * MiB,
  /** Bytes just before a tail's offset kept to notice a file rewritten in place under the same inode. */
  FINGERPRINT_BYTES: 64,
  /** Size of one read from disk when tailing or scanning lines. */
  READ_CHUNK_BYTES: 1 * MiB,
};
export const { COLD_READ_BYTES, MAX_LINE_BYTES, FINGERPRINT_BYTES, READ_CHUNK_BYTES } = JOURNALS;

// ── the summary every harness gives ────────────────────────────────────────────────────────────────────────────
const SUMMARY = {
  /** Subagents listed in a seat's `recent` tray (rule: 8 recent). */
  RECENT_LIMIT: 8,
  /** Subagents listed as `earlier` (started before the read window), the most recent kept (rule: 64 earlier). */
  EARLIER_LIMIT: 64,
  /** Tool targets (paths) taken from one tool call at most. */
  TARGETS_PER_CALL: 16,
  /** Per-seat reader state kept at most; an evicted seat simply reads cold again. */
  SEAT_STATE_LIMIT: 256,
};
export const { RECENT_LIMIT, EARLIER_LIMIT, TARGETS_PER_CALL, SEAT_STATE_LIMIT } = SUMMARY;

// ── replay (every harness) ─────────────────────────────────────────────────────────────────────────────────────
const REPLAY = {
  /** Entries of one child window, the newest kept (rule: replay 500 entries). */
  REPLAY_WINDOW_ENTRIES: 500,
  /** Bytes of one child window (rule: replay 4 MiB). */
  REPLAY_WINDOW_BYTES: 4 * MiB,
  /** Entries in one replay page; the first page is the newest. */
  REPLAY_PAGE_ENTRIES: 50,
  /** Longest replay cursor issued or accepted, in characters: the contract's bound on a request's cursor. */
  REPLAY_CURSOR_CHARS: REPLAY_CURSOR_MAX_LENGTH,
};
export const { REPLAY_WINDOW_ENTRIES, REPLAY_WINDOW_BYTES, REPLAY_PAGE_ENTRIES, REPLAY_CURSOR_CHARS } = REPLAY;

// ── text caps (UTF-8 bytes, see the top) ────────────────────────────────────────────────────────────────────────
const TEXT_CAPS = {
  /** Longest text of one replay entry (a message, a note, a tool call's input). */
  ENTRY_TEXT_BYTES: 4 * KiB,
  /** Longest excerpt of a tool's output or error. */
  EXCERPT_BYTES: 1000,
  /** Longest one-line summary of a tool input. */
  SUMMARY_BYTES: 200,
  /** Longest note for a message between agents (Codex envelopes). */
  NOTE_BYTES: 280,
  /** Longest label of an earlier subagent (Claude, taken from its first prompt line). */
  EARLIER_LABEL_BYTES: 120,
};
export const { ENTRY_TEXT_BYTES, EXCERPT_BYTES, SUMMARY_BYTES, NOTE_BYTES, EARLIER_LABEL_BYTES } = TEXT_CAPS;

// ── discovery (metadata only) ──────────────────────────────────────────────────────────────────────────────────
const DISCOVERY = {
  /** Candidates discovery returns when the caller gives no limit. */
  DISCOVER_LIMIT: 200,
};
export const { DISCOVER_LIMIT } = DISCOVERY;

// ── Claude ─────────────────────────────────────────────────────────────────────────────────────────────────────
const CLAUDE = {
  /** Claude: project folders listed per discovery walk at most. */
  CLAUDE_DISCOVER_FOLDERS: 2000,
  /** Claude: journal files stat-ed per discovery walk at most, across all folders. */
  CLAUDE_DISCOVER_FILES: 10_000,
  /** Claude: bytes of a journal's head searched for its recorded working folder. */
  CLAUDE_CWD_HEAD_BYTES: 64 * KiB,
  /** Claude: journals whose recorded working folder is remembered at most. */
  CLAUDE_CWD_CACHE: 4096,
  /** Claude: subagent files stat-ed per folder at most (rule 12). */
  CLAUDE_CHILD_FILES_LISTED: 4096,
  /** Claude: subagent first lines read per scan at most (a first line is read once and remembered). */
  CLAUDE_CHILD_HEAD_READS: 256,
  /** Claude: bytes of a subagent file's first line read at most; a longer first line leaves the file unlisted. */
  CLAUDE_CHILD_HEAD_BYTES: 256 * KiB,
  /** Claude: bytes of a subagent's `.meta.json` sidecar read at most. */
  CLAUDE_SIDECAR_BYTES: 64 * KiB,
  /** Claude: ended calls kept before pruning those that can no longer reach `recent`. */
  CLAUDE_PRUNE_AT: 64,
  /** Claude: inline sidechain roots waiting for their result at most (rule 13). */
  CLAUDE_PENDING_ROOTS: 256,
};
export const {
  CLAUDE_DISCOVER_FOLDERS, CLAUDE_DISCOVER_FILES, CLAUDE_CWD_HEAD_BYTES, CLAUDE_CWD_CACHE, CLAUDE_CHILD_FILES_LISTED,
  CLAUDE_CHILD_HEAD_READS, CLAUDE_CHILD_HEAD_BYTES, CLAUDE_SIDECAR_BYTES, CLAUDE_PRUNE_AT, CLAUDE_PENDING_ROOTS
} = CLAUDE;

// ── Codex ──────────────────────────────────────────────────────────────────────────────────────────────────────
const HEADERS_PER_WALK = 4096;
const INDEX_ENTRY_BYTES = 4 * KiB;
const CODEX = {
  /** Codex: children kept per parent, newest first (rule: 64 children). */
  CODEX_CHILDREN: 64,
  /** Codex: parent sessions whose child index is cached (rule: 32 parents). */
  CODEX_PARENTS: 32,
  /** Codex: rollout files (headers) considered per walk, newest date folders first (rule: 4,096 headers). */
  CODEX_HEADERS: HEADERS_PER_WALK,
  /** Codex: bytes read for one header line; a longer first line is skipped and counted (rule: 64 KiB a header). */
  CODEX_HEADER_BYTES: 64 * KiB,
  /** Codex: first chunk of a header read; most headers fit in it. */
  CODEX_HEADER_CHUNK_BYTES: 8 * KiB,
  /** Codex: header reads in flight at once during a walk. */
  CODEX_HEADER_CONCURRENCY: 32,
  /** Codex: rollouts stat-ed synchronously by lobby discovery before it lets other work run (about 1 ms on a local disk). */
  CODEX_STAT_BATCH: 512,
  /** Codex: longest stretch of synchronous folder listing in a walk before it lets other work run. */
  CODEX_WALK_SLICE_MS: 2,
  /** Codex: header cache entries kept (twice the walk, so a full walk never evicts its own headers). */
  CODEX_HEADER_CACHE: HEADERS_PER_WALK * 2,
  /** Codex: rollouts kept in the header index in the app home, the most recent (rule: 4,096 headers). */
  CODEX_HEADER_INDEX_ENTRIES: HEADERS_PER_WALK,
  /** Codex: longest entry of the header index (its JSON); a rollout whose header fields are longer is not indexed. */
  CODEX_HEADER_INDEX_ENTRY_BYTES: INDEX_ENTRY_BYTES,
  /** Codex: largest header index file read; a larger one is set aside and rebuilt. */
  CODEX_HEADER_INDEX_BYTES: HEADERS_PER_WALK * INDEX_ENTRY_BYTES + 64 * KiB,
  /** Codex: a temp file of the header index older than this (or of a dead process) is a crashed write, removed. */
  CODEX_HEADER_INDEX_TEMP_STALE_MS: 60_000,
  /** Codex: least time between two rechecks of the folders that could hold a new child (rule: 2 s). */
  CODEX_RECHECK_MS: 2000,
  /** Codex: cold read of a child rollout scanned for its latest task start. */
  CODEX_TASK_SCAN_COLD_BYTES: 256 * KiB,
  /** Codex: bytes scanned from a forked child's start to find its own first `turn_context`. */
  CODEX_OWN_START_SCAN_BYTES: 64 * MiB,
  /** Codex: tool calls waiting for their output at most (in the parent's reducer). */
  CODEX_PENDING_CALLS: 1024,
  /** Codex: approval requests waiting for an answer at most (activity). */
  CODEX_PENDING_APPROVALS: 256,
};
export const {
  CODEX_CHILDREN, CODEX_PARENTS, CODEX_HEADERS, CODEX_HEADER_BYTES, CODEX_HEADER_CHUNK_BYTES,
  CODEX_HEADER_CONCURRENCY, CODEX_STAT_BATCH, CODEX_WALK_SLICE_MS, CODEX_HEADER_CACHE, CODEX_HEADER_INDEX_ENTRIES,
  CODEX_HEADER_INDEX_ENTRY_BYTES, CODEX_HEADER_INDEX_BYTES, CODEX_HEADER_INDEX_TEMP_STALE_MS, CODEX_RECHECK_MS,
  CODEX_TASK_SCAN_COLD_BYTES, CODEX_OWN_START_SCAN_BYTES, CODEX_PENDING_CALLS, CODEX_PENDING_APPROVALS
} = CODEX;

// ── OpenCode ───────────────────────────────────────────────────────────────────────────────────────────────────
const OPENCODE = {
  /** OpenCode: newest messages of a session read (rule: 500 messages). */
  OPENCODE_MESSAGES: 500,
  /** OpenCode: newest parts of those messages read (rule: 2,000 parts). */
  OPENCODE_PARTS: 2000,
  /** OpenCode: part payload selected from the database at most (rule: 4 MiB). */
  OPENCODE_PAYLOAD_BYTES: 4 * MiB,
  /** OpenCode: task calls kept per seat (rule: 64 calls). */
  OPENCODE_TASK_CALLS: 64,
  /** OpenCode: longest message, part or call id a replay takes (a replay cursor carries them). */
  OPENCODE_ID_CHARS: 128,
  /** OpenCode: an unchanged store (same db and WAL size and mtime) reuses its last projection at most this long. */
  OPENCODE_UNCHANGED_REUSE_MS: 5_000,
  /** OpenCode: largest message row the usage pass parses (issue 36); a larger one is skipped and counted. */
  OPENCODE_USAGE_ROW_BYTES: 1 * MiB,
};
export const {
  OPENCODE_MESSAGES, OPENCODE_PARTS, OPENCODE_PAYLOAD_BYTES, OPENCODE_TASK_CALLS, OPENCODE_ID_CHARS,
  OPENCODE_UNCHANGED_REUSE_MS, OPENCODE_USAGE_ROW_BYTES
} = OPENCODE;
