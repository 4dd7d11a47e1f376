// Every journal in ../shared/fixtures/claude, read in place through the real reader. Expected values were worked
// out by reading each file line by line (tool_use / tool_result / toolUseResult / notifications), noted per case.
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClaudeReader } from './reader';
import { seatFromCliTarget } from './locate';
import type { Projection } from '../port';
import { sharedFixtures } from '../../../dev/testing/sharedFixtures';
import { REPLAY_REASONS, TRAY_NOTES } from './reasons';

const fixtures = sharedFixtures('the Claude reader over every shared journal (1.0.x to 2.1.x)');
const shared = fixtures.path('claude');

async function inspect(relative: string) {
  const reader = createClaudeReader({ home: shared });
  const seat = await seatFromCliTarget(path.join(shared, relative));
  const projection: Projection = await reader.project(seat);
  if (!projection.ok) throw new Error(projection.reason);
  return { reader, seat, projection };
}

describe.skipIf(!fixtures.present)('shared Claude fixtures', () => {
  it('01 (1.0.108, inline sidechains): three Task calls, one failed; the two completed replay from their inline sidechains', async () => {
    const { projection, reader, seat } = await inspect('01-legacy-inline-sidechain_v1.0.108/sample-project/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl');
    // Lines 11/12 (msg_01XU4…) and 24 hold Task calls; results: line 14 is_error, line 22, line 40.
    // The sidechain assistant lines 16–39 carry other message ids but must not interrupt line 12's call.
    expect(projection.subagents.running).toBe(0);
    expect(projection.subagents.recent.map((entry) => [entry.nativeId, entry.outcome, entry.endedAt])).toEqual([
      ['toolu_01LKfUwrsnof18CpWZQcJH44', 'completed', '2025-09-07T09:53:31.871Z'],
      ['toolu_014YF9TXhDRR7BnpasNJ7gjC', 'completed', '2025-09-07T09:52:48.211Z'],
      ['toolu_018t5jce2ZNoGr2ADsHGQife', 'failed', '2025-09-07T09:52:26.997Z'],
    ]);
    // Line 11's call recorded no prompt (it failed), so no sidechain root can match it.
    expect(projection.subagents.recent.map((entry) => [entry.replayable, entry.replayNote])).toEqual([
      [true, undefined], [true, undefined], [false, TRAY_NOTES.inlineMissing],
    ]);
    expect(projection.read).toEqual({ bytes: 125342, skippedLines: 0 });
    // Line 24's sidechain is lines 25–39 (root: its prompt), just before its result at line 40.
    const analyze = await reader.replay(seat, 'toolu_01LKfUwrsnof18CpWZQcJH44');
    expect(analyze.status === 'ok' && analyze.entries.map((entry) => entry.tool ?? entry.role)).toEqual([
      'user', 'assistant', 'Bash', 'Bash', 'Bash', 'Bash', 'Bash', 'Bash', 'Bash', 'Bash', 'Read', 'Read', 'Bash', 'Bash', 'assistant',
    ]);
    expect(analyze.status === 'ok' && analyze.entries.at(-1)?.at).toBe('2025-09-07T09:53:31.797Z');
    // Line 12's sidechain is lines 15–21, after line 14 (another call's result) and before its result at line 22.
    const check = await reader.replay(seat, 'toolu_014YF9TXhDRR7BnpasNJ7gjC');
    expect(check.status === 'ok' && [check.entries[0].at, check.entries.at(-1)?.at, check.entries.length]).toEqual(['2025-09-07T09:52:27.016Z', '2025-09-07T09:52:48.176Z', 7]);
    expect(await reader.replay(seat, 'toolu_018t5jce2ZNoGr2ADsHGQife')).toEqual({ status: 'unavailable', reason: REPLAY_REASONS.inlineMissing });
  });

  it('02 (2.0.46, flat era): one completed Task with agent id e1c84ba5', async () => {
    const { projection } = await inspect('02-legacy-flat-agent-file_v2.0.46/sidechain_main.jsonl');
    // Line 0 Task call, line 1 result with toolUseResult {status: completed, agentId: e1c84ba5}.
    expect(projection.subagents).toEqual({
      running: 0,
      recent: [{
        nativeId: 'toolu_01JA2mLseQCAW3MdwPE4qWEk', label: 'Research data-border-color usage and CSS class mat...',
        kind: 'general-purpose', background: false, state: 'ended', outcome: 'completed',
        startedAt: '2025-11-19T22:53:34.908Z', endedAt: '2025-11-19T22:55:34.463Z', replayable: true,
      }],
    });
  });

  it('03 (2.0.42, Warmup agent file only): an agent-*.jsonl is never offered as a session', async () => {
    // Lay the file out as it sits under ~/.claude/projects (a temporary copy; the fixture stays in place).
    const home = await mkdtemp(path.join(tmpdir(), 'pixelfleet-claude-03-'));
    try {
      const folder = path.join(home, 'projects', '-Users-dain-workspace-JSSoundRecorder');
      await mkdir(folder, { recursive: true });
      await copyFile(path.join(shared, '03-legacy-warmup-agent_v2.0.42/-Users-dain-workspace-JSSoundRecorder/agent-3430b97e.jsonl'), path.join(folder, 'agent-3430b97e.jsonl'));
      expect(await createClaudeReader({ home }).discover()).toEqual([]);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it('04 (2.1.17, subagents dir): one Explore Task, completed, replayable from subagents/', async () => {
    const { projection, reader, seat } = await inspect('04-subagents-dir_v2.1.17/-src-experiments-claude_p/29ccd257-68b1-427f-ae5f-6524b7cb6f20.jsonl');
    // Line 3 Task (Explore), line 4 result {status: completed, agentId: a2271d1}; queue-operation/progress ignored.
    expect(projection.subagents.running).toBe(0);
    expect(projection.subagents.recent).toHaveLength(1);
    expect(projection.subagents.recent[0]).toMatchObject({ kind: 'Explore', label: 'Explore codebase structure', outcome: 'completed', replayable: true });
    const page = await reader.replay(seat, 'toolu_01SXaWzD5YZ73zGwchbcxeWi');
    expect(page.status).toBe('ok');
    if (page.status !== 'ok') return;
    // 59 child lines hold more than 50 entries, so the newest page is full and points back.
    expect(page.entries).toHaveLength(50);
    expect(page.nextCursor).not.toBeNull();
    expect(page.running).toBe(false);
    const older = await reader.replay(seat, 'toolu_01SXaWzD5YZ73zGwchbcxeWi', page.nextCursor ?? undefined);
    expect(older.status === 'ok' && older.entries[0]).toMatchObject({ role: 'user', at: '2026-01-23T17:34:46.972Z' });
  });

  it('05 (2.1.114, excerpt): four Agent calls (three parallel), all completed and replayable by id', async () => {
    const { projection, reader, seat } = await inspect('05-subagents-dir-named-worktree-agents_v2.1.114/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.EXCERPT.jsonl');
    // Lines 6–8 share msg_018FZ… (alice, bob, carol); results at lines 9, 13, 14; alice2 at 22, result 23.
    expect(projection.subagents.running).toBe(0);
    expect(projection.subagents.recent.map((entry) => entry.label)).toEqual([
      'Round 2: alice comparison', 'Research Steve Yegge Beads', 'Research Claude Code teammates', 'Research Claude Code plan mode',
    ]);
    expect(projection.subagents.recent.every((entry) => entry.replayable && entry.outcome === 'completed')).toBe(true);
    // Only alice2's child file (agent-a36efb2a1231c41e2.jsonl, 18 lines) was kept; the others are gone.
    const alice2 = await reader.replay(seat, 'toolu_017y4gSjMWeQ3L2DAKiygU2y');
    expect(alice2.status).toBe('ok');
    if (alice2.status === 'ok') {
      expect(alice2.nextCursor).toBeNull();
      expect(alice2.entries.at(-1)).toMatchObject({ role: 'assistant', at: '2026-04-18T13:50:10.261Z' });
      expect(alice2.entries.find((entry) => entry.tool === 'Bash')?.text).toMatch(/^git -C /);
    }
    expect(await reader.replay(seat, 'toolu_01EaAN7bPNQrMTGoKhbEjVrx')).toEqual({ status: 'unavailable', reason: REPLAY_REASONS.gone });
  });

  it('06 (synthetic async): background Task ended by a task-notification string', async () => {
    const { projection, reader, seat } = await inspect('06-synthetic-async-agent-notification_v2.1.34/eb000000-0000-4000-8000-000000000001.jsonl');
    // Line 1 run_in_background Task, line 2 async_launched agentId cccc333, line 5 notification <status>completed.
    expect(projection.subagents).toEqual({
      running: 0,
      recent: [{
        nativeId: 'tu_Task_async_001', label: 'Coverage analysis', kind: 'Explore', background: true, state: 'ended',
        outcome: 'completed', startedAt: '2026-04-19T10:02:00.000Z', endedAt: '2026-04-19T10:06:00.000Z', replayable: true,
      }],
    });
    const page = await reader.replay(seat, 'tu_Task_async_001');
    expect(page.status === 'ok' && page.entries.map((entry) => entry.role)).toEqual(['user', 'assistant', 'assistant']);
  });

  it('07 (synthetic teams): two Task teammates, only alice has a recorded agent id', async () => {
    const { projection } = await inspect('07-synthetic-agent-teams_v2.1.3x/ef000000-0000-4000-8000-000000000001.jsonl');
    // Lines 9/10 alice (agentId aaaa…), 11/12 bob (no toolUseResult); TeamCreate/TaskCreate/SendMessage ignored.
    expect(projection.subagents.running).toBe(0);
    expect(projection.subagents.recent.map((entry) => [entry.nativeId, entry.outcome, entry.replayable])).toEqual([
      ['tu_Task_bob', 'completed', false],
      ['tu_Task_alice', 'completed', true],
    ]);
  });
});
