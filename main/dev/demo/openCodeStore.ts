/**
 * The demo's OpenCode database: a real SQLite file (`<demo>/opencode/opencode.db`, WAL mode) with the 1.x tables the
 * OpenCode reader checks (../shared/formats/opencode.md §4), written through its own writable connection while the
 * reader opens read-only ones. Each demo seat is a top-level session whose turns are messages and parts.
 */
import path from 'node:path';
import { promises as fs } from 'node:fs';
import type { TurnStep } from './turnScript';
import { openCodeUsageFields } from './usageRecords';

/** The 1.x tables and indexes the demo writes (the columns OpenCode 1.x has that the demo fills). */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT NOT NULL,
    directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL,
    time_updated INTEGER NOT NULL, data TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL,
    time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS session_parent_idx ON session (parent_id);
  CREATE INDEX IF NOT EXISTS message_session_time_created_id_idx ON message (session_id, time_created, id);
  CREATE INDEX IF NOT EXISTS part_message_id_id_idx ON part (message_id, id);
`;

interface WritableStatement {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}
interface WritableDriver {
  exec(sql: string): unknown;
  prepare(sql: string): WritableStatement;
  close(): void;
}

/** Opens the file for writing: `node:sqlite` inside Electron, better-sqlite3 on plain Node (as the reader does). */
async function openWritable(file: string): Promise<WritableDriver> {
  if (typeof process.versions.electron === 'string') {
    const specifier = 'node:sqlite';
    const module = (await import(specifier)) as { DatabaseSync: new (path: string) => WritableDriver };
    return new module.DatabaseSync(file);
  }
  const module = (await import('better-sqlite3')) as unknown as { default: new (path: string) => WritableDriver };
  return new module.default(file);
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** An OpenCode-shaped id: prefix, the time in hex (so ids sort by time, as OpenCode's do), then a counter. */
export function openCodeId(prefix: 'ses' | 'msg' | 'prt', atMs: number, counter: number): string {
  let tail = '';
  for (let rest = counter; tail.length < 8; rest = Math.floor(rest / 62)) tail = BASE62[rest % 62] + tail;
  return `${prefix}_${Math.floor(atMs).toString(16).padStart(12, '0')}${tail}`;
}

/** The demo's OpenCode store. */
export class OpenCodeStore {
  private counter = 0;
  /** The open assistant message and its running tool part, per session. */
  readonly open = new Map<string, { message: string; data: Record<string, unknown>; tool: string | null }>();

  private constructor(
    readonly path: string,
    readonly database: WritableDriver,
  ) {}

  /** Creates (or reopens) the database at `file`. */
  static async open(file: string): Promise<OpenCodeStore> {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const database = await openWritable(file);
    database.exec('PRAGMA journal_mode = WAL;');
    database.exec(SCHEMA);
    return new OpenCodeStore(file, database);
  }

  /** Adds a top-level session for `directory` unless it exists; returns whether it was new. */
  ensureSession(id: string, directory: string, title: string, atMs: number): boolean {
    if (this.database.prepare('SELECT 1 AS found FROM session WHERE id = ?').get(id)) return false;
    this.database
      .prepare('INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?)')
      .run(id, `prj_${path.basename(directory)}`, path.basename(directory), directory, title, '1.15.13', atMs, atMs);
    return true;
  }

  nextId(prefix: 'ses' | 'msg' | 'prt', atMs: number): string {
    this.counter += 1;
    return openCodeId(prefix, atMs, this.counter);
  }

  addMessage(sessionId: string, atMs: number, data: Record<string, unknown>): string {
    const id = this.nextId('msg', atMs);
    this.database.prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)').run(id, sessionId, atMs, atMs, JSON.stringify(data));
    return id;
  }

  addPart(messageId: string, sessionId: string, atMs: number, data: Record<string, unknown>): string {
    const id = this.nextId('prt', atMs);
    this.database.prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)').run(id, messageId, sessionId, atMs, atMs, JSON.stringify(data));
    return id;
  }

  finishTool(sessionId: string, atMs: number): void {
    const open = this.open.get(sessionId);
    if (!open?.tool) return;
    const row = this.database.prepare('SELECT data FROM part WHERE id = ?').get(open.tool) as { data: string } | undefined;
    if (row) {
      const data = JSON.parse(row.data) as { state: Record<string, unknown> };
      data.state = { ...data.state, status: 'completed', output: 'exit 0', time: { start: (data.state.time as { start: number }).start, end: atMs } };
      this.database.prepare('UPDATE part SET data = ?, time_updated = ? WHERE id = ?').run(JSON.stringify(data), atMs, open.tool);
    }
    open.tool = null;
  }

  /** Writes one turn step of a session in one transaction, as OpenCode records a turn: messages with their parts. */
  write(sessionId: string, step: TurnStep, atMs: number): void {
    if (step.kind === 'rest') return;
    this.database.exec('BEGIN');
    try {
      this.finishTool(sessionId, atMs);
      if (step.kind === 'prompt') {
        const user = this.addMessage(sessionId, atMs, { role: 'user', time: { created: atMs } });
        this.addPart(user, sessionId, atMs, { type: 'text', text: step.text });
        const data = { role: 'assistant', time: { created: atMs }, modelID: 'demo-model', providerID: 'demo' };
        this.open.set(sessionId, { message: this.addMessage(sessionId, atMs, data), data, tool: null });
      } else {
        const open = this.open.get(sessionId);
        if (open && step.kind === 'tool') {
          this.addPart(open.message, sessionId, atMs, { type: 'text', text: step.note });
          open.tool = this.addPart(open.message, sessionId, atMs, {
            type: 'tool',
            callID: `call_${this.counter}`,
            tool: 'bash',
            state: { status: 'running', input: { command: step.command, description: step.note }, time: { start: atMs } },
          });
        } else if (open && step.kind === 'end') {
          this.addPart(open.message, sessionId, atMs, { type: 'text', text: step.note });
          const data = { ...open.data, ...openCodeUsageFields(sessionId), time: { created: (open.data.time as { created: number }).created, completed: atMs }, finish: 'stop' };
          this.database.prepare('UPDATE message SET data = ?, time_updated = ? WHERE id = ?').run(JSON.stringify(data), atMs, open.message);
          this.open.delete(sessionId);
        }
      }
      this.database.prepare('UPDATE session SET time_updated = ? WHERE id = ?').run(atMs, sessionId);
      this.database.exec('COMMIT');
    } catch (error) {
      this.database.exec('ROLLBACK');
      throw error;
    }
  }

  /** Closes the writable connection. */
  close(): void {
    this.database.close();
  }
}
