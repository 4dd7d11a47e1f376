// Replay against real temp homes: the child is resolved only by the recorded agent id, its identity is checked,
// ids and cursors are refused when foreign, and pages walk back through a bounded window.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReplayPageSchema, type ReplayPage, type SeatAddress } from '../../../../shared/schemas';
import type { ReplayResult } from '../port';
import { createClaudeReader } from './reader';
import { REPLAY_REASONS } from './replay';
import { encodeCursor } from '../kit/cursor';
import { CURSOR_REFUSALS } from '../kit/pager';
import { agentCall, assistantLine, isoAt, textBlock, toolCall, toolResult, userLine } from '../../../dev/testing/claudeJournal';

const SESSION = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
let home: string;
let folder: string;
let seat: SeatAddress;

const at = (seconds: number) => ({ sessionId: SESSION, at: isoAt(seconds) });
const child = (agentId: string, seconds: number, sessionId = SESSION) => ({ sessionId, at: isoAt(seconds), sidechain: true, agentId });

/** A parent journal with one call per case; each result records the given agent id (or none). */
async function writeParent(cases: { id: string; agentId?: string; background?: boolean }[]): Promise<void> {
  const lines: string[] = [];
  cases.forEach((item, index) => {
    lines.push(assistantLine(at(index * 10), `msg_${index}`, [agentCall(item.id, `Case ${item.id}`)]));
    const record = item.background
      ? { isAsync: true, status: 'async_launched', agentId: item.agentId }
      : { status: 'completed', ...(item.agentId ? { agentId: item.agentId } : {}) };
    lines.push(userLine(at(index * 10 + 5), [toolResult(item.id, 'ok')], record));
  });
  await writeFile(path.join(folder, `${SESSION}.jsonl`), `${lines.join('\n')}\n`);
}

/** A child journal with `count` assistant text entries after the prompt. */
function childLines(agentId: string, count: number, sessionId = SESSION): string {
  const lines = [userLine(child(agentId, 0, sessionId), 'Do the work.')];
  for (let index = 1; index <= count; index++) lines.push(assistantLine(child(agentId, index, sessionId), `msg_c${index}`, [textBlock(`step ${index}`)]));
  return `${lines.join('\n')}\n`;
}

async function writeChild(agentId: string, content: string, layout: 'subagents' | 'flat' = 'subagents'): Promise<string> {
  const target = layout === 'subagents' ? path.join(folder, SESSION, 'subagents') : folder;
  await mkdir(target, { recursive: true });
  const file = path.join(target, `agent-${agentId}.jsonl`);
  await writeFile(file, content);
  return file;
}

function ok(result: ReplayResult): Extract<ReplayPage, { status: 'ok' }> {
  if (result.status !== 'ok') throw new Error(`expected a page, got ${JSON.stringify(result)}`);
  expect(ReplayPageSchema.parse(result)).toEqual(result);
  return result;
}

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'pixelfleet-claude-replay-'));
  folder = path.join(home, 'projects', '-work-demo');
  await mkdir(folder, { recursive: true });
  seat = { harness: 'claude', home, sessionId: SESSION, cwd: '/work/demo' };
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('replay', () => {
  it('pages a child newest first, 50 at a time, the cursor walking back to the prompt', async () => {
    await writeParent([{ id: 'toolu_ok', agentId: 'a0123456789abcdef' }]);
    await writeChild('a0123456789abcdef', childLines('a0123456789abcdef', 119)); // 120 entries
    const reader = createClaudeReader({ home });
    const first = ok(await reader.replay(seat, 'toolu_ok'));
    expect(first.running).toBe(false);
    expect(first.entries.map((entry) => entry.text)).toEqual(Array.from({ length: 50 }, (_, index) => `step ${70 + index}`));
    const second = ok(await reader.replay(seat, 'toolu_ok', first.nextCursor ?? undefined));
    expect(second.entries[0].text).toBe('step 20');
    expect(second.entries.at(-1)?.text).toBe('step 69');
    const third = ok(await reader.replay(seat, 'toolu_ok', second.nextCursor ?? undefined));
    expect(third.entries).toHaveLength(20);
    expect(third.entries[0]).toEqual({ at: isoAt(0), role: 'user', text: 'Do the work.' });
    expect(third.nextCursor).toBeNull();
  });

  it('reads the older flat layout and reports a background child as running', async () => {
    await writeParent([{ id: 'toolu_flat', agentId: 'e1c84ba5' }, { id: 'toolu_bg', agentId: 'abg00001', background: true }]);
    await writeChild('e1c84ba5', childLines('e1c84ba5', 2), 'flat');
    await writeChild('abg00001', childLines('abg00001', 1));
    const reader = createClaudeReader({ home });
    expect(ok(await reader.replay(seat, 'toolu_flat')).entries).toHaveLength(3);
    const running = ok(await reader.replay(seat, 'toolu_bg'));
    expect(running.running).toBe(true);
  });

  it('normalizes tool calls and results and caps entry text at 4 KiB', async () => {
    const id = 'anorm0001';
    await writeParent([{ id: 'toolu_norm', agentId: id }]);
    const lines = [
      assistantLine(child(id, 1), 'msg_t', [toolCall('toolu_read', 'Read', { file_path: '/work/demo/README.md', limit: 10 })]),
      userLine(child(id, 2), [toolResult('toolu_read', `line one\n${'r'.repeat(5000)}`)]),
      assistantLine(child(id, 3), 'msg_u', [toolCall('toolu_custom', 'Mystery', { alpha: 1, beta: 'two\nlines' })]),
      assistantLine(child(id, 4), 'msg_v', [textBlock('é'.repeat(5000))]),
      userLine(child(id, 5), [toolResult('toolu_unknown', 'boom', true)]),
    ];
    await writeChild(id, `${lines.join('\n')}\n`);
    const page = ok(await createClaudeReader({ home }).replay(seat, 'toolu_norm'));
    expect(page.entries[0]).toEqual({ at: isoAt(1), role: 'tool', text: '/work/demo/README.md', tool: 'Read', targets: [{ path: '/work/demo/README.md', action: 'read' }] });
    expect(page.entries[1].tool).toBe('Read');
    expect(page.entries[1].text.length).toBeLessThanOrEqual(1000);
    expect(page.entries[2]).toMatchObject({ tool: 'Mystery', text: '{"alpha":1,"beta":"two\\nlines"}' });
    expect(Buffer.byteLength(page.entries[3].text)).toBeLessThanOrEqual(4096);
    expect(page.entries[3].text.endsWith('é…')).toBe(true);
    expect(page.entries[4]).toEqual({ at: isoAt(5), role: 'tool', text: 'error: boom' });
  });

  it('is unavailable when no agent id was recorded, when the file is gone, or for an unknown call', async () => {
    await writeParent([{ id: 'toolu_noid' }, { id: 'toolu_gone', agentId: 'agone0001' }]);
    const reader = createClaudeReader({ home });
    expect(await reader.replay(seat, 'toolu_noid')).toEqual({ status: 'unavailable', reason: REPLAY_REASONS.notRecorded });
    expect(await reader.replay(seat, 'toolu_gone')).toEqual({ status: 'unavailable', reason: REPLAY_REASONS.gone });
    expect(await reader.replay(seat, 'toolu_never')).toEqual({ status: 'unavailable', reason: REPLAY_REASONS.notInSession });
  });

  it('never follows a symbolic link to a child journal', async () => {
    await writeParent([{ id: 'toolu_link', agentId: 'alink0001' }]);
    const elsewhere = path.join(home, 'elsewhere.jsonl');
    await writeFile(elsewhere, childLines('alink0001', 1));
    await mkdir(path.join(folder, SESSION, 'subagents'), { recursive: true });
    await symlink(elsewhere, path.join(folder, SESSION, 'subagents', 'agent-alink0001.jsonl'));
    expect(await createClaudeReader({ home }).replay(seat, 'toolu_link')).toEqual({ status: 'unavailable', reason: REPLAY_REASONS.gone });
  });

  it('refuses a child whose lines carry another agent id or another session id', async () => {
    await writeParent([{ id: 'toolu_agent', agentId: 'amine0001' }, { id: 'toolu_session', agentId: 'amine0002' }]);
    await writeChild('amine0001', childLines('someoneelse', 3));
    await writeChild('amine0002', childLines('amine0002', 3, 'ffffffff-0000-4000-8000-000000000000'));
    const reader = createClaudeReader({ home });
    expect(await reader.replay(seat, 'toolu_agent')).toEqual({ status: 'refused', reason: REPLAY_REASONS.mismatch });
    expect(await reader.replay(seat, 'toolu_session')).toEqual({ status: 'refused', reason: REPLAY_REASONS.mismatch });
  });

  it('refuses a recorded agent id that is not a plain token, without touching the path', async () => {
    await writeParent([{ id: 'toolu_escape', agentId: '../../../outside' }]);
    await writeFile(path.join(home, 'agent-outside.jsonl'), childLines('../../../outside', 1));
    expect(await createClaudeReader({ home }).replay(seat, 'toolu_escape')).toEqual({ status: 'refused', reason: REPLAY_REASONS.badAgentId });
  });

  it('refuses a cursor issued for another call or session, and a damaged one', async () => {
    await writeParent([{ id: 'toolu_one', agentId: 'aone00001' }, { id: 'toolu_two', agentId: 'atwo00001' }]);
    await writeChild('aone00001', childLines('aone00001', 80));
    await writeChild('atwo00001', childLines('atwo00001', 80));
    const reader = createClaudeReader({ home });
    const cursor = ok(await reader.replay(seat, 'toolu_one')).nextCursor;
    expect(cursor).toEqual(expect.any(String));
    const foreign = { status: 'refused', reason: CURSOR_REFUSALS.foreign };
    const damaged = { status: 'refused', reason: CURSOR_REFUSALS.damaged };
    expect(await reader.replay(seat, 'toolu_two', cursor ?? undefined)).toEqual(foreign);
    expect(await reader.replay(seat, 'toolu_one', 'not-a-cursor')).toEqual(damaged);
    expect(await reader.replay(seat, 'toolu_one', '!!')).toEqual(damaged);
    const otherSession = encodeCursor({ harness: 'claude', ids: ['another-session', 'toolu_one'] }, { source: null, floor: [0, 0], before: [10, 0], mark: 'm' });
    expect(await reader.replay(seat, 'toolu_one', otherSession)).toEqual(foreign);
  });

  it('keeps only the last 500 entries and the last 4 MiB of a child', async () => {
    await writeParent([{ id: 'toolu_many', agentId: 'amany0001' }, { id: 'toolu_big', agentId: 'abig00001' }]);
    await writeChild('amany0001', childLines('amany0001', 699)); // 700 entries
    const big = 'b'.repeat(20_000);
    const bigLines = Array.from({ length: 400 }, (_, index) => assistantLine(child('abig00001', index), `msg_b${index}`, [textBlock(`${index} ${big}`)]));
    await writeChild('abig00001', `${bigLines.join('\n')}\n`); // ≈ 8 MiB
    // Lines starting at or after (size − 4 MiB) are in the window.
    const size = bigLines.reduce((total, line) => total + Buffer.byteLength(line) + 1, 0);
    let offset = 0;
    let inWindow = 0;
    for (const line of bigLines) {
      if (offset >= size - 4 * 1024 * 1024) inWindow++;
      offset += Buffer.byteLength(line) + 1;
    }
    const reader = createClaudeReader({ home });
    const walk = async (nativeId: string) => {
      const texts: string[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 20; pages++) {
        const page = ok(await reader.replay(seat, nativeId, cursor));
        texts.unshift(...page.entries.map((entry) => entry.text));
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      return texts;
    };
    const many = await walk('toolu_many');
    expect(many).toHaveLength(500);
    expect(many[0]).toBe('step 200');
    const bigTexts = await walk('toolu_big');
    expect(inWindow).toBeLessThan(300);
    expect(bigTexts).toHaveLength(inWindow);
    expect(bigTexts[0].startsWith(`${400 - inWindow} `)).toBe(true);
  });
});
