/**
 * The Codex header index on disk (`codex-header-index.json` in the app home): per rollout its path under
 * `sessions/`, its size and mtime when line 1 was read, and the parsed header fields (never transcript content).
 * A bounded read; an atomic write (temp file, fsync, rename); a file that cannot be used is moved aside with one log
 * line and the index starts empty (discovery then reads every header once and writes it again).
 */
import { open } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { z } from 'zod';
import { cleanStaleTemps, commitTemp, discardTemp, moveAside, writeTemp } from '../../personas/storeFile';
import { CODEX_HEADER_INDEX_BYTES, CODEX_HEADER_INDEX_ENTRIES, CODEX_HEADER_INDEX_ENTRY_BYTES, CODEX_HEADER_INDEX_TEMP_STALE_MS } from '../kit/bounds';
import type { CodexHeader, HeaderRead } from './header';

/** The index file's name in the app home. */
export const CODEX_HEADER_INDEX_FILE = 'codex-header-index.json';
/** The format this build writes and reads; any other version is set aside and rebuilt. */
export const HEADER_INDEX_VERSION = 1;

/** A header read worth keeping: a header, or a first line known to be too long or not a header (never incomplete). */
export type IndexedRead = Exclude<HeaderRead, { kind: 'incomplete' }>;

/** One indexed rollout: the size and mtime its line 1 was read at, and what line 1 said. */
export interface IndexedHeader {
  size: number;
  mtimeMs: number;
  read: IndexedRead;
}

/** A header field; absent in the file when the header has none (null), which keeps the file small to parse. */
const Text = z.string().min(1).optional();
/** A path under `sessions/`, `/`-separated, in the layout discovery walks (`YYYY/MM/DD/rollout-*.jsonl`). */
const RolloutPath = z.string().regex(/^\d{4}\/\d{2}\/\d{2}\/rollout-[^/\\]*\.jsonl$/);
const Facts = { path: RolloutPath, size: z.number().int().nonnegative(), mtimeMs: z.number().finite() };
const HeaderEntrySchema = z.strictObject({
  ...Facts,
  kind: z.literal('header'),
  id: z.string().min(1),
  timestamp: Text,
  cwd: Text,
  forkedFromId: Text,
  origin: z.enum(['session', 'child', 'helper']),
  parentThreadId: Text,
  agentPath: Text,
  nickname: Text,
  role: Text,
});
const SkippedEntrySchema = z.strictObject({ ...Facts, kind: z.enum(['too-long', 'invalid']) });
const EntrySchema = z.discriminatedUnion('kind', [HeaderEntrySchema, SkippedEntrySchema]);

/** Version 1 of the index file. */
export const HeaderIndexSchema = z.strictObject({
  version: z.literal(HEADER_INDEX_VERSION),
  /** The Codex home the paths are under; an index of another home is not used. */
  codexHome: z.string().min(1),
  rollouts: z.array(EntrySchema).max(CODEX_HEADER_INDEX_ENTRIES),
});

type Entry = z.infer<typeof EntrySchema>;

/** The index of one Codex home in one file; `log` receives one line for each file set aside or not written. */
export class HeaderIndexFile {
  private cleaned = false;

  constructor(
    readonly file: string,
    private readonly codexHome: string,
    private readonly log: (message: string) => void,
  ) {}

  /** The indexed rollouts by absolute path; empty when there is no usable index (never throws). */
  async load(): Promise<Map<string, IndexedHeader>> {
    if (!this.cleaned) {
      this.cleaned = true;
      await cleanStaleTemps(this.file, CODEX_HEADER_INDEX_TEMP_STALE_MS).catch(() => []);
    }
    const text = await this.readBounded();
    if (text.kind === 'missing') return new Map();
    const decoded = text.kind === 'read' ? decodeIndex(text.text, this.codexHome) : text;
    if (decoded.kind === 'index') return decoded.entries;
    if (decoded.kind === 'foreign') return new Map(); // another home's index is replaced by the next write
    await this.setAside(decoded.reason);
    return new Map();
  }

  /** Writes the entries (newest first) atomically; a failure is logged and leaves the old file as it was. */
  async save(entries: Iterable<[string, IndexedHeader]>): Promise<void> {
    const text = encodeIndex(this.codexHome, entries);
    let temp: string | null = null;
    try {
      temp = await writeTemp(this.file, text);
      await commitTemp(temp, this.file);
    } catch (error) {
      if (temp) await discardTemp(temp).catch(() => undefined);
      this.log(`pixelfleet: could not write the Codex header index ${this.file} (${reasonOf(error)}); the next discovery reads the headers again.`);
    }
  }

  private async readBounded(): Promise<{ kind: 'missing' } | { kind: 'read'; text: string } | { kind: 'unusable'; reason: string }> {
    let handle;
    try {
      handle = await open(this.file, 'r');
    } catch (error) {
      // No index yet, or no app home folder yet (a writer creates it).
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
      return { kind: 'unusable', reason: `cannot be read (${reasonOf(error)})` };
    }
    try {
      const info = await handle.stat();
      if (!info.isFile()) return { kind: 'unusable', reason: 'is not a regular file' };
      if (info.size > CODEX_HEADER_INDEX_BYTES) return { kind: 'unusable', reason: `is larger than ${CODEX_HEADER_INDEX_BYTES} bytes` };
      const buffer = Buffer.alloc(info.size);
      const { bytesRead } = await handle.read(buffer, 0, info.size, 0);
      return { kind: 'read', text: buffer.subarray(0, bytesRead).toString('utf8') };
    } catch (error) {
      return { kind: 'unusable', reason: `cannot be read (${reasonOf(error)})` };
    } finally {
      await handle.close();
    }
  }

  private async setAside(reason: string): Promise<void> {
    let where: string;
    try {
      where = `moved aside to ${await moveAside(this.file, new Date())}`;
    } catch (error) {
      where = `could not be moved aside (${reasonOf(error)})`;
    }
    this.log(`pixelfleet: the Codex header index ${this.file} ${reason}; it was ${where} and is rebuilt from the rollouts.`);
  }
}

/** What a text of the index file holds: entries, an index of another home, or why it cannot be used. */
export type DecodedIndex = { kind: 'index'; entries: Map<string, IndexedHeader> } | { kind: 'foreign' } | { kind: 'unusable'; reason: string };

/** Reads an index text written for `codexHome` (pure). */
export function decodeIndex(text: string, codexHome: string): DecodedIndex {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'unusable', reason: 'is not JSON (truncated or damaged)' };
  }
  const version = typeof json === 'object' && json !== null && 'version' in json ? json.version : undefined;
  if (version !== HEADER_INDEX_VERSION) return { kind: 'unusable', reason: `has version ${JSON.stringify(version) ?? 'none'}, not ${HEADER_INDEX_VERSION}` };
  const parsed = HeaderIndexSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { kind: 'unusable', reason: `does not hold a valid index (${issue.path.join('.') || 'top'}: ${issue.message})` };
  }
  if (parsed.data.codexHome !== codexHome) return { kind: 'foreign' };
  // The same strings the walk builds (`join` of normal parts); a checked path holds no `.` or `..` part.
  const sessions = join(codexHome, 'sessions') + sep;
  const entries = new Map<string, IndexedHeader>();
  for (const entry of parsed.data.rollouts) entries.set(sessions + (sep === '/' ? entry.path : entry.path.split('/').join(sep)), indexedOf(entry));
  return { kind: 'index', entries };
}

/** The index text for `codexHome` (pure): entries in the given order, each over the entry bound left out. */
export function encodeIndex(codexHome: string, entries: Iterable<[string, IndexedHeader]>): string {
  const sessions = join(codexHome, 'sessions');
  const lines: string[] = [];
  for (const [path, indexed] of entries) {
    if (lines.length >= CODEX_HEADER_INDEX_ENTRIES) break;
    const under = relative(sessions, path).split(sep).join('/');
    if (!RolloutPath.safeParse(under).success) continue; // not under this home's sessions/ layout
    const line = JSON.stringify(entryOf(under, indexed));
    if (Buffer.byteLength(line) <= CODEX_HEADER_INDEX_ENTRY_BYTES) lines.push(line);
  }
  // One rollout a line, so the file stays readable by a person.
  return `{"version":${HEADER_INDEX_VERSION},"codexHome":${JSON.stringify(codexHome)},"rollouts":[\n${lines.join(',\n')}\n]}\n`;
}

function entryOf(path: string, indexed: IndexedHeader): Entry {
  const facts = { path, size: indexed.size, mtimeMs: indexed.mtimeMs };
  if (indexed.read.kind !== 'header') return { ...facts, kind: indexed.read.kind };
  const entry: Entry = { ...facts, kind: 'header', id: indexed.read.header.id, origin: indexed.read.header.origin };
  for (const key of OPTIONAL_FIELDS) {
    const value = indexed.read.header[key];
    if (value !== null) entry[key] = value;
  }
  return entry;
}

const OPTIONAL_FIELDS = ['timestamp', 'cwd', 'forkedFromId', 'parentThreadId', 'agentPath', 'nickname', 'role'] as const;

function indexedOf(entry: Entry): IndexedHeader {
  if (entry.kind !== 'header') return { size: entry.size, mtimeMs: entry.mtimeMs, read: { kind: entry.kind, bytes: 0 } };
  const header: CodexHeader = {
    id: entry.id,
    timestamp: entry.timestamp ?? null,
    cwd: entry.cwd ?? null,
    forkedFromId: entry.forkedFromId ?? null,
    origin: entry.origin,
    parentThreadId: entry.parentThreadId ?? null,
    agentPath: entry.agentPath ?? null,
    nickname: entry.nickname ?? null,
    role: entry.role ?? null,
  };
  return { size: entry.size, mtimeMs: entry.mtimeMs, read: { kind: 'header', header, bytes: 0 } };
}

function reasonOf(error: unknown): string {
  return (error as NodeJS.ErrnoException | null)?.code ?? (error instanceof Error ? error.message : String(error));
}
