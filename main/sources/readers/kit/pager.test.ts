// The one replay pager over a source held in memory (its reads against real files and databases are in
// ../replayPager.test.ts): the window, pages of 50 with a boundary exactly at the caps, the text cap, stale walks.
import { describe, expect, it } from 'vitest';
import type { ReplayResult } from '../port';
import { CURSOR_REFUSALS, cutPage, LINE_POSITION, markOf, replayPage, type LinePosition, type Placed, type WindowRead, type WindowRequest } from './pager';
import { ENTRY_TEXT_BYTES, REPLAY_PAGE_ENTRIES, REPLAY_WINDOW_BYTES, REPLAY_WINDOW_ENTRIES } from './bounds';

const spec = { owner: { harness: 'codex' as const, ids: ['parent', 'child'] }, position: LINE_POSITION };

/** `count` entries, two to a line, texts numbered from 0. */
function entries(count: number): Placed<LinePosition>[] {
  return Array.from({ length: count }, (_, index) => ({ position: [Math.floor(index / 2) * 100, index % 2], entry: { at: null, role: 'assistant', text: `e${index}` } }));
}

/** `count` entries placed on the first line after its first entry (a line rewritten in place with more entries). */
function inserted(count: number): Placed<LinePosition>[] {
  return Array.from({ length: count }, (_, index) => ({ position: [0, index + 2], entry: { at: null, role: 'note', text: `n${index}` } }));
}

/** A source answering from `held()` (read again on every page), recording what it was asked. */
function source(held: () => Placed<LinePosition>[], stamp = () => 'ino-1') {
  const asked: WindowRequest<LinePosition>[] = [];
  const read = (request: WindowRequest<LinePosition>): WindowRead<LinePosition> => {
    asked.push(request);
    return { status: 'read', entries: held(), running: false, source: stamp() };
  };
  return { asked, read };
}

function page(result: ReplayResult): { texts: string[]; next: string | undefined } {
  if (result.status !== 'ok') throw new Error(`expected a page, got ${JSON.stringify(result)}`);
  return { texts: result.entries.map((entry) => entry.text), next: result.nextCursor ?? undefined };
}

/** Every page of a walk from the newest, as the pages' texts. */
async function walk(read: (request: WindowRequest<LinePosition>) => WindowRead<LinePosition>): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const next = page(await replayPage(spec, cursor, read));
    pages.push(next.texts);
    cursor = next.next;
  } while (cursor);
  return pages;
}

describe('window and pages', () => {
  it.each([
    { count: REPLAY_PAGE_ENTRIES, sizes: [REPLAY_PAGE_ENTRIES], oldest: 'e0' },
    { count: REPLAY_PAGE_ENTRIES + 1, sizes: [REPLAY_PAGE_ENTRIES, 1], oldest: 'e0' },
    { count: REPLAY_WINDOW_ENTRIES, sizes: Array(10).fill(REPLAY_PAGE_ENTRIES), oldest: 'e0' },
    { count: REPLAY_WINDOW_ENTRIES + 1, sizes: Array(10).fill(REPLAY_PAGE_ENTRIES), oldest: 'e1' },
  ])('pages $count entries newest first, the last page ending exactly at the window', async ({ count, sizes, oldest }) => {
    const pages = await walk(source(() => entries(count)).read);
    expect(pages.map((texts) => texts.length)).toEqual(sizes);
    const all = [...pages].reverse().flat();
    expect(all[0]).toBe(oldest);
    expect(all.at(-1)).toBe(`e${count - 1}`);
    expect(new Set(all).size).toBe(all.length);
  });

  it('asks for the newest window first, then reads from the walk’s floor within the byte bound', async () => {
    const { asked, read } = source(() => entries(120));
    await walk(read);
    expect(asked.map((request) => request.maxBytes)).toEqual([REPLAY_WINDOW_BYTES, REPLAY_WINDOW_BYTES, REPLAY_WINDOW_BYTES]);
    expect(asked[0]).toMatchObject({ floor: null, before: null });
    expect(asked[1]).toMatchObject({ floor: [0, 0], before: [3500, 0] });
    expect(asked[2]).toMatchObject({ floor: [0, 0], before: [1000, 0] });
  });

  it('keeps the window a walk began with while the source keeps growing', async () => {
    let count = 120;
    const { read } = source(() => entries(count));
    const first = page(await replayPage(spec, undefined, read));
    count = 700;
    const second = page(await replayPage(spec, first.next, read));
    expect(second.texts).toEqual(Array.from({ length: 50 }, (_, index) => `e${20 + index}`));
  });

  it('holds every entry to the text cap', async () => {
    const long = { position: [0, 0] as LinePosition, entry: { at: null, role: 'user' as const, text: 'é'.repeat(ENTRY_TEXT_BYTES) } };
    const [text] = page(await replayPage(spec, undefined, () => ({ status: 'read', entries: [long], running: true, source: null }))).texts;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(ENTRY_TEXT_BYTES);
    expect(text.endsWith('…')).toBe(true);
  });

  it('cuts a page purely: the newest page and the state of the next cursor', () => {
    const cut = cutPage(entries(60), null, 'ino-1');
    expect(cut).toMatchObject({ next: { source: 'ino-1', floor: [0, 0], before: [500, 0], mark: markOf(entries(1)[0].entry, entries(11)[10].entry) } });
    expect(cut !== 'stale' && cut.page.map((item) => item.entry.text)).toEqual(Array.from({ length: 50 }, (_, index) => `e${10 + index}`));
    expect(cutPage(entries(0), null)).toEqual({ page: [], next: null });
  });
});

describe('refusals', () => {
  it('refuses a bad cursor before the harness reads anything', async () => {
    const { asked, read } = source(() => entries(120));
    expect(await replayPage(spec, 'rp1.forged.AAAA', read)).toEqual({ status: 'refused', reason: CURSOR_REFUSALS.damaged });
    expect(await replayPage(spec, 'x'.repeat(5000), read)).toEqual({ status: 'refused', reason: CURSOR_REFUSALS.oversized });
    expect(asked).toEqual([]);
  });

  it('passes on what a harness answers instead of a window', async () => {
    const gone = { status: 'unavailable' as const, reason: 'The file is gone.' };
    expect(await replayPage(spec, undefined, () => gone)).toEqual(gone);
  });

  it.each([
    { what: 'the source was replaced', change: { stamp: 'ino-2', held: entries(120) } },
    { what: 'the window’s first entry is gone', change: { stamp: 'ino-1', held: entries(120).slice(1) } },
    { what: 'the page’s end is gone', change: { stamp: 'ino-1', held: entries(120).filter((item) => item.entry.text !== 'e70') } },
    { what: 'the window’s first entry was rewritten in place', change: { stamp: 'ino-1', held: entries(120).map((item, index) => (index === 0 ? { ...item, entry: { ...item.entry, text: 'other' } } : item)) } },
    { what: 'a window’s worth was written inside it', change: { stamp: 'ino-1', held: [...entries(2), ...inserted(REPLAY_WINDOW_ENTRIES), ...entries(120).slice(2)] } },
  ])('refuses a later page as stale when $what', async ({ change }) => {
    let held = entries(120);
    let stamp = 'ino-1';
    const { read } = source(() => held, () => stamp);
    const first = page(await replayPage(spec, undefined, read));
    ({ held, stamp } = change);
    expect(await replayPage(spec, first.next, read)).toEqual({ status: 'refused', reason: CURSOR_REFUSALS.stale });
  });
});
