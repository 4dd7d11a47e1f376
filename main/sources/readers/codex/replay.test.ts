import { appendFile, copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReplayEntry, SeatAddress } from '../../../../shared/schemas';
import type { ReplayResult } from '../port';
import { callLine, envelopeText, eventLine, headerLine, tempHomes, messageLine, outputLine, threadId, turnContextLine, writeRollout } from '../../../dev/testing/codexRollout';
import { createCodexReader, seatFromCliTarget } from './reader';
import { encodeCursor } from '../kit/cursor';
import { CURSOR_REFUSALS } from '../kit/pager';
import { sharedFixtures } from '../../../dev/testing/sharedFixtures';

const fixtures = sharedFixtures('Codex replay over the synthetic v1 and v2 rollouts');
const shared = fixtures.path('codex/synthetic');
const v1Parent = join(shared, 'codex-home/sessions/2026/04/20/rollout-2026-04-20T10-00-00-019daa55-2500-7840-9d72-08433ddf79ed.jsonl');
const parentId = threadId(1);
const homes = tempHomes();
afterEach(homes.removeAll);

async function seatWithChild(childLines: string[]): Promise<{ seat: SeatAddress; childPath: string }> {
  const home = await homes.make();
  const path = await writeRollout(home, '2026/04/20', '2026-04-20T10-00-00', parentId, [headerLine({ id: parentId, timestamp: '2026-04-20T10:00:00.000Z' })]);
  const childPath = await writeRollout(home, '2026/04/20', '2026-04-20T10-00-02', threadId(2), childLines);
  return { seat: { harness: 'codex', home, sessionId: parentId, path }, childPath };
}
/** The entries of a finished child's whole transcript: the answer must be its one page, with no older one. */
function onlyPage(page: ReplayResult): ReplayEntry[] {
  expect(page).toMatchObject({ status: 'ok', running: false, nextCursor: null });
  return page.status === 'ok' ? page.entries : [];
}
const childHeader = (extra: Partial<Parameters<typeof headerLine>[0]> = {}) => headerLine({ id: threadId(2), timestamp: '2026-04-20T10:00:02.000Z', parent: parentId, ...extra });

describe('replay', () => {
  it.skipIf(!fixtures.present)('replays a v1 fixture child as user, tool and assistant entries', async () => {
    const seat = await seatFromCliTarget(v1Parent, {});
    const page = await createCodexReader({ home: seat.home }).replay(seat, '019daa55-3180-70ff-8135-c9caa8464f9a');
    // From the child file: its instruction, one exec_command call and output, and its final answer.
    expect(onlyPage(page)).toMatchObject([
      { at: '2026-04-20T10:00:03.302Z', role: 'user', text: 'Count all files in the repository (excluding .git) and report the number.' },
      { role: 'tool', tool: 'exec_command', text: 'git ls-files | wc -l' },
      { role: 'tool', tool: 'exec_command' },
      { role: 'assistant', text: 'There are 42 files (excluding .git).' },
    ]);
    const closed = await createCodexReader({ home: seat.home }).replay(seat, '019daa55-3950-79d2-a6ab-cf9e7e2d751c');
    expect(closed.status === 'ok' && closed.entries.at(-1)).toEqual({ at: '2026-04-20T10:00:53.200Z', role: 'note', text: 'turn interrupted' });
  });

  it.skipIf(!fixtures.present)('leaves out a forked child copied prefix and shows envelopes as notes (v2 fixture)', async () => {
    const home = await homes.make();
    const folder = join(home, 'sessions/2026/04/20');
    await mkdir(folder, { recursive: true });
    const parent = '019daa8c-1380-7858-b9ba-a23c5be621c8';
    const forked = '019daa8c-27d0-740e-85ee-ae3969314287';
    await copyFile(join(shared, `SYNTHETIC-v2-parent-excerpt-${parent}.jsonl`), join(folder, `rollout-2026-04-20T11-00-00-${parent}.jsonl`));
    await copyFile(join(shared, `SYNTHETIC-v2-child-excerpt-${forked}.jsonl`), join(folder, `rollout-2026-04-20T11-00-05-${forked}.jsonl`));
    const seat = await seatFromCliTarget(join(folder, `rollout-2026-04-20T11-00-00-${parent}.jsonl`), {});
    const page = await createCodexReader({ home }).replay(seat, forked);
    // The copied user message ("Count the files and check…") precedes the child's first turn_context: not shown.
    expect(onlyPage(page)).toEqual([
      { at: '2026-04-20T11:00:05.302Z', role: 'note', text: 'message from /root: Check the licence headers of every file in src/.' },
      { at: '2026-04-20T11:00:21.020Z', role: 'note', text: 'message from /root: Also list the files that have no header at all.' },
      { at: '2026-04-20T11:00:39.000Z', role: 'assistant', text: '3 files in src/ lack a licence header: a.rs, b.rs, c.rs.' },
    ]);
  });

  it('pages 50 entries newest first with a cursor that walks back, and reports a running child', async () => {
    const lines = [childHeader(), turnContextLine('2026-04-20T10:00:02.100Z')];
    for (let index = 0; index < 120; index++) lines.push(messageLine(`2026-04-20T10:01:00.${String(index).padStart(3, '0')}Z`, index % 2 ? 'assistant' : 'user', `line ${index}`));
    const { seat } = await seatWithChild(lines);
    const reader = createCodexReader({ home: seat.home, now: () => Date.parse('2026-04-20T10:02:00.000Z') });
    const texts: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await reader.replay(seat, threadId(2), cursor);
      if (page.status !== 'ok') throw new Error(page.status);
      expect(page.running).toBe(true);
      expect(page.entries.length).toBeLessThanOrEqual(50);
      texts.unshift(...page.entries.map((entry) => entry.text));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(texts).toEqual(Array.from({ length: 120 }, (_, index) => `line ${index}`));
  });

  it('keeps a window of the last 500 entries', async () => {
    const lines = [childHeader(), turnContextLine('2026-04-20T10:00:02.100Z')];
    for (let index = 0; index < 520; index++) lines.push(messageLine('2026-04-20T10:01:00.000Z', 'user', `m${index}`));
    const { seat } = await seatWithChild(lines);
    const reader = createCodexReader({ home: seat.home });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await reader.replay(seat, threadId(2), cursor);
      if (page.status !== 'ok') throw new Error(page.status);
      seen.push(...page.entries.map((entry) => entry.text));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toHaveLength(500);
    expect(seen).not.toContain('m19');
    expect(seen).toContain('m20');
  });

  it('caps each text at 4 KiB and summarises tool calls on one line', async () => {
    const { seat } = await seatWithChild([
      childHeader(),
      messageLine('2026-04-20T10:00:03.000Z', 'assistant', 'é'.repeat(5000)),
      callLine('2026-04-20T10:00:04.000Z', 'exec_command', { cmd: 'ls\n-la' }, 'c1'),
      outputLine('2026-04-20T10:00:05.000Z', 'c1', 'x'.repeat(10_000)),
      messageLine('2026-04-20T10:00:06.000Z', 'user', '<environment_context>\n<cwd>/x</cwd>\n</environment_context>'),
      messageLine('2026-04-20T10:00:07.000Z', 'developer', 'permissions text'),
    ]);
    const page = await createCodexReader({ home: seat.home }).replay(seat, threadId(2));
    if (page.status !== 'ok') throw new Error(page.status);
    expect(Buffer.byteLength(page.entries[0].text)).toBeLessThanOrEqual(4096);
    expect(page.entries.slice(1).map(({ role, tool, text }) => [role, tool, text.length > 50 ? text.length : text])).toEqual([
      ['tool', 'exec_command', 'ls -la'],
      ['tool', 'exec_command', 998],
      ['note', undefined, 'environment context'],
    ]);
      });

  it('refuses what is not a discovered direct child, escaped ids and foreign or forged cursors', async () => {
    const { seat } = await seatWithChild([childHeader(), messageLine('2026-04-20T10:00:03.000Z', 'user', 'hi')]);
    await writeRollout(seat.home, '2026/04/20', '2026-04-20T10-00-04', threadId(4), [headerLine({ id: threadId(4), timestamp: '2026-04-20T10:00:04.000Z', parent: threadId(2) })]);
    const reader = createCodexReader({ home: seat.home });
    expect(await reader.replay(seat, threadId(4))).toMatchObject({ status: 'refused' }); // a grandchild
    expect(await reader.replay(seat, '../../etc/passwd')).toMatchObject({ status: 'refused' });
    expect(await reader.replay(seat, threadId(2), 'garbage')).toEqual({ status: 'refused', reason: CURSOR_REFUSALS.damaged });
    const owner = { harness: 'codex' as const, ids: [parentId, threadId(3)] };
    const foreign = encodeCursor(owner, { source: null, floor: [0, 0], before: [10, 0], mark: 'm' });
    expect(await reader.replay(seat, threadId(2), foreign)).toEqual({ status: 'refused', reason: CURSOR_REFUSALS.foreign });
    const stale = encodeCursor({ ...owner, ids: [parentId, threadId(2)] }, { source: '1', floor: [0, 0], before: [1e9, 0], mark: 'm' });
    expect(await reader.replay(seat, threadId(2), stale)).toEqual({ status: 'refused', reason: CURSOR_REFUSALS.stale });
  });

  it('re-checks the child header before reading: a rewritten header is refused', async () => {
    const { seat, childPath } = await seatWithChild([childHeader(), messageLine('2026-04-20T10:00:03.000Z', 'user', 'hi')]);
    const reader = createCodexReader({ home: seat.home });
    expect(await reader.replay(seat, threadId(2))).toMatchObject({ status: 'ok' });
    // Same path and inode, but line 1 now claims another parent: discovery is still cached, the re-check is not.
    await writeFile(childPath, `${childHeader({ parent: threadId(9) })}\n`);
    await appendFile(childPath, `${eventLine('2026-04-20T10:00:04.000Z', 'task_started')}\n`);
    expect(await reader.replay(seat, threadId(2))).toMatchObject({ status: 'refused' });
  });

  it('answers unavailable when the child file is gone', async () => {
    const { seat, childPath } = await seatWithChild([childHeader()]);
    const reader = createCodexReader({ home: seat.home });
    expect((await reader.project(seat)).ok).toBe(true);
    await rm(childPath);
    expect(await reader.replay(seat, threadId(2))).toMatchObject({ status: 'unavailable', reason: expect.stringMatching(/gone/) });
  });

  it('shows v2 inter-agent envelopes of a non-forked child as notes', async () => {
    const { seat } = await seatWithChild([
      childHeader({ agentPath: '/root/x' }),
      turnContextLine('2026-04-20T10:00:02.100Z'),
      messageLine('2026-04-20T10:00:02.200Z', 'assistant', envelopeText('/root', '/root/x', 'Do the thing.', true)),
    ]);
    const page = await createCodexReader({ home: seat.home }).replay(seat, threadId(2));
    expect(page.status === 'ok' && page.entries).toEqual([{ at: '2026-04-20T10:00:02.200Z', role: 'note', text: 'message from /root: Do the thing.' }]);
  });
});
