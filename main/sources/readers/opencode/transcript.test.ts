import { describe, expect, it } from 'vitest';
import type { PartRow } from './taskCalls';
import { ENTRY_TEXT_BYTES, REPLAY_PAGE_ENTRIES, REPLAY_WINDOW_ENTRIES } from '../kit/bounds';
import { capText } from '../kit/text';
import { entriesOfPart, normalizeChild, PART_POSITION, summarizeInput, type PartPosition } from './transcript';
import { CURSOR_REFUSALS, replayPage, type Placed } from '../kit/pager';

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

  it('places every entry by its row and skips a row whose ids are not plain tokens', () => {
    const rows = [row(1, { type: 'text', text: 'kept' }), { ...row(2, { type: 'text', text: 'odd id' }), partId: 'prt "2"' }];
    expect(normalizeChild(rows, new Map([['msg_1', 'user']]))).toEqual([{ position: [1_000, 'msg_1', 'prt_000001', 0], entry: expect.objectContaining({ text: 'kept' }) }]);
  });
});

describe('replay paging and cursors over OpenCode positions', () => {
  const spec = { owner: { harness: 'opencode' as const, ids: ['ses_parent', 'call_1'] }, position: PART_POSITION };
  const lines = (count: number) => normalizeChild(Array.from({ length: count }, (_, index) => row(index, { type: 'text', text: `line ${index}` })), new Map([['msg_1', 'assistant']]));
  const source = (entries: Placed<PartPosition>[], child = 'ses_child') => () => ({ status: 'read' as const, entries, running: false, source: child });

  /** Every page of a walk from the newest, as the pages' texts. */
  async function walk(entries: Placed<PartPosition>[]): Promise<string[][]> {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await replayPage(spec, cursor, source(entries));
      if (page.status !== 'ok') throw new Error(page.reason);
      pages.push(page.entries.map((entry) => entry.text));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return pages;
  }

  it('pages 50 entries newest first, oldest first within a page, until the start', async () => {
    const pages = await walk(lines(120));
    expect(pages.map((page) => page.length)).toEqual([REPLAY_PAGE_ENTRIES, REPLAY_PAGE_ENTRIES, 20]);
    expect(pages[0][0]).toBe('line 70');
    expect(pages[0].at(-1)).toBe('line 119');
    expect(pages[1]).toEqual(Array.from({ length: 50 }, (_, index) => `line ${20 + index}`));
  });

  it('keeps the newest 500 entries of a child window', async () => {
    const texts = (await walk(lines(REPLAY_WINDOW_ENTRIES + 20))).reverse().flat();
    expect(texts).toHaveLength(REPLAY_WINDOW_ENTRIES);
    expect(texts[0]).toBe('line 20');
  });

  it('refuses a cursor issued for another call or seat, for another child, and a forged one', async () => {
    const entries = lines(120);
    const first = await replayPage(spec, undefined, source(entries));
    const cursor = first.status === 'ok' ? (first.nextCursor ?? undefined) : undefined;
    expect(await replayPage(spec, cursor, source(entries))).toMatchObject({ status: 'ok' });
    for (const ids of [['ses_parent', 'call_2'], ['ses_x', 'call_1']]) {
      expect(await replayPage({ ...spec, owner: { ...spec.owner, ids } }, cursor, source(entries))).toEqual({ status: 'refused', reason: CURSOR_REFUSALS.foreign });
    }
    expect(await replayPage(spec, cursor, source(entries, 'ses_else'))).toEqual({ status: 'refused', reason: CURSOR_REFUSALS.stale });
    expect(await replayPage(spec, 'garbage', source(entries))).toEqual({ status: 'refused', reason: CURSOR_REFUSALS.damaged });
    expect(await replayPage(spec, 'oc1.' + Buffer.from('{"s":1}').toString('base64url'), source(entries))).toEqual({ status: 'refused', reason: CURSOR_REFUSALS.damaged });
  });
});
