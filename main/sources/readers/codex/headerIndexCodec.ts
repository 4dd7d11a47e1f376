/**
 * The text of the Codex header index (pure): version 2 writes one JSON array per rollout, in walk order,
 * `[path, size, mtimeMs, kind, id, timestamp, cwd, forkedFromId, parentThreadId, agentPath, nickname, role]` for a
 * header (`kind` is its origin) and `[path, size, mtimeMs, kind]` for a skipped first line; a field without a value
 * is null. Rows are checked by hand, field by field: a warm discovery reads this file on every start, and checking
 * 4,096 rows through a schema cost more than the rest of the discovery (5 ms warm, 28 ms on a fresh start).
 * Version 1 (one object per rollout) is read through ./headerIndexV1 and marked stale, so it is written anew.
 */
import { sep } from 'node:path';
import { CODEX_HEADER_INDEX_ENTRIES, CODEX_HEADER_INDEX_ENTRY_BYTES } from '../kit/bounds';
import type { CodexHeader } from './header';
import { decodeIndexV1 } from './headerIndexV1';
import type { IndexedHeader, IndexedRead, IndexedRollouts, IndexRows } from './headerIndexRows';

/** The format this build writes; version 1 is migrated, any other is set aside and rebuilt. */
export const HEADER_INDEX_VERSION = 2;

/**
 * What a text of the index file holds: its rollouts (`stale`: an older version, to be written again in this one),
 * an index of another home, or why it cannot be used.
 */
export type DecodedIndex = { kind: 'index'; rollouts: IndexedRollouts; stale: boolean } | { kind: 'foreign' } | { kind: 'unusable'; reason: string };

/** A path under `sessions/`, `/`-separated, in the layout discovery walks (`YYYY/MM/DD/rollout-*.jsonl`). */
export const ROLLOUT_PATH = /^\d{4}\/\d{2}\/\d{2}\/rollout-[^/\\]*\.jsonl$/;
const ORIGINS: ReadonlySet<string> = new Set<CodexHeader['origin']>(['session', 'child', 'helper']);
const SKIPPED: ReadonlySet<string> = new Set<IndexedRead['kind']>(['too-long', 'invalid']);
const FIELDS = ['id', 'timestamp', 'cwd', 'forkedFromId', 'parentThreadId', 'agentPath', 'nickname', 'role'] as const;
const HEADER_ROW = 4 + FIELDS.length;
const SKIPPED_ROW = 4;
const TOP_KEYS = ['version', 'codexHome', 'rollouts'];

/** Reads an index text written for `codexHome` (pure). */
export function decodeIndex(text: string, codexHome: string): DecodedIndex {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'unusable', reason: 'is not JSON (truncated or damaged)' };
  }
  const top = typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
  const version = top && 'version' in top ? top.version : undefined;
  if (version === 1) return ofHome(decodeIndexV1(json), codexHome, true);
  if (version !== HEADER_INDEX_VERSION || !top) return { kind: 'unusable', reason: `has version ${JSON.stringify(version) ?? 'none'}, not ${HEADER_INDEX_VERSION}` };
  return ofHome(decodeRows(top), codexHome, false);
}

function invalidIndex(where: string, what: string): IndexRows {
  return { kind: 'invalid', where, what };
}

function decodeRows(top: Record<string, unknown>): IndexRows {
  const extra = Object.keys(top).find((key) => !TOP_KEYS.includes(key));
  if (extra !== undefined) return invalidIndex(extra, 'unknown field');
  if (typeof top.codexHome !== 'string' || top.codexHome === '') return invalidIndex('codexHome', 'not a path');
  const rows = top.rollouts;
  if (!Array.isArray(rows)) return invalidIndex('rollouts', 'not a list');
  if (rows.length > CODEX_HEADER_INDEX_ENTRIES) return invalidIndex('rollouts', `more than ${CODEX_HEADER_INDEX_ENTRIES} entries`);
  const paths = new Array<string>(rows.length);
  const entries = new Array<IndexedHeader>(rows.length);
  for (let index = 0; index < rows.length; index++) {
    const row: unknown = rows[index];
    const problem = rowProblem(row);
    if (problem !== null) return invalidIndex(`rollouts.${index}`, problem);
    paths[index] = (row as Row)[0];
    entries[index] = rowEntry(row as Row);
  }
  return { kind: 'rows', codexHome: top.codexHome, paths, entries };
}

function ofHome(decoded: IndexRows, codexHome: string, stale: boolean): DecodedIndex {
  if (decoded.kind === 'invalid') return { kind: 'unusable', reason: `does not hold a valid index (${decoded.where || 'top'}: ${decoded.what})` };
  if (decoded.codexHome !== codexHome) return { kind: 'foreign' };
  const paths = sep === '/' ? decoded.paths : decoded.paths.map((path) => path.split('/').join(sep));
  return { kind: 'index', rollouts: { paths, entries: decoded.entries }, stale };
}

/** The index text for `codexHome` (pure): rollouts in the given order, each over the entry bound left out. */
export function encodeIndex(codexHome: string, rollouts: IndexedRollouts): string {
  const lines: string[] = [];
  for (let index = 0; index < rollouts.paths.length && lines.length < CODEX_HEADER_INDEX_ENTRIES; index++) {
    const under = sep === '/' ? rollouts.paths[index] : rollouts.paths[index].split(sep).join('/');
    if (!ROLLOUT_PATH.test(under)) continue; // not in the sessions/ layout
    const line = JSON.stringify(rowOf(under, rollouts.entries[index]));
    if (Buffer.byteLength(line) <= CODEX_HEADER_INDEX_ENTRY_BYTES) lines.push(line);
  }
  // One rollout a line, so the file stays readable by a person.
  return `{"version":${HEADER_INDEX_VERSION},"codexHome":${JSON.stringify(codexHome)},"rollouts":[\n${lines.join(',\n')}\n]}\n`;
}

type Row = [string, number, number, string, ...Array<string | null>];

/** Why a row is not an index row, or null when it is one. */
function rowProblem(row: unknown): string | null {
  if (!Array.isArray(row)) return 'not a list';
  const [path, size, mtimeMs, kind] = row as unknown[];
  if (typeof path !== 'string' || !ROLLOUT_PATH.test(path)) return 'path outside the sessions layout';
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) return 'size not a whole number of bytes';
  if (typeof mtimeMs !== 'number' || !Number.isFinite(mtimeMs)) return 'mtime not a number';
  if (typeof kind !== 'string') return 'kind not a name';
  if (SKIPPED.has(kind)) return row.length === SKIPPED_ROW ? null : `a ${kind} row has ${row.length} fields, not ${SKIPPED_ROW}`;
  if (!ORIGINS.has(kind)) return `unknown kind ${JSON.stringify(kind)}`;
  if (row.length !== HEADER_ROW) return `a header row has ${row.length} fields, not ${HEADER_ROW}`;
  if (typeof row[4] !== 'string' || row[4] === '') return 'id not a name';
  for (let field = 5; field < HEADER_ROW; field++) {
    const value: unknown = row[field];
    if (value !== null && (typeof value !== 'string' || value === '')) return `${FIELDS[field - 4]} neither text nor null`;
  }
  return null;
}

/** The entry of a checked row. */
function rowEntry(row: Row): IndexedHeader {
  const [, size, mtimeMs, kind] = row;
  if (kind === 'too-long' || kind === 'invalid') return { size, mtimeMs, read: { kind, bytes: 0 } };
  const header: CodexHeader = {
    id: row[4] as string,
    timestamp: row[5],
    cwd: row[6],
    forkedFromId: row[7],
    origin: kind as CodexHeader['origin'],
    parentThreadId: row[8],
    agentPath: row[9],
    nickname: row[10],
    role: row[11],
  };
  return { size, mtimeMs, read: { kind: 'header', header, bytes: 0 } };
}

function rowOf(path: string, indexed: IndexedHeader): unknown[] {
  const read = indexed.read;
  if (read.kind !== 'header') return [path, indexed.size, indexed.mtimeMs, read.kind];
  const header = read.header;
  return [path, indexed.size, indexed.mtimeMs, header.origin, ...FIELDS.map((field) => header[field])];
}
