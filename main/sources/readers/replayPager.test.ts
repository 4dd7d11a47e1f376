// Every harness on the one replay pager, against real files and a real SQLite store: the window's byte bound falls
// exactly on a line, a window of exactly 500 entries ends exactly on a page, a replaced or rewritten transcript makes
// a later page stale, and a cursor of one harness is foreign to the others.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SeatAddress } from '../../../shared/schemas';
import type { ReplayResult, SeatReader } from './port';
import { createClaudeReader } from './claude/reader';
import { createCodexReader } from './codex/reader';
import { createOpenCodeReader } from './opencode/reader';
import { CURSOR_REFUSALS } from './kit/pager';
import { REPLAY_PAGE_ENTRIES, REPLAY_WINDOW_BYTES, REPLAY_WINDOW_ENTRIES } from './kit/bounds';
import { agentCall, assistantLine, isoAt, textBlock, toolResult, userLine } from '../../dev/testing/claudeJournal';
import { headerLine, messageLine, tempHomes, threadId, turnContextLine, writeRollout } from '../../dev/testing/codexRollout';
import { perTestCleanups } from '../../dev/testing/cleanups';
import { StoreWriter } from '../../dev/testing/opencodeStore';

const SESSION = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const AGENT = 'apager0001';
const homes = tempHomes();
const { cleanups, tempDir } = perTestCleanups();
afterEach(homes.removeAll);

function ok(result: ReplayResult): { texts: string[]; next: string | undefined } {
  if (result.status !== 'ok') throw new Error(`expected a page, got ${JSON.stringify(result)}`);
  return { texts: result.entries.map((entry) => entry.text), next: result.nextCursor ?? undefined };
}

/** Every page of a walk from the newest, oldest entry first. */
async function walk(reader: SeatReader, seat: SeatAddress, nativeId: string): Promise<{ texts: string[]; pages: number }> {
  const texts: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = ok(await reader.replay(seat, nativeId, cursor));
    texts.unshift(...page.texts);
    cursor = page.next;
    pages += 1;
  } while (cursor);
  return { texts, pages };
}

/** A Claude home whose session has one call `toolu_pager` with the recorded child `AGENT`; returns the child's path. */
async function claudeSeat(): Promise<{ seat: SeatAddress; childPath: string }> {
  const home = tempDir();
  const folder = path.join(home, 'projects', '-work-demo');
  await mkdir(path.join(folder, SESSION, 'subagents'), { recursive: true });
  const at = (seconds: number) => ({ sessionId: SESSION, at: isoAt(seconds) });
  const parent = [assistantLine(at(0), 'msg_0', [agentCall('toolu_pager', 'Page')]), userLine(at(5), [toolResult('toolu_pager', 'ok')], { status: 'completed', agentId: AGENT })];
  await writeFile(path.join(folder, `${SESSION}.jsonl`), `${parent.join('\n')}\n`);
  return { seat: { harness: 'claude', home, sessionId: SESSION, cwd: '/work/demo' }, childPath: path.join(folder, SESSION, 'subagents', `agent-${AGENT}.jsonl`) };
}

/** Child line `index` of the Claude child, padded with 'p' to exactly `bytes` bytes with its newline. */
function claudeChildLine(index: number, bytes: number): string {
  const line = (text: string) => assistantLine({ sessionId: SESSION, at: isoAt(index), sidechain: true, agentId: AGENT }, `msg_${index}`, [textBlock(text)]);
  const bare = Buffer.byteLength(line(`${index} `)) + 1;
  return `${line(`${index} ${'p'.repeat(bytes - bare)}`)}\n`;
}

describe('the byte bound of the window', () => {
  const LINE = 16 * 1024;
  const LINES = 300;
  const inWindow = REPLAY_WINDOW_BYTES / LINE; // 256 lines of the child fit in the window exactly

  it('keeps a line that starts exactly at the window’s first byte, and drops one that starts a byte before', async () => {
    const { seat, childPath } = await claudeSeat();
    const reader = createClaudeReader({ home: seat.home });
    const lines = Array.from({ length: LINES }, (_, index) => claudeChildLine(index, LINE));
    await writeFile(childPath, lines.join(''));
    const exact = await walk(reader, seat, 'toolu_pager');
    expect(exact.texts).toHaveLength(inWindow);
    expect(exact.texts[0].startsWith(`${LINES - inWindow} p`)).toBe(true);

    // One byte more at the end moves the window's start one byte past that line's start.
    lines[LINES - 1] = claudeChildLine(LINES - 1, LINE + 1);
    await writeFile(childPath, lines.join(''));
    const shifted = await walk(reader, seat, 'toolu_pager');
    expect(shifted.texts).toHaveLength(inWindow - 1);
    expect(shifted.texts[0].startsWith(`${LINES - inWindow + 1} p`)).toBe(true);
  });
});

describe('a window of exactly 500 entries', () => {
  it('ends exactly on its tenth page (Codex rollout)', async () => {
    const { seat } = await codexSeat(REPLAY_WINDOW_ENTRIES);
    const { texts, pages } = await walk(createCodexReader({ home: seat.home }), seat, threadId(2));
    expect(pages).toBe(REPLAY_WINDOW_ENTRIES / REPLAY_PAGE_ENTRIES);
    expect(texts).toEqual(Array.from({ length: REPLAY_WINDOW_ENTRIES }, (_, index) => `m${index}`));
  });
});

/** A Codex home with a parent and one child rollout holding `count` messages `m0`… */
async function codexSeat(count: number): Promise<{ seat: SeatAddress; childPath: string; lines: string[] }> {
  const home = await homes.make();
  const parentId = threadId(1);
  const parentPath = await writeRollout(home, '2026/04/20', '2026-04-20T10-00-00', parentId, [headerLine({ id: parentId, timestamp: '2026-04-20T10:00:00.000Z' })]);
  const lines = [headerLine({ id: threadId(2), timestamp: '2026-04-20T10:00:02.000Z', parent: parentId }), turnContextLine('2026-04-20T10:00:02.100Z')];
  for (let index = 0; index < count; index++) lines.push(messageLine('2026-04-20T10:01:00.000Z', 'user', `m${index}`));
  const childPath = await writeRollout(home, '2026/04/20', '2026-04-20T10-00-02', threadId(2), lines);
  return { seat: { harness: 'codex', home, sessionId: parentId, path: parentPath }, childPath, lines };
}

describe('a transcript that changed under a walk', () => {
  it('refuses the next page of a Codex child replaced by another file', async () => {
    const { seat, childPath, lines } = await codexSeat(120);
    const reader = createCodexReader({ home: seat.home });
    const first = ok(await reader.replay(seat, threadId(2)));
    await writeFile(`${childPath}.new`, lines.map((line) => `${line}\n`).join(''));
    await rename(`${childPath}.new`, childPath);
    expect(await reader.replay(seat, threadId(2), first.next)).toEqual({ status: 'refused', reason: CURSOR_REFUSALS.stale });
  });

  it('refuses the next page of a Claude child rewritten in place with its lines moved', async () => {
    const { seat, childPath } = await claudeSeat();
    const reader = createClaudeReader({ home: seat.home });
    const lines = Array.from({ length: 120 }, (_, index) => claudeChildLine(index, 1024));
    await writeFile(childPath, lines.join(''));
    const first = ok(await reader.replay(seat, 'toolu_pager'));
    expect(ok(await reader.replay(seat, 'toolu_pager', first.next)).texts).toHaveLength(REPLAY_PAGE_ENTRIES);
    await writeFile(childPath, lines.slice(1).join(''));
    expect(await reader.replay(seat, 'toolu_pager', first.next)).toEqual({ status: 'refused', reason: CURSOR_REFUSALS.stale });
  });

  it('refuses the next page of an OpenCode child whose parts were deleted (a reverted session)', async () => {
    const { seat, writer, parts } = openCodeSeat();
    const reader = createOpenCodeReader({ db: seat.home });
    const first = ok(await reader.replay(seat, 'call_a'));
    writer.database.prepare('DELETE FROM part WHERE id = ?').run(parts[0]);
    expect(await reader.replay(seat, 'call_a', first.next)).toEqual({ status: 'refused', reason: CURSOR_REFUSALS.stale });
  });
});

/** A real OpenCode store with a parent, its task call `call_a` and a child of 60 text parts. */
function openCodeSeat(): { seat: SeatAddress; writer: StoreWriter; parts: string[] } {
  const writer = new StoreWriter(path.join(tempDir(), 'opencode.db'));
  cleanups.push(() => {
    if (writer.database.open) writer.close();
  });
  writer.session('ses_parent');
  writer.session('ses_child', { parent: 'ses_parent' });
  writer.task(writer.message('ses_parent', 10), 'ses_parent', 11, { callId: 'call_a', status: 'completed', start: 1, end: 2, child: 'ses_child' });
  const message = writer.message('ses_child', 20, { role: 'assistant', time: { created: 20, completed: 21 } });
  const parts = Array.from({ length: 60 }, (_, index) => writer.part(message, 'ses_child', 20 + index, { type: 'text', text: `step ${index}` }));
  return { seat: { harness: 'opencode', home: writer.path, sessionId: 'ses_parent', cwd: null, path: null }, writer, parts };
}

describe('a cursor of one harness', () => {
  it('is foreign to the others', async () => {
    const { seat } = openCodeSeat();
    const cursor = ok(await createOpenCodeReader({ db: seat.home }).replay(seat, 'call_a')).next;
    expect(cursor).toEqual(expect.any(String));
    const claude = await claudeSeat();
    await writeFile(claude.childPath, Array.from({ length: 3 }, (_, index) => claudeChildLine(index, 1024)).join(''));
    expect(await createClaudeReader({ home: claude.seat.home }).replay(claude.seat, 'toolu_pager', cursor)).toEqual({ status: 'refused', reason: CURSOR_REFUSALS.foreign });
    const codex = await codexSeat(3);
    expect(await createCodexReader({ home: codex.seat.home }).replay(codex.seat, threadId(2), cursor)).toEqual({ status: 'refused', reason: CURSOR_REFUSALS.foreign });
  });
});
