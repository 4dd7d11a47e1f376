/**
 * Test support: real OpenCode-shaped SQLite stores in temp folders, written with a separate writable connection
 * (the reader under test only ever opens its own read-only one).
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A minimal 1.x schema (the columns the reader needs plus `time_updated`), written for these tests. */
export const MINIMAL_SCHEMA = `
  CREATE TABLE session (id TEXT PRIMARY KEY, parent_id TEXT, directory TEXT NOT NULL, title TEXT NOT NULL DEFAULT '',
    time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
  CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL,
    time_updated INTEGER NOT NULL, data TEXT NOT NULL);
  CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL,
    time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
  CREATE INDEX session_parent_idx ON session (parent_id);
  CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
  CREATE INDEX part_message_id_id_idx ON part (message_id, id);
`;

/** A temp folder and its removal. */
export function makeTempDir(prefix = 'pixelfleet-opencode-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Options of a task part written by `StoreWriter.task`. */
export interface TaskPartOptions {
  callId: string;
  status: 'pending' | 'running' | 'completed' | 'error' | string;
  kind?: string;
  description?: string;
  start?: number;
  end?: number;
  child?: string;
  output?: string;
  background?: boolean;
  interrupted?: boolean;
  error?: string;
}

/** Writes sessions, messages and parts with ascending ids, through a writable connection it owns. */
export class StoreWriter {
  readonly database: Database.Database;
  private counter = 0;

  constructor(readonly path: string, options: { schema?: string; wal?: boolean } = {}) {
    this.database = new Database(path);
    if (options.wal) {
      this.database.pragma('journal_mode = WAL');
      this.database.pragma('wal_autocheckpoint = 0');
    }
    this.database.exec(options.schema ?? MINIMAL_SCHEMA);
  }

  private nextId(prefix: string): string {
    this.counter += 1;
    return `${prefix}_${String(this.counter).padStart(12, '0')}Test`;
  }

  /** Adds a session row. */
  session(id: string, options: { parent?: string | null; directory?: string; time?: number } = {}): string {
    const time = options.time ?? 1_000;
    this.database
      .prepare('INSERT INTO session (id, parent_id, directory, time_created, time_updated) VALUES (?, ?, ?, ?, ?)')
      .run(id, options.parent ?? null, options.directory ?? '/work/repo', time, time);
    return id;
  }

  /** Adds a message row; `data` is stored as JSON unless it is already a string. */
  message(sessionId: string, time: number, data: unknown = { role: 'assistant', time: { created: time, completed: time } }): string {
    const id = this.nextId('msg');
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    this.database
      .prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)')
      .run(id, sessionId, time, time, text);
    return id;
  }

  /** Adds a part row; `data` is stored as JSON unless it is already a string. */
  part(messageId: string, sessionId: string, time: number, data: unknown): string {
    const id = this.nextId('prt');
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    this.database
      .prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)')
      .run(id, messageId, sessionId, time, time, text);
    return id;
  }

  /** Adds a `task` tool part shaped like OpenCode 1.x writes it. */
  task(messageId: string, sessionId: string, time: number, options: TaskPartOptions): string {
    const metadata: Record<string, unknown> = {};
    if (options.child) metadata.sessionId = options.child;
    if (options.background) metadata.background = true;
    if (options.interrupted) metadata.interrupted = true;
    const state: Record<string, unknown> = {
      status: options.status,
      input: { description: options.description ?? 'Do a thing', prompt: 'secret prompt', subagent_type: options.kind ?? 'general' },
      metadata,
    };
    if (options.start !== undefined) state.time = { start: options.start, ...(options.end !== undefined ? { end: options.end } : {}) };
    if (options.output !== undefined) state.output = options.output;
    if (options.error !== undefined) state.error = options.error;
    return this.part(messageId, sessionId, time, { type: 'tool', callID: options.callId, tool: 'task', state });
  }

  /** Adds a parent user message whose synthetic text announces a background child's end. */
  completion(sessionId: string, time: number, child: string, state: 'completed' | 'error' | 'cancelled'): string {
    const messageId = this.message(sessionId, time, { role: 'user', time: { created: time } });
    const text = `<task id="${child}" state="${state}">\n<summary>Background task ${state}</summary>\n</task>`;
    this.part(messageId, sessionId, time, { type: 'text', text, synthetic: true });
    return messageId;
  }

  /** Closes the writable connection. */
  close(): void {
    this.database.close();
  }
}
