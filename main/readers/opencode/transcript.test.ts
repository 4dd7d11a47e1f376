import { describe, expect, it } from 'vitest';
import type { PartRow } from './taskCalls';
import { ENTRY_TEXT_BYTES, REPLAY_PAGE_ENTRIES, REPLAY_WINDOW_ENTRIES } from '../kit/bounds';
import { capText } from '../kit/text';
import { decodeCursor, encodeCursor, entriesOfPart, normalizeChild, pageOf, summarizeInput } from './transcript';

const binding = { session: 'ses_parent', callId: 'call_1', child: 'ses_child' };
const row = (index: number, data: unknown, messageId = 'msg_1'): PartRow => ({
  partId: `prt_${String(index).padStart(6, '0')}`,
  messageId,
  messageTime: 1_000,
  partTime: 1_000 + index,
  data,
});

describe('replay normalisation', () => {
  it('caps text at 4 KiB on a character boundary', () => {
    const long = 'é'.repeat(5_000);
    const capped = capText(long, ENTRY_TEXT_BYTES);
    expect(new TextEncoder().encode(capped).length).toBeLessThanOrEqual(ENTRY_TEXT_BYTES);
    expect(capped.endsWith('…')).toBe(true);
    expect(capped).not.toContain('\uFFFD');
    expect(capText('short', ENTRY_TEXT_BYTES)).toBe('short');
  });

  it('summarises tool input on one line', () => {
    expect(summarizeInput('bash', { command: 'git ls-files |\n  wc -l', description: 'Count' })).toBe('git ls-files | wc -l');
    expect(summarizeInput('task', { subagent_type: 'explore', description: 'Find it', prompt: 'long' })).toBe('explore: Find it');
    expect(summarizeInput('todowrite', { count: 3, done: false, todos: [] })).toBe('count=3 done=false');
  });

  it('turns text, synthetic text and tool parts into entries and skips bookkeeping parts', () => {
    expect(entriesOfPart(row(1, { type: 'text', text: 'Hello' }), 'user')).toEqual([{ at: new Date(1_001).toISOString(), role: 'user', text: 'Hello' }]);
    expect(entriesOfPart(row(1, { type: 'text', text: 'Hi' }), 'assistant')[0].role).toBe('assistant');
    expect(entriesOfPart(row(1, { type: 'text', text: '<file>…</file>', synthetic: true }), 'user')[0].role).toBe('note');
    expect(entriesOfPart(row(1, { type: 'text', text: '' }), 'assistant')).toEqual([]);
    expect(entriesOfPart(row(1, { type: 'reasoning', text: 'thinking' }), 'assistant')).toEqual([]);
    expect(entriesOfPart(row(1, { type: 'step-finish' }), 'assistant')).toEqual([]);
    const tool = entriesOfPart(row(1, { type: 'tool', tool: 'grep', state: { status: 'completed', input: { pattern: 'TODO', path: 'src' }, output: 'Found 2 matches' } }), 'assistant');
    expect(tool.map((entry) => [entry.role, entry.tool, entry.text])).toEqual([
      ['tool', 'grep', 'TODO'],
      ['tool', 'grep', 'Found 2 matches'],
    ]);
    const failed = entriesOfPart(row(1, { type: 'tool', tool: 'bash', state: { status: 'error', input: { command: 'false' }, error: 'exit 1' } }), 'assistant');
    expect(failed[1].text).toBe('error: exit 1');
  });

  it('keeps the newest 500 entries of a child window', () => {
    const rows = Array.from({ length: REPLAY_WINDOW_ENTRIES + 20 }, (_, index) => row(index, { type: 'text', text: `line ${index}` }));
    const window = normalizeChild(rows, new Map([['msg_1', 'user']]));
    expect(window).toHaveLength(REPLAY_WINDOW_ENTRIES);
    expect(window[0].entry.text).toBe('line 20');
  });
});

describe('replay paging and cursors', () => {
  const rows = Array.from({ length: 120 }, (_, index) => row(index, { type: 'text', text: `line ${index}` }));
  const window = normalizeChild(rows, new Map([['msg_1', 'assistant']]));

  it('pages 50 entries newest first, oldest first within a page, until the start', () => {
    const first = pageOf(window, binding);
    expect(first.entries).toHaveLength(REPLAY_PAGE_ENTRIES);
    expect(first.entries[0].text).toBe('line 70');
    expect(first.entries.at(-1)?.text).toBe('line 119');
    const second = decodeCursor(first.nextCursor ?? '', binding);
    if (!second.ok) throw new Error(second.reason);
    const page2 = pageOf(window, binding, second.place);
    expect(page2.entries.map((entry) => entry.text)).toEqual(Array.from({ length: 50 }, (_, index) => `line ${20 + index}`));
    const third = decodeCursor(page2.nextCursor ?? '', binding);
    if (!third.ok) throw new Error(third.reason);
    const page3 = pageOf(window, binding, third.place);
    expect(page3.entries).toHaveLength(20);
    expect(page3.nextCursor).toBeNull();
  });

  it('refuses a cursor issued for another call, child or seat, and a forged one', () => {
    const cursor = encodeCursor(binding, [1, 'msg_1', 'prt_1', 0]);
    expect(decodeCursor(cursor, binding).ok).toBe(true);
    for (const other of [{ ...binding, callId: 'call_2' }, { ...binding, child: 'ses_else' }, { ...binding, session: 'ses_x' }]) {
      expect(decodeCursor(cursor, other)).toEqual({ ok: false, reason: expect.stringContaining('another') });
    }
    expect(decodeCursor('garbage', binding).ok).toBe(false);
    expect(decodeCursor('oc1.' + Buffer.from('{"s":1}').toString('base64url'), binding).ok).toBe(false);
  });
});
