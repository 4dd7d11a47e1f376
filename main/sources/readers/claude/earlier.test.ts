// Rule 12 of RULES.md: a session journal over 2 MiB, generated here into a temp home, whose early subagents have
// their transcripts on disk. The cold read starts inside the journal; the tray still lists those subagents.
import { mkdir, mkdtemp, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReplayPageSchema, SubagentSummarySchema, type SeatAddress, type SubagentSummary } from '../../../../shared/schemas';
import type { Projection } from '../port';
import { DEFAULT_TAIL } from '../tail';
import { agentCall, assistantLine, isoAt, textBlock, toolResult, userLine } from '../../../dev/testing/claudeJournal';
import { EARLIER_LABEL } from './earlier';
import { createClaudeReader } from './reader';
import { UsageLedger } from './ledger';
import { olderThanWindow, REPLAY_REASONS } from './reasons';

const SESSION = 'aaaaaaaa-bbbb-4ccc-8ddd-000000000012';
const OTHER = 'ffffffff-bbbb-4ccc-8ddd-000000000099';
/** Seconds after the base time where the window's lines start; every early child starts before. */
const WINDOW_AT = 100_000;

let home: string;
let folder: string;
let subagents: string;
let journal: string;
let seat: SeatAddress;

const at = (seconds: number) => ({ sessionId: SESSION, at: isoAt(seconds) });
const agentId = (index: number) => `a${index.toString(16).padStart(16, '0')}`;

/** A child transcript: its first line is the prompt (ids of `owner` session), then one answer. */
function childText(id: string, startSeconds: number, owner = SESSION, prompt = 'Please look into it.'): string {
  const context = { sessionId: owner, sidechain: true, agentId: id };
  return `${userLine({ ...context, at: isoAt(startSeconds) }, prompt)}\n${assistantLine({ ...context, at: isoAt(startSeconds + 5) }, `msg_${id}`, [textBlock(`Answer of ${id}`)])}\n`;
}

/** Writes a child file (and optionally its sidecar) with a given modification time. */
async function writeChild(dir: string, id: string, text: string, mtimeSeconds: number, sidecar?: Record<string, unknown>): Promise<void> {
  const file = path.join(dir, `agent-${id}.jsonl`);
  await writeFile(file, text);
  if (sidecar) await writeFile(path.join(dir, `agent-${id}.meta.json`), JSON.stringify(sidecar));
  const when = new Date(isoAt(mtimeSeconds));
  await utimes(file, when, when);
}

/**
 * The parent: early Agent calls (before the window), filler past the 2 MiB cold-read bound, then in the window a
 * completed call whose child resumed an early agent, and a running call.
 */
async function writeJournal(earlyCalls: number): Promise<void> {
  const lines: string[] = [userLine(at(0), 'Start.')];
  for (let index = 0; index < earlyCalls; index++) {
    lines.push(assistantLine(at(10 + index), `msg_e${index}`, [agentCall(`toolu_early${index}`, `Early task ${index}`)]));
    lines.push(userLine(at(10 + index), [toolResult(`toolu_early${index}`, 'done')], { status: 'completed', agentId: agentId(index) }));
  }
  const filler = 'x'.repeat(8 * 1024);
  for (let index = 0; index < 300; index++) lines.push(assistantLine(at(1_000 + index), `msg_f${index}`, [textBlock(filler)]));
  lines.push(userLine(at(WINDOW_AT), 'Carry on.'));
  lines.push(assistantLine(at(WINDOW_AT + 1), 'msg_w1', [agentCall('toolu_resumed', 'Resume the first helper')]));
  lines.push(userLine(at(WINDOW_AT + 2), [toolResult('toolu_resumed', 'done')], { status: 'completed', agentId: agentId(0) }));
  lines.push(assistantLine(at(WINDOW_AT + 3), 'msg_w2', [agentCall('toolu_now', 'Still running')]));
  await writeFile(journal, `${lines.join('\n')}\n`);
}

async function project(reader = createClaudeReader({ home })): Promise<SubagentSummary> {
  const projection: Projection = await reader.project(seat);
  if (!projection.ok) throw new Error(projection.reason);
  expect(SubagentSummarySchema.parse(projection.subagents)).toEqual(projection.subagents);
  return projection.subagents;
}

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'pixelfleet-claude-earlier-'));
  folder = path.join(home, 'projects', '-work-demo');
  subagents = path.join(folder, SESSION, 'subagents');
  await mkdir(subagents, { recursive: true });
  journal = path.join(folder, `${SESSION}.jsonl`);
  seat = { harness: 'claude', home, sessionId: SESSION, cwd: '/work/demo' };
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('rule 12: earlier subagents of a session read from inside', () => {
  it('lists the 64 most recent subagent files started before the window, newest first, ended and replayable', async () => {
    await writeJournal(72);
    expect((await stat(journal)).size).toBeGreaterThan(DEFAULT_TAIL.coldBytes);
    // 70 of the 72 early calls have children on disk; child i started at 10 + i and last wrote at 500 + i. Sidecars: a description on most.
    for (let index = 0; index < 70; index++) {
      const sidecar = index === 68 ? { agentType: 'Explore' } : index === 69 ? undefined : { agentType: 'general-purpose', description: `Early task ${index}`, toolUseId: `toolu_early${index}` };
      await writeChild(subagents, agentId(index), childText(agentId(index), 10 + index), 500 + index, sidecar);
    }
    // Not listed: a compaction agent, a warm-up agent, a file of another session, a file whose lines name another agent.
    await writeChild(subagents, 'acompact-1a2b3c4d5e6f7a8b', childText('acompact-1a2b3c4d5e6f7a8b', 20), 900);
    await writeChild(subagents, 'a1111111111111111', childText('a1111111111111111', 20, SESSION, 'Warmup'), 901);
    await writeChild(subagents, 'a2222222222222222', childText('a2222222222222222', 20, OTHER), 902);
    await writeChild(subagents, 'a3333333333333333', childText('a4444444444444444', 20), 903);

    const summary = await project();
    expect(summary.running).toBe(1);
    expect(summary.recent.map((entry) => entry.nativeId)).toEqual(['toolu_now', 'toolu_resumed']);
    const earlier = summary.earlier ?? [];
    // Child 0 is already in recent (resumed by toolu_resumed): 69 candidates, the 64 most recently written listed.
    expect(earlier).toHaveLength(64);
    expect(earlier.map((entry) => entry.nativeId)).toEqual(Array.from({ length: 64 }, (_, rank) => {
      const index = 69 - rank;
      return index === 69 || index === 68 ? `agent-${agentId(index)}` : `toolu_early${index}`;
    }));
    expect(earlier[0]).toEqual({
      nativeId: `agent-${agentId(69)}`, label: EARLIER_LABEL, kind: null, background: false, state: 'ended', outcome: 'unknown',
      startedAt: isoAt(79), endedAt: isoAt(569), replayable: true,
    });
    expect(earlier[1]).toMatchObject({ label: 'Explore', kind: 'Explore' });
    expect(earlier[2]).toMatchObject({ nativeId: 'toolu_early67', label: 'Early task 67', kind: 'general-purpose', startedAt: isoAt(77), endedAt: isoAt(567) });
    expect(JSON.stringify(summary)).not.toContain('Please look into it');

    // The replay channel takes them: the child file is the locator, its ids are checked.
    const reader = createClaudeReader({ home });
    await project(reader);
    const page = await reader.replay(seat, 'toolu_early67');
    expect(ReplayPageSchema.parse(page)).toEqual(page);
    expect(page.status === 'ok' && [page.running, page.entries.map((entry) => entry.text)]).toEqual([false, ['Please look into it.', `Answer of ${agentId(67)}`]]);
    expect((await reader.replay(seat, `agent-${agentId(69)}`)).status).toBe('ok');
    // A call before the window without a file of its own (calls 70 and 71 have none): it is said why.
    expect(await reader.replay(seat, 'toolu_early71')).toEqual({ status: 'unavailable', reason: olderThanWindow(DEFAULT_TAIL.coldBytes) });
    expect(olderThanWindow(DEFAULT_TAIL.coldBytes)).toContain('older than what Pixelfleet reads (the last 2 MiB of the session); it is not on disk as a separate file');
  });

  it('rescans the subagents folder only when it changed; a removed file leaves the list', async () => {
    await writeJournal(3);
    for (let index = 1; index < 3; index++) await writeChild(subagents, agentId(index), childText(agentId(index), 10 + index), 500 + index, { description: `Early task ${index}` });
    const ledger = new UsageLedger();
    const reader = createClaudeReader({ home, usageLedger: ledger });
    const first = await reader.project(seat);
    expect(first.ok && first.subagents.earlier?.map((entry) => entry.label)).toEqual(['Early task 2', 'Early task 1']);
    // Unchanged journal and folder (and the usage pass done): the very same answer, nothing read.
    await reader.project(seat);
    await ledger.idle();
    const quiet = await reader.project(seat);
    expect(await reader.project(seat)).toBe(quiet);
    // A file rewritten in place does not move the folder's time: the folder is not listed again.
    await writeFile(path.join(subagents, `agent-${agentId(2)}.jsonl`), childText(agentId(2), 12, OTHER));
    expect(await reader.project(seat)).toBe(quiet);
    // Removing a file moves it: listed again, the removed file is gone from the list. A first line is read once per
    // file, so the rewritten one stays listed, but its replay checks every line's ids and refuses it.
    await unlink(path.join(subagents, `agent-${agentId(1)}.jsonl`));
    const after = await project(reader);
    expect(after.earlier?.map((entry) => entry.label)).toEqual(['Early task 2']);
    expect(await reader.replay(seat, `agent-${agentId(2)}`)).toEqual({ status: 'refused', reason: REPLAY_REASONS.mismatch });
  });

  it('2.0.24–2.1.1 flat layout: agent files beside the sessions count when their own lines name this session', async () => {
    await writeJournal(3);
    await writeChild(folder, 'e1c84ba5', childText('e1c84ba5', 11), 600);
    await writeChild(folder, 'e2c84ba5', childText('e2c84ba5', 12, OTHER), 601);
    await writeChild(folder, 'e3c84ba5', childText('e3c84ba5', 13, SESSION, 'Warmup'), 602);
    const summary = await project();
    expect(summary.earlier?.map((entry) => [entry.nativeId, entry.label])).toEqual([['agent-e1c84ba5', EARLIER_LABEL]]);
  });

  it('lists nothing earlier when the whole journal fits in the cold read', async () => {
    await writeFile(journal, `${[assistantLine(at(1), 'msg_1', [agentCall('toolu_small', 'Small')])].join('\n')}\n`);
    await writeChild(subagents, agentId(5), childText(agentId(5), 0), 400, { description: 'Not from before any window' });
    const summary = await project();
    expect(summary.earlier).toBeUndefined();
    expect(summary.recent.map((entry) => entry.nativeId)).toEqual(['toolu_small']);
  });
});
