import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ReplayPageSchema } from '../../../../shared/schemas';
import type { SeatAddress } from '../../../../shared/schemas';
import { createOpenCodeReader } from './reader';
import { replayCall } from './replay';
import { perTestCleanups } from '../../../dev/testing/cleanups';
import { StoreWriter } from '../../../dev/testing/opencodeStore';
import { sharedFixtures } from '../../../dev/testing/sharedFixtures';

const fixtures = sharedFixtures('OpenCode replay over the synthetic 1.x store');
const FIXTURE_SQL = fixtures.path('opencode/synthetic/opencode-1x.sql');
const PARENT = 'ses_17349f97fffeS3nQnV6PpF02QK';

const { cleanups, tempDir } = perTestCleanups();

function fixtureDb(): string {
  const path = join(tempDir(), 'opencode.db');
  const database = new Database(path);
  database.exec(readFileSync(FIXTURE_SQL, 'utf8'));
  database.close();
  return path;
}

const seatOf = (home: string, sessionId = PARENT): SeatAddress => ({ harness: 'opencode', home, sessionId, cwd: null, path: null });

describe.skipIf(!fixtures.present)('replay over the 1.x fixture', () => {
  it('replays a foreground child: text, tool calls and output excerpts, still running after its resume', async () => {
    const home = fixtureDb();
    const page = await createOpenCodeReader({ db: home }).replay(seatOf(home), 'toolu_01PFleetTaskCount0001');
    expect(ReplayPageSchema.parse(page)).toEqual(page);
    expect(page).toEqual({
      status: 'ok',
      running: true,
      nextCursor: null,
      entries: [
        { at: new Date(1780477202100).toISOString(), role: 'user', text: 'Count all files tracked in this repository and report the number.' },
        { at: new Date(1780477203200).toISOString(), role: 'tool', tool: 'bash', text: 'git ls-files | wc -l' },
        { at: new Date(1780477203200).toISOString(), role: 'tool', tool: 'bash', text: '42' },
        { at: new Date(1780477210000).toISOString(), role: 'assistant', text: 'There are 42 files.' },
        { at: new Date(1780477322000).toISOString(), role: 'user', text: 'Also count the lines of Rust code under src/.' },
        { at: new Date(1780477324000).toISOString(), role: 'tool', tool: 'bash', text: "find src -name '*.rs' | xargs wc -l" },
      ],
    });
  });

  it('replays the background child as finished', async () => {
    const home = fixtureDb();
    const page = await replayCall(seatOf(home), 'toolu_01PFleetTaskTodo00002');
    expect(page).toMatchObject({ status: 'ok', running: false });
    if (page.status !== 'ok') return;
    expect(page.entries.map((entry) => entry.role)).toEqual(['user', 'tool', 'tool', 'assistant']);
    expect(page.entries[3].text).toContain('Found 2 TODO comments');
  });

  it('answers unavailable for a call without a child and for an unknown call', async () => {
    const home = fixtureDb();
    expect(await replayCall(seatOf(home), 'toolu_01PFleetTaskReview003')).toEqual({ status: 'unavailable', reason: expect.stringContaining('no child session') });
    expect(await replayCall(seatOf(home), 'toolu_nothing')).toEqual({ status: 'unavailable', reason: expect.stringContaining('No task call') });
  });

  it('refuses an id that is not a call id and a cursor issued for another child', async () => {
    const home = fixtureDb();
    expect(await replayCall(seatOf(home), '../../etc/passwd')).toMatchObject({ status: 'refused' });
    expect(await replayCall(seatOf(home), "x' OR 1=1 --")).toMatchObject({ status: 'refused' });
    // A cursor that is valid for one call's child is refused for another call, even over the same child.
    const other = new StoreWriter(join(tempDir(), 'cursor.db'));
    other.session('ses_parent');
    other.session('ses_child', { parent: 'ses_parent' });
    const message = other.message('ses_parent', 10);
    other.task(message, 'ses_parent', 11, { callId: 'call_a', status: 'completed', start: 1, end: 2, child: 'ses_child' });
    other.task(message, 'ses_parent', 12, { callId: 'call_b', status: 'completed', start: 3, end: 4, child: 'ses_child' });
    const childMessage = other.message('ses_child', 20, { role: 'assistant', time: { created: 20, completed: 21 } });
    for (let index = 0; index < 60; index += 1) other.part(childMessage, 'ses_child', 20 + index, { type: 'text', text: `step ${index}` });
    other.close();
    const cursorSeat = seatOf(other.path, 'ses_parent');
    const first = await replayCall(cursorSeat, 'call_a');
    if (first.status !== 'ok' || !first.nextCursor) throw new Error('expected a second page');
    expect(await replayCall(cursorSeat, 'call_b', first.nextCursor)).toMatchObject({ status: 'refused', reason: expect.stringContaining('another') });
    const second = await replayCall(cursorSeat, 'call_a', first.nextCursor);
    expect(second).toMatchObject({ status: 'ok', nextCursor: null });
    if (second.status === 'ok') expect(second.entries.map((entry) => entry.text)).toEqual(Array.from({ length: 10 }, (_, index) => `step ${index}`));
  });
});

describe('replay relation checks', () => {
  function store() {
    const writer = new StoreWriter(join(tempDir(), 'opencode.db'));
    cleanups.push(() => {
      if (writer.database.open) writer.close();
    });
    writer.session('ses_parent', { directory: '/work/repo' });
    return writer;
  }

  it('refuses a child in another directory and a session that is not a child', async () => {
    const writer = store();
    writer.session('ses_away', { parent: 'ses_parent', directory: '/elsewhere' });
    writer.session('ses_stranger', { parent: 'ses_someone', directory: '/work/repo' });
    const message = writer.message('ses_parent', 10);
    writer.task(message, 'ses_parent', 11, { callId: 'away', status: 'completed', start: 1, end: 2, child: 'ses_away' });
    writer.task(message, 'ses_parent', 12, { callId: 'stranger', status: 'completed', start: 1, end: 2, child: 'ses_stranger' });
    writer.task(message, 'ses_parent', 13, { callId: 'gone', status: 'completed', start: 1, end: 2, child: 'ses_deleted' });
    const seat = seatOf(writer.path, 'ses_parent');
    expect(await replayCall(seat, 'away')).toMatchObject({ status: 'refused', reason: expect.stringContaining('direct child') });
    expect(await replayCall(seat, 'stranger')).toMatchObject({ status: 'refused' });
    expect(await replayCall(seat, 'gone')).toMatchObject({ status: 'unavailable' });
  });

  it('reads a child transcript window of at most 500 entries, newest pages first', async () => {
    const writer = store();
    writer.session('ses_child', { parent: 'ses_parent', directory: '/work/repo' });
    writer.task(writer.message('ses_parent', 10), 'ses_parent', 11, { callId: 'big', status: 'running', start: 1, child: 'ses_child' });
    writer.database.exec('BEGIN');
    for (let index = 0; index < 600; index += 1) {
      const message = writer.message('ses_child', 100 + index, { role: index % 2 ? 'assistant' : 'user', time: { created: 100 + index } });
      writer.part(message, 'ses_child', 100 + index, { type: 'text', text: `turn ${index} ${'y'.repeat(6_000)}` });
    }
    writer.database.exec('COMMIT');
    const seat = seatOf(writer.path, 'ses_parent');
    const texts: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await replayCall(seat, 'big', cursor);
      if (page.status !== 'ok') throw new Error(JSON.stringify(page));
      expect(page.entries.length).toBeLessThanOrEqual(50);
      for (const entry of page.entries) expect(new TextEncoder().encode(entry.text).length).toBeLessThanOrEqual(4096);
      texts.unshift(...page.entries.map((entry) => entry.text.split(' ').slice(0, 2).join(' ')));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor);
    // 600 child messages: the window holds the newest 500, walked back in ten pages.
    expect(texts).toHaveLength(500);
    expect(texts[0]).toBe('turn 100');
    expect(texts.at(-1)).toBe('turn 599');
    expect(pages).toBe(10);
  });
});
