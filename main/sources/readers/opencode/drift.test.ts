// Issue 29, format census: a store of a future OpenCode (a new part type, a renamed part field, a new message role
// and field) is read without a crash and without a silent zero, and its seat carries drift naming what is unknown,
// from a version outside the tested range. A real SQLite store, read by the reader's own read-only connection.
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, StoreWriter } from '../../../dev/testing/opencodeStore';
import { createOpenCodeReader } from './reader';

let temp: { dir: string; remove: () => void };
beforeEach(() => {
  temp = makeTempDir('pixelfleet-opencode-drift-');
});
afterEach(() => temp.remove());

describe('OpenCode format census', () => {
  it('a future store (1.20.0) gives drift naming its unknown kinds and fields, outside the tested range', async () => {
    const db = join(temp.dir, 'opencode.db');
    const writer = new Database(db);
    writer.exec(readFileSync(join(import.meta.dirname, 'fixtures/drift-future-1.20.0.sql'), 'utf8'));
    writer.close();
    const reader = createOpenCodeReader({ db });
    const projection = await reader.project({ harness: 'opencode', home: db, sessionId: 'ses_future0000001' });
    reader.dispose();
    if (!projection.ok) throw new Error(projection.reason);
    // Not a silent zero: the running task call is still counted.
    expect(projection.subagents.running).toBe(1);
    const census = projection.census!;
    expect(census.version).toBe('1.20.0');
    const drift = census.drift!;
    expect(drift.kinds.map((kind) => kind.name).sort()).toEqual(['message.system', 'part.delegation']);
    expect(drift.fields.map((field) => field.name).sort()).toEqual(['message.budget', 'part.body', 'part.to']);
    expect(drift.outside).toBe(true);
    expect(drift.newestUnknown).toBe(true);
  });

  it('a store of a tested shape with only known kinds carries no drift; a store without a version column states none', async () => {
    const db = join(temp.dir, 'plain.db');
    const writer = new StoreWriter(db);
    writer.session('ses_plain00000001');
    const message = writer.message('ses_plain00000001', 2000);
    writer.database.prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)')
      .run('prt_000000000009', message, 'ses_plain00000001', 2000, 2000, JSON.stringify({ type: 'text', text: 'hi' }));
    writer.database.close();
    const reader = createOpenCodeReader({ db });
    const projection = await reader.project({ harness: 'opencode', home: db, sessionId: 'ses_plain00000001' });
    reader.dispose();
    if (!projection.ok) throw new Error(projection.reason);
    expect(projection.census).toEqual({ version: null, tested: { from: '1.2.0', to: '1.15.13' } });
  });
});
