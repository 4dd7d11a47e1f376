// The Claude reader against real temp homes: locating, incremental refreshes, cold reads (rule 8), rotation,
// discovery from metadata, and unknown seats.
import { appendFile, mkdir, mkdtemp, rename, rm, truncate, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SeatAddress } from '../../../../shared/schemas';
import type { Projection } from '../port';
import { escapeCwd } from './locate';
import { createClaudeReader } from './reader';
import { agentCall, assistantLine, isoAt, toolCall, toolResult, userLine } from '../../../dev/testing/claudeJournal';
import { olderThanWindow, REPLAY_REASONS } from './reasons';

const MIB = 1024 * 1024;

const SESSION = '11111111-2222-4333-8444-555555555555';
const CWD = '/work/demo_app';
let home: string;
let journal: string;

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'pixelfleet-claude-reader-'));
  await mkdir(path.join(home, 'projects', escapeCwd(CWD)), { recursive: true });
  journal = path.join(home, 'projects', escapeCwd(CWD), `${SESSION}.jsonl`);
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const context = (seconds: number) => ({ sessionId: SESSION, at: isoAt(seconds) });
const seat = (extra: Partial<SeatAddress> = {}): SeatAddress => ({ harness: 'claude', home, sessionId: SESSION, cwd: CWD, ...extra });

function expectOk(projection: Projection) {
  if (!projection.ok) throw new Error(`expected a projection, got: ${projection.reason}`);
  return projection;
}

describe('createClaudeReader().project', () => {
  it('locates the journal from cwd, then reads only appended bytes', async () => {
    const first = `${assistantLine(context(1), 'msg_a', [agentCall('toolu_one', 'Survey the code')])}\n`;
    await writeFile(journal, first);
    const reader = createClaudeReader({ home });
    const cold = expectOk(await reader.project(seat()));
    expect(cold.subagents).toMatchObject({ running: 1, recent: [{ nativeId: 'toolu_one', state: 'running' }] });
    expect(cold.read.bytes).toBe(Buffer.byteLength(first));

    const unchanged = expectOk(await reader.project(seat()));
    expect(unchanged.read.bytes).toBe(0);
    expect(unchanged.subagents).toEqual(cold.subagents);

    const appended = `${userLine(context(9), [toolResult('toolu_one', 'done')], { status: 'completed', agentId: 'aone0001' })}\n`;
    await appendFile(journal, appended);
    const warm = expectOk(await reader.project(seat()));
    expect(warm.read.bytes).toBe(Buffer.byteLength(appended));
    expect(warm.subagents).toMatchObject({ running: 0, recent: [{ nativeId: 'toolu_one', state: 'ended', outcome: 'completed', replayable: true }] });
    expect(warm.lastWriteMs).toBeGreaterThan(0);
  });

  it('finds the journal by searching project folders when cwd is unknown', async () => {
    await writeFile(journal, `${assistantLine(context(1), 'msg_a', [agentCall('toolu_one', 'Survey')])}\n`);
    const reader = createClaudeReader({ home });
    expect(expectOk(await reader.project(seat({ cwd: null }))).subagents.running).toBe(1);
    expect(reader.watchPaths(seat({ cwd: null }))).toEqual([journal]);
  });

  it('answers unknown with a short reason for a missing journal or an unsafe session id', async () => {
    const reader = createClaudeReader({ home });
    expect(await reader.project(seat())).toEqual({ ok: false, reason: 'journal not found' });
    expect(await reader.project(seat({ sessionId: '../../etc/passwd', cwd: null }))).toEqual({ ok: false, reason: 'journal not found' });
    expect(await reader.project(seat({ path: path.join(home, 'nope.jsonl') }))).toEqual({ ok: false, reason: 'journal not found' });
  });

  it('rule 8: a cold read of a journal over 2 MiB ignores results for calls it did not see', async () => {
    const early = assistantLine(context(1), 'msg_early', [agentCall('toolu_early', 'Started long ago')]);
    const filler = JSON.stringify({ type: 'progress', timestamp: isoAt(2), data: { type: 'hook_progress', output: 'f'.repeat(4000) } });
    const lines = [early, ...Array.from({ length: 600 }, () => filler)]; // ≈ 2.4 MiB
    lines.push(userLine(context(3), [toolResult('toolu_early', 'done')], { status: 'completed', agentId: 'aearly01' }));
    lines.push(assistantLine(context(4), 'msg_late', [agentCall('toolu_late', 'Seen in the window', { run_in_background: true })]));
    lines.push(userLine(context(5), [toolResult('toolu_late', 'launched')], { isAsync: true, status: 'async_launched', agentId: 'alate001' }));
    await writeFile(journal, `${lines.join('\n')}\n`);
    const projection = expectOk(await createClaudeReader({ home }).project(seat()));
    expect(projection.read.bytes).toBeLessThanOrEqual(2 * 1024 * 1024 + 1);
    expect(projection.subagents).toMatchObject({ running: 1, recent: [{ nativeId: 'toolu_late', background: true, replayable: true }] });
    expect(projection.subagents.recent).toHaveLength(1);
  });

  it('starts again cold after truncation and after rotation', async () => {
    await writeFile(journal, `${assistantLine(context(1), 'msg_a', [agentCall('toolu_before', 'Before')])}\n`);
    const reader = createClaudeReader({ home });
    expect(expectOk(await reader.project(seat())).subagents.recent[0].nativeId).toBe('toolu_before');

    await truncate(journal, 0);
    expect(expectOk(await reader.project(seat())).subagents).toEqual({ running: 0, recent: [] });
    await appendFile(journal, `${assistantLine(context(2), 'msg_b', [agentCall('toolu_t', 'T')])}\n`);
    const truncated = expectOk(await reader.project(seat()));
    expect(truncated.subagents.recent.map((entry) => entry.nativeId)).toEqual(['toolu_t']);

    const next = `${journal}.next`;
    await writeFile(next, `${assistantLine(context(3), 'msg_c', [agentCall('toolu_rotated', 'Rotated')])}\n`);
    await rename(next, journal);
    const rotated = expectOk(await reader.project(seat()));
    expect(rotated.subagents.recent.map((entry) => entry.nativeId)).toEqual(['toolu_rotated']);
  });

  it('rule 8: a journal rewritten in place is read once, into a fresh fold: calls, bad lines and messages start afresh', async () => {
    const before = [
      'not json',
      assistantLine(context(1), 'msg_a', [toolCall('toolu_msg', 'SendMessage', { to: 'alice', summary: 'Status' })]),
      assistantLine(context(2), 'msg_b', [agentCall('toolu_one', 'One')]),
      userLine(context(3), [toolResult('toolu_one', 'done')], { status: 'completed', agentId: 'aone0001' }),
    ].join('\n');
    await writeFile(journal, `${before}\n`);
    const reader = createClaudeReader({ home });
    const first = expectOk(await reader.project(seat()));
    expect(first.read.skippedLines).toBe(1);
    expect(first.messages).toHaveLength(1);
    expect(first.subagents.recent.map((entry) => [entry.nativeId, entry.state])).toEqual([['toolu_one', 'ended']]);

    // The same size, other bytes, same inode: a new session written over the old one.
    const call = assistantLine(context(5), 'msg_c', [agentCall('toolu_two', 'Two')]);
    const filler = (length: number) => JSON.stringify({ type: 'summary', summary: 's'.repeat(length) });
    const after = `${call}\n${filler(before.length - call.length - filler(0).length - 1)}\n`;
    expect(Buffer.byteLength(after)).toBe(Buffer.byteLength(`${before}\n`));
    await writeFile(journal, after);
    await utimes(journal, new Date(), new Date(Date.now() + 5000));
    const cold = expectOk(await reader.project(seat()));
    // The counter: the file once (not the old fold's bytes again, not a second pass), and nothing of the old file left.
    expect(cold.read).toEqual({ bytes: Buffer.byteLength(after), skippedLines: 0 });
    expect(cold.messages).toEqual([]);
    expect(cold.subagents).toMatchObject({ running: 1, recent: [{ nativeId: 'toolu_two', state: 'running' }] });
    expect(cold.subagents.recent).toHaveLength(1);
  });

  it('rule 8: a window that starts inside a multibyte character folds the whole lines after it and counts none as bad', async () => {
    const early = assistantLine(context(1), 'msg_early', [agentCall('toolu_early', 'Before the window')]);
    const filler = JSON.stringify({ type: 'progress', timestamp: isoAt(2), data: { type: 'hook_progress', output: 'café → 日本 🎉 '.repeat(200) } });
    const late = assistantLine(context(3), 'msg_late', [agentCall('toolu_late', 'In the window · 日本')]);
    // Pad the last line until the window's first byte is inside a character (a UTF-8 continuation byte).
    let bytes = Buffer.alloc(0);
    for (let pad = 0; pad < 8; pad++) {
      const last = userLine(context(4), `${'x'.repeat(pad)} → 🎉`);
      bytes = Buffer.from(`${[early, ...Array.from({ length: 700 }, () => filler), late, last].join('\n')}\n`, 'utf8');
      if ((bytes[bytes.length - 2 * MIB] & 0xc0) === 0x80) break;
    }
    expect(bytes[bytes.length - 2 * MIB] & 0xc0).toBe(0x80);
    await writeFile(journal, bytes);
    const projection = expectOk(await createClaudeReader({ home }).project(seat()));
    expect(projection.read).toEqual({ bytes: 2 * MIB + 1, skippedLines: 0 });
    expect(projection.subagents).toMatchObject({ running: 1, recent: [{ nativeId: 'toolu_late', label: 'In the window · 日本' }] });
    expect(projection.subagents.recent).toHaveLength(1);
  });

  it('rule 8: a rotated journal starts a fresh fold: the window of the old file does not outlive it', async () => {
    const filler = JSON.stringify({ type: 'progress', timestamp: isoAt(2), data: { type: 'hook_progress', output: 'f'.repeat(4000) } });
    await writeFile(journal, `${Array.from({ length: 600 }, () => filler).join('\n')}\n`); // ≈ 2.4 MiB: windowed
    const reader = createClaudeReader({ home });
    expectOk(await reader.project(seat()));
    expect(await reader.replay(seat(), 'toolu_gone')).toEqual({ status: 'unavailable', reason: olderThanWindow(2 * MIB) });
    const next = `${journal}.next`;
    await writeFile(next, `${assistantLine(context(3), 'msg_c', [agentCall('toolu_new', 'New')])}\n`);
    await rename(next, journal);
    expect(expectOk(await reader.project(seat())).subagents.recent.map((entry) => entry.nativeId)).toEqual(['toolu_new']);
    expect(await reader.replay(seat(), 'toolu_gone')).toEqual({ status: 'unavailable', reason: REPLAY_REASONS.notInSession });
  });

  it('rule 9: holds a half-written last line until the writer completes it', async () => {
    const line = assistantLine(context(1), 'msg_a', [agentCall('toolu_half', 'Half written')]);
    await writeFile(journal, `not json\n${line.slice(0, 50)}`);
    const reader = createClaudeReader({ home });
    const before = expectOk(await reader.project(seat()));
    expect(before.subagents.recent).toEqual([]);
    expect(before.read.skippedLines).toBe(1);
    await appendFile(journal, `${line.slice(50)}\n`);
    const after = expectOk(await reader.project(seat()));
    expect(after.subagents.recent.map((entry) => entry.nativeId)).toEqual(['toolu_half']);
    expect(after.read).toEqual({ bytes: Buffer.byteLength(line) - 50 + 1, skippedLines: 1 });
  });

  it('reports a journal that disappears as unknown, and forget() drops seat state', async () => {
    await writeFile(journal, `${assistantLine(context(1), 'msg_a', [agentCall('toolu_one', 'One')])}\n`);
    const reader = createClaudeReader({ home });
    expectOk(await reader.project(seat()));
    await rm(journal);
    expect(await reader.project(seat())).toEqual({ ok: false, reason: 'journal not found' });
    await writeFile(journal, `${assistantLine(context(1), 'msg_a', [agentCall('toolu_two', 'Two')])}\n`);
    reader.forget(seat());
    expect(expectOk(await reader.project(seat())).subagents.recent[0].nativeId).toBe('toolu_two');
  });

  it('serializes concurrent refreshes of one seat', async () => {
    await writeFile(journal, `${assistantLine(context(1), 'msg_a', [agentCall('toolu_one', 'One')])}\n`);
    const reader = createClaudeReader({ home });
    const results = await Promise.all([reader.project(seat()), reader.project(seat()), reader.project(seat())]);
    const bytes = results.map((result) => expectOk(result).read.bytes);
    expect(bytes.filter((count) => count > 0)).toHaveLength(1);
  });
});

describe('createClaudeReader().discover', () => {
  it('lists sessions newest first from names, sizes, times and the working folder of their first lines, skipping agent files, walking afresh on every call (the fleet keeps the one cache)', async () => {
    const other = path.join(home, 'projects', '-work-other');
    await mkdir(other, { recursive: true });
    await writeFile(journal, 'not even json: discovery takes only a cwd field from the head\n');
    await writeFile(path.join(other, 'aaaa.jsonl'), '{"type":"summary","summary":"x"}\n{"type":"user","cwd":"/work/other.project","message":{"content":"not read"}}\n');
    await writeFile(path.join(other, 'agent-a1234567.jsonl'), '{}\n');
    await writeFile(path.join(other, 'notes.txt'), 'x');
    await utimes(journal, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
    await utimes(path.join(other, 'aaaa.jsonl'), new Date('2026-02-01T00:00:00Z'), new Date('2026-02-01T00:00:00Z'));
    const reader = createClaudeReader({ home });
    const found = await reader.discover();
    expect(found.map((candidate) => candidate.id)).toEqual(['claude:aaaa', `claude:${SESSION}`]);
    expect(found[0].cwdHint).toBe('/work/other.project');
    expect(found[0].seat.cwd).toBe('/work/other.project');
    expect(found[1]).toEqual({
      id: `claude:${SESSION}`,
      harness: 'claude',
      seat: { harness: 'claude', home, sessionId: SESSION, cwd: null, path: journal },
      cwdHint: null,
      lastActivity: '2026-01-01T00:00:00.000Z',
      size: 62, // the 61-character line plus its newline
    });
    await writeFile(path.join(other, 'bbbb.jsonl'), '{}\n');
    expect(await reader.discover()).toHaveLength(3);
    expect(await reader.discover({ limit: 1 })).toHaveLength(1);
  });
});
