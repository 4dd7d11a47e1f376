/**
 * The fuzz suite's harnesses (issue 36): for each, valid records shaped as the harness writes them (Claude journal
 * lines; Codex rollout lines and headers, parent and child; OpenCode session, message and part rows), how one
 * mutation is written to disk, and the real reader that reads it back for the property (./property.ts).
 */
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Harness, SeatAddress } from '../../../shared/schemas';
import { createClaudeReader } from '../../sources/readers/claude/reader';
import { escapeCwd } from '../../sources/readers/claude/locate';
import { createCodexReader } from '../../sources/readers/codex/reader';
import { createOpenCodeReader } from '../../sources/readers/opencode/reader';
import type { SeatReader } from '../../sources/readers/port';
import { applyBytes, applyStructural, lineOf, type Json, type Mutation } from './mutate';
import { FuzzHost } from './property';

/** One harness under the fuzz: its valid records and one run of the property over a mutation of them. */
export interface FuzzHarness {
  harness: Harness;
  /** The valid records a mutation starts from. */
  records: Json[];
  /** Writes the mutated records, reads them with the real reader and checks the property; the failure or null. */
  run(mutations: readonly Mutation[]): Promise<string | null>;
  /** Removes the temp files. */
  dispose(): void;
}

/**
 * Where the harnesses write: a memory file system when the machine has one (/dev/shm), else the temp folder. Each
 * mutation rewrites its files; on a disk file system every truncating rewrite costs milliseconds of flushing, which
 * over thousands of mutations was most of the slice's time, and says nothing about the readers.
 */
function scratchRoot(): string {
  try {
    if (statSync('/dev/shm').isDirectory()) {
      accessSync('/dev/shm', constants.W_OK);
      return '/dev/shm';
    }
  } catch {
    // no memory file system here: the temp folder
  }
  return tmpdir();
}

const T0 = Date.UTC(2026, 5, 1, 9, 0, 0);
const iso = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

/** The records after the mutations, each as bytes (a byte-level mutation changes its record's bytes only). */
function mutatedLines(records: Json[], list: readonly Mutation[], self: (records: Json[], variant: number) => Json[]): Buffer[] {
  return applyStructural(records, list, self).map((record, index) => applyBytes(lineOf(record), index, list));
}

/**
 * The one host of a harness's run (./property.ts), made on first use and made again after a failure (so a failure
 * never leaks into the next mutation, and fast-check's shrinking sees each mutation alone).
 */
function hostKeeper(seat: SeatAddress) {
  let host: FuzzHost | null = null;
  return {
    /** Checks the property with `reader` (a fresh reader for this mutation, or the kept one told to forget the seat). */
    async check(reader: SeatReader, fresh: boolean): Promise<string | null> {
      if (!host) host = new FuzzHost(reader, seat);
      const failure = await host.check(fresh ? reader : undefined);
      if (failure !== null) {
        host.dispose();
        host = null;
      }
      return failure;
    },
    dispose(): void {
      host?.dispose();
      host = null;
    },
  };
}

// ── Claude Code ────────────────────────────────────────────────────────────────────────────────────────────────
const CLAUDE_SESSION = 'f0000000-0000-4000-8000-000000000036';
const CLAUDE_CWD = '/work/fuzz';

function claudeRecords(): Json[] {
  const base = (type: string, second: number, uuid: string, parent: string | null) => ({ parentUuid: parent, isSidechain: false, userType: 'external', cwd: CLAUDE_CWD, sessionId: CLAUDE_SESSION, version: '2.1.114', type, uuid, timestamp: iso(second) });
  const usage = (input: number) => ({ input_tokens: input, output_tokens: 20, cache_read_input_tokens: 1_000, cache_creation_input_tokens: 200 });
  return [
    { ...base('user', 0, 'u-1', null), message: { role: 'user', content: 'Look into the failing build.' } },
    { ...base('assistant', 1, 'u-2', 'u-1'), requestId: 'req_1', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Agent', input: { description: 'Find the failing test', prompt: 'Please find it.', subagent_type: 'Explore' } }], stop_reason: null, usage: usage(100) } },
    { ...base('user', 9, 'u-3', 'u-2'), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'Found it.' }] }] }, toolUseResult: { status: 'completed', agentId: 'a0123456789abcdef', totalTokens: 1234 } },
    { ...base('assistant', 10, 'u-4', 'u-3'), requestId: 'req_2', message: { id: 'msg_2', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn', usage: usage(150) } },
  ];
}

function claudeSelf(records: Json[], variant: number): Json[] {
  const lines = records as Array<Record<string, Json>>;
  if (variant === 0) lines[1].parentUuid = lines[1].uuid;
  if (variant === 1) lines[0].parentUuid = 'u-4';
  if (variant === 2) ((lines[2].message as Record<string, Json[]>).content[0] as Record<string, Json>).tool_use_id = 'u-3';
  if (variant === 3) (lines[2].toolUseResult as Record<string, Json>).agentId = CLAUDE_SESSION;
  return lines;
}

/** Claude Code: a journal of four lines under a temp home. */
export function claudeHarness(): FuzzHarness {
  const home = mkdtempSync(join(scratchRoot(), 'pixelfleet-fuzz-claude-'));
  const folder = join(home, 'projects', escapeCwd(CLAUDE_CWD));
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `${CLAUDE_SESSION}.jsonl`);
  const records = claudeRecords();
  const host = hostKeeper({ harness: 'claude', home, sessionId: CLAUDE_SESSION, cwd: CLAUDE_CWD, path });
  return {
    harness: 'claude',
    records,
    async run(mutation) {
      writeFileSync(path, Buffer.concat(mutatedLines(records, mutation, claudeSelf).flatMap((line) => [line, Buffer.from('\n')])));
      // A fresh reader per mutation: the journal is rewritten in place, never appended to, so none of its state may carry over.
      return host.check(createClaudeReader({ home }), true);
    },
    dispose: () => {
      host.dispose();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

// ── Codex CLI ──────────────────────────────────────────────────────────────────────────────────────────────────
const CODEX_PARENT = '019d0000-0000-7000-8000-000000000036';
const CODEX_CHILD = '019d0000-0000-7000-8000-000000000037';
/** Records before this index are the parent rollout's lines, the rest the child's. */
const CODEX_SPLIT = 6;

function codexRecords(): Json[] {
  const figures = (input: number) => ({ input_tokens: input, cached_input_tokens: 100, output_tokens: 30, reasoning_output_tokens: 5, total_tokens: input + 30 });
  const tokenCount = (second: number, input: number) => ({ timestamp: iso(second), type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: figures(input), last_token_usage: figures(input), model_context_window: 272_000 }, rate_limits: null } });
  const header = (id: string, second: number, source: Json) => ({ timestamp: iso(second), type: 'session_meta', payload: { id, timestamp: iso(second), cwd: '/home/dev/repo', originator: 'codex_cli_rs', cli_version: '0.120.0', source } });
  return [
    header(CODEX_PARENT, 0, 'cli'),
    { timestamp: iso(1), type: 'turn_context', payload: { turn_id: 't1', cwd: '/home/dev/repo', model: 'gpt-5.1-codex', summary: 'auto' } },
    { timestamp: iso(1), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix the build.' }] } },
    { timestamp: iso(2), type: 'response_item', payload: { type: 'function_call', name: 'spawn_agent', arguments: JSON.stringify({ message: 'look' }), call_id: 'call_1' } },
    { timestamp: iso(2), type: 'response_item', payload: { type: 'function_call_output', call_id: 'call_1', output: JSON.stringify({ agent_id: CODEX_CHILD }) } },
    tokenCount(3, 1_000),
    header(CODEX_CHILD, 2, { subagent: { thread_spawn: { parent_thread_id: CODEX_PARENT, depth: 1, agent_path: null, agent_nickname: 'Scout', agent_role: 'worker' } } }),
    tokenCount(4, 500),
  ];
}

function codexSelf(records: Json[], variant: number): Json[] {
  const payload = (index: number) => records[index] as { payload: Record<string, Json> };
  if (variant === 0) payload(0).payload.source = { subagent: { thread_spawn: { parent_thread_id: CODEX_PARENT, depth: 1 } } };
  if (variant === 1) payload(CODEX_SPLIT).payload.id = CODEX_PARENT;
  if (variant === 2) payload(CODEX_SPLIT).payload.source = { subagent: { thread_spawn: { parent_thread_id: CODEX_CHILD, depth: 1 } } };
  if (variant === 3) payload(4).payload.output = JSON.stringify({ agent_id: CODEX_PARENT });
  return records;
}

/** Codex CLI: a parent rollout that spawns one child, and the child's rollout, under a temp home. */
export function codexHarness(): FuzzHarness {
  const home = mkdtempSync(join(scratchRoot(), 'pixelfleet-fuzz-codex-'));
  const folder = join(home, 'sessions', '2026', '06', '01');
  mkdirSync(folder, { recursive: true });
  const parentPath = join(folder, `rollout-2026-06-01T09-00-00-${CODEX_PARENT}.jsonl`);
  const childPath = join(folder, `rollout-2026-06-01T09-00-02-${CODEX_CHILD}.jsonl`);
  const records = codexRecords();
  const host = hostKeeper({ harness: 'codex', home, sessionId: CODEX_PARENT, cwd: null, path: parentPath });
  return {
    harness: 'codex',
    records,
    async run(mutation) {
      const lines = mutatedLines(records, mutation, codexSelf).map((line) => Buffer.concat([line, Buffer.from('\n')]));
      writeFileSync(parentPath, Buffer.concat(lines.slice(0, CODEX_SPLIT)));
      writeFileSync(childPath, Buffer.concat(lines.slice(CODEX_SPLIT)));
      // A fresh reader per mutation (its header index included): the rollouts are rewritten in place.
      return host.check(createCodexReader({ home }), true);
    },
    dispose: () => {
      host.dispose();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

// ── OpenCode ───────────────────────────────────────────────────────────────────────────────────────────────────
const OC_PARENT = 'ses_fuzzParent000036';
const OC_CHILD = 'ses_fuzzChild0000037';

/** The store's tables as OpenCode creates them, without primary keys or NOT NULL (a hostile store may lack them). */
const LOOSE_SCHEMA = `
  CREATE TABLE session (id TEXT, parent_id TEXT, directory TEXT, title TEXT DEFAULT '', time_created INTEGER, time_updated INTEGER);
  CREATE TABLE message (id TEXT, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT);
  CREATE TABLE part (id TEXT, message_id TEXT, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT);
  CREATE INDEX session_parent_idx ON session (parent_id);
  CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
  CREATE INDEX part_message_id_id_idx ON part (message_id, id);`;

type Row = { table: 'session' | 'message' | 'part'; [column: string]: Json };

function openCodeRecords(): Json[] {
  const tokens = (input: number) => ({ input, output: 20, reasoning: 0, cache: { read: 1_000, write: 100 } });
  const rows: Row[] = [
    { table: 'session', id: OC_PARENT, parent_id: null, directory: '/work/repo', time_created: T0, time_updated: T0 },
    { table: 'session', id: OC_CHILD, parent_id: OC_PARENT, directory: '/work/repo', time_created: T0 + 2_000, time_updated: T0 + 2_000 },
    { table: 'message', id: 'msg_1', session_id: OC_PARENT, time_created: T0 + 1_000, time_updated: T0 + 1_000, data: { role: 'user', time: { created: T0 + 1_000 } } },
    { table: 'message', id: 'msg_2', session_id: OC_PARENT, time_created: T0 + 1_500, time_updated: T0 + 1_500, data: { role: 'assistant', modelID: 'claude-sonnet-4-5', providerID: 'anthropic', time: { created: T0 + 1_500, completed: T0 + 9_000 }, tokens: tokens(100), cost: 0.01, finish: 'stop' } },
    { table: 'part', id: 'prt_1', message_id: 'msg_2', session_id: OC_PARENT, time_created: T0 + 1_600, time_updated: T0 + 1_600, data: { type: 'tool', callID: 'call_1', tool: 'task', state: { status: 'completed', input: { description: 'Find the test', prompt: 'p', subagent_type: 'general' }, metadata: { sessionId: OC_CHILD }, time: { start: T0 + 1_600, end: T0 + 8_000 }, output: 'done' } } },
    { table: 'message', id: 'msg_3', session_id: OC_CHILD, time_created: T0 + 2_500, time_updated: T0 + 2_500, data: { role: 'assistant', modelID: 'claude-sonnet-4-5', time: { created: T0 + 2_500, completed: T0 + 7_000 }, tokens: tokens(50), cost: 0.005 } },
    { table: 'part', id: 'prt_2', message_id: 'msg_3', session_id: OC_CHILD, time_created: T0 + 2_600, time_updated: T0 + 2_600, data: { type: 'text', text: 'Found it.' } },
  ];
  return rows as unknown as Json[];
}

function openCodeSelf(records: Json[], variant: number): Json[] {
  const rows = records as unknown as Row[];
  if (variant === 0) rows[0].parent_id = OC_PARENT;
  if (variant === 1) rows[0].parent_id = OC_CHILD;
  if (variant === 2) rows[1].parent_id = OC_CHILD;
  if (variant === 3) ((((rows[4].data as Record<string, Json>).state as Record<string, Json>).metadata as Record<string, Json>).sessionId = OC_PARENT);
  return records;
}

/** The value bound for a column: numbers and strings as they are, JSON data as text (or the mutated bytes). */
function columnValue(value: Json | Buffer): unknown {
  if (Buffer.isBuffer(value)) return value;
  if (value === null || typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return JSON.stringify(value);
}

/** OpenCode: a parent session with one task call into a child session, in a store rewritten for each mutation. */
export function openCodeHarness(): FuzzHarness {
  const dir = mkdtempSync(join(scratchRoot(), 'pixelfleet-fuzz-opencode-'));
  const path = join(dir, 'opencode.db');
  const database = new Database(path);
  // Each mutation rewrites the store: no fsync per run (the file is a throwaway).
  database.pragma('journal_mode = MEMORY');
  database.pragma('synchronous = OFF');
  database.exec(LOOSE_SCHEMA);
  const records = openCodeRecords();
  // One reader for the run, as a host keeps one over a store that changes under it: it forgets the seat per mutation.
  const reader = createOpenCodeReader({ db: path });
  const host = hostKeeper({ harness: 'opencode', home: path, sessionId: OC_PARENT, cwd: '/work/repo', path: null });
  return {
    harness: 'opencode',
    records,
    async run(mutation) {
      const rows = mutatedRows(records, mutation);
      database.exec('DELETE FROM session; DELETE FROM message; DELETE FROM part;');
      const write = database.transaction(() => {
        for (const row of rows) {
          if (!row || typeof row !== 'object' || Array.isArray(row)) continue;
          const table = (row as Row).table;
          if (table !== 'session' && table !== 'message' && table !== 'part') continue;
          const columns = Object.keys(row).filter((key) => key !== 'table' && /^[a-z_]+$/.test(key));
          if (columns.length === 0) continue;
          try {
            database.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(...columns.map((key) => columnValue((row as Record<string, Json | Buffer>)[key])));
          } catch {
            // A column the mutation made unbindable: that row is simply not written.
          }
        }
      });
      write();
      return host.check(reader, false);
    },
    dispose: () => {
      host.dispose();
      reader.dispose();
      database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function mutatedRows(records: Json[], list: readonly Mutation[]): Array<Record<string, Json | Buffer>> {
  const rows = structuredClone(applyStructural(records, list, openCodeSelf)) as unknown as Array<Record<string, Json | Buffer>>;
  // A byte-level mutation works on the row's data column (the JSON OpenCode writes); the others on the whole row.
  for (const [index, row] of rows.entries()) {
    if (!list.some((change) => change.record === index && (change.kind === 'truncate' || change.kind === 'nul' || change.kind === 'utf8' || change.kind === 'huge-line'))) continue;
    if (!row || typeof row !== 'object' || Array.isArray(row)) continue;
    const bytes = applyBytes(lineOf((row.data ?? null) as Json), index, list);
    row.data = list.some((change) => change.record === index && change.kind === 'utf8') ? bytes : bytes.toString('utf8');
  }
  return rows;
}

/** Every harness's fuzz setup, by name. */
export const FUZZ_HARNESSES: Record<Harness, () => FuzzHarness> = { claude: claudeHarness, codex: codexHarness, opencode: openCodeHarness };
