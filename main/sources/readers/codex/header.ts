/**
 * Codex rollout headers: line 1 of a rollout is its `session_meta`. Pure parsing here, plus the one bounded read
 * of that first line (64 KiB). Later `session_meta` lines (copied into forked children) are never headers.
 */
import type { FileHandle } from 'node:fs/promises';
import { CODEX_HEADER_BYTES, CODEX_HEADER_CHUNK_BYTES } from '../kit/bounds';
import { asObject, asText, parseObject } from '../kit/json';


/** What line 1 says about a rollout: who it is and whether it is a spawned child or an internal helper. */
export interface CodexHeader {
  id: string;
  timestamp: string | null;
  cwd: string | null;
  forkedFromId: string | null;
  /** `session` = a user-visible session; `child` = spawned by a thread; `helper` = review/compact/memory/other. */
  origin: 'session' | 'child' | 'helper';
  parentThreadId: string | null;
  agentPath: string | null;
  nickname: string | null;
  role: string | null;
  /** The `cli_version` the header states (absent where a header came from the index file, which does not keep it). */
  cliVersion?: string | null;
}

/** Rule 1 (headers): parses a header line; null when line 1 is not a `session_meta` with an id. */
export function parseHeader(line: string): CodexHeader | null {
  const envelope = parseObject(line);
  if (!envelope || envelope.type !== 'session_meta') return null;
  const payload = asObject(envelope.payload);
  const id = payload ? asText(payload.id) : null;
  if (!payload || !id) return null;

  const source = asObject(payload.source);
  const subagent = source ? source.subagent : undefined;
  const spawn = asObject(asObject(subagent)?.thread_spawn);
  let origin: CodexHeader['origin'] = 'session';
  // Any `subagent` source other than thread_spawn (review, compact, memory_consolidation, PascalCase Review,
  // {other}) is an internal helper session, never a seat nor a child.
  if (spawn) origin = 'child';
  else if (subagent !== undefined) origin = 'helper';

  const topRole = asText(payload.agent_role) ?? asText(payload.agent_type);
  const spawnRole = spawn ? (asText(spawn.agent_role) ?? asText(spawn.agent_type)) : null;
  return {
    id,
    timestamp: asText(payload.timestamp) ?? asText(envelope.timestamp),
    cwd: asText(payload.cwd),
    forkedFromId: asText(payload.forked_from_id),
    origin,
    parentThreadId: spawn ? asText(spawn.parent_thread_id) : null,
    agentPath: (spawn ? asText(spawn.agent_path) : null) ?? asText(payload.agent_path),
    nickname: (spawn ? asText(spawn.agent_nickname) : null) ?? asText(payload.agent_nickname),
    role: spawnRole ?? topRole,
    cliVersion: asText(payload.cli_version),
  };
}

/** The result of reading line 1: a header, a line over the bound, an incomplete first line, or no header. */
export type HeaderRead =
  | { kind: 'header'; header: CodexHeader; bytes: number }
  | { kind: 'too-long'; bytes: number }
  | { kind: 'incomplete'; bytes: number }
  | { kind: 'invalid'; bytes: number };


/** Reads at most 64 KiB + 1 byte from an open rollout, in chunks, and classifies its first line. */
export async function readHeaderFrom(handle: FileHandle): Promise<HeaderRead> {
  const limit = CODEX_HEADER_BYTES + 1;
  // Most headers fit in the first chunk: the buffer grows only for a longer line (a cold walk reads 4,096 of them,
  // and a zero-filled 64 KiB each was a quarter of a GiB to fill and collect).
  let buffer = Buffer.allocUnsafe(CODEX_HEADER_CHUNK_BYTES);
  let filled = 0;
  while (filled < limit) {
    if (filled === buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(limit, buffer.length * 2));
      buffer.copy(grown, 0, 0, filled);
      buffer = grown;
    }
    const want = Math.min(CODEX_HEADER_CHUNK_BYTES, buffer.length - filled);
    const { bytesRead } = await handle.read(buffer, filled, want, filled);
    if (bytesRead === 0) break;
    const newline = buffer.subarray(filled, filled + bytesRead).indexOf(10);
    filled += bytesRead;
    if (newline >= 0) return classify(buffer.subarray(0, filled - bytesRead + newline).toString('utf8'), filled);
  }
  if (filled > CODEX_HEADER_BYTES) return { kind: 'too-long', bytes: filled };
  // No newline yet: the first line may still be being written; accept it only when it is complete JSON.
  const header = filled > 0 ? parseHeader(buffer.subarray(0, filled).toString('utf8')) : null;
  return header ? { kind: 'header', header, bytes: filled } : { kind: 'incomplete', bytes: filled };
}

function classify(line: string, bytes: number): HeaderRead {
  const header = parseHeader(line);
  return header ? { kind: 'header', header, bytes } : { kind: 'invalid', bytes };
}

/** Label of a child: `nickname · path`, either alone, else the role, else `subagent`. */
export function childLabel(header: Pick<CodexHeader, 'nickname' | 'agentPath' | 'role'>): string {
  const parts = [header.nickname, header.agentPath].filter((part): part is string => Boolean(part));
  if (parts.length > 0) return parts.join(' · ');
  return header.role ?? 'subagent';
}
