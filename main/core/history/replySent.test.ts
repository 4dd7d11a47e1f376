/** Issue 39: a reply sent to an agent's terminal is recorded as `reply.sent` with the persona and the time, never the text. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readList } from './queries';
import { HistoryRecorder } from './recorder';
import { openHistoryStore, type HistoryStore } from './store';

const T0 = Date.parse('2026-12-05T08:00:00.000Z');
const folders: string[] = [];
const stores: HistoryStore[] = [];
afterEach(() => {
  while (stores.length) stores.pop()!.close();
  while (folders.length) rmSync(folders.pop()!, { recursive: true, force: true });
});

describe('reply.sent', () => {
  it('is listed with the persona and the time only, and the store holds no text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pf-history-reply-'));
    folders.push(dir);
    const file = join(dir, 'history.sqlite');
    const opened = await openHistoryStore(file);
    if (!opened.ok) throw new Error(opened.reason);
    stores.push(opened.store);
    const recorder = new HistoryRecorder(opened.store, () => T0);
    recorder.reply('p_ada', T0 + 1000);
    const list = readList(opened.store, T0, T0 + 2000, {});
    expect(list.events).toEqual([{ type: 'reply.sent', at: new Date(T0 + 1000).toISOString(), seatId: null, personaId: 'p_ada' }]);
    expect(Object.keys(opened.store.database.prepare('SELECT * FROM reply_sent').get()!).sort()).toEqual(['at', 'id', 'persona']);
    opened.store.close();
    stores.pop();
    expect(readFileSync(file).includes(Buffer.from('p_ada'))).toBe(true);
  });
});
