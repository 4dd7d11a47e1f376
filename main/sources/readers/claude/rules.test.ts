// One small hand-written journal per projection rule (fixtures/ruleN-*.jsonl), folded by the pure parser and reducer.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SubagentSummarySchema, type SubagentEntry } from '../../../../shared/schemas';
import { createClaudeReader } from './reader';
import { TRAY_NOTES } from './reasons';
import { projectLines, summarize } from './reducer';

const fixtures = path.resolve(process.cwd(), 'main/sources/readers/claude/fixtures');

function fold(name: string) {
  const lines = readFileSync(path.join(fixtures, name), 'utf8').split('\n');
  const state = projectLines(lines);
  const summary = summarize(state);
  expect(SubagentSummarySchema.parse(summary)).toEqual(summary);
  return { state, summary, byId: new Map(summary.recent.map((entry) => [entry.nativeId, entry])) };
}

describe('rule 1: subagent calls are Agent or Task tool_use blocks on main-thread assistant lines', () => {
  it('counts Agent and Task, ignores other tools and inline sidechain lines', () => {
    const { summary } = fold('rule1-spawn-tools.jsonl');
    expect(summary.recent.map((entry) => entry.nativeId)).toEqual(['toolu_task', 'toolu_agent']);
    expect(summary.running).toBe(2);
  });
});

describe('rule 2: call fields', () => {
  it('takes id, start time, label, kind and background from the call and its result', () => {
    const { byId } = fold('rule2-call-fields.jsonl');
    expect(byId.get('toolu_described')).toMatchObject({ label: 'Find the config', kind: 'Explore', background: false, startedAt: '2026-05-01T10:02:00.000Z' });
    expect(byId.get('toolu_typed')).toMatchObject({ label: 'Plan', kind: 'Plan' });
    expect(byId.get('toolu_bare')).toMatchObject({ label: 'subagent', kind: null });
    expect(byId.get('toolu_bg_flag')).toMatchObject({ background: true, state: 'running' });
    expect(byId.get('toolu_bg_result')).toMatchObject({ background: true, state: 'running', startedAt: '2026-05-01T10:06:00.000Z' });
  });
});

/** A listed call as one line: its id, how it stands or ended, whether in the background, and its end (hh:mm UTC). */
function callLine(entry: SubagentEntry): string {
  const end = entry.endedAt ? ` at ${entry.endedAt.slice(11, 16)}` : '';
  return `${entry.nativeId} ${entry.state === 'running' ? 'running' : entry.outcome}${entry.background ? ' (background)' : ''}${end}`;
}

/** Rules 3–5, how a call ends: per rule, its fixture, the calls it lists (newest first) and how many run. */
const ENDINGS = [
  {
    rule: 'rule 3: foreground end',
    title: 'ends at the result line: completed, failed on is_error, still running when async_launched',
    fixture: 'rule3-foreground-end.jsonl',
    calls: ['toolu_moved running (background)', 'toolu_err failed at 10:12', 'toolu_ok completed at 10:11'],
    running: 1,
  },
  {
    rule: 'rule 4: a new main-thread message interrupts a pending foreground call',
    title: 'does not let parallel calls of one message or sidechain speech end each other',
    fixture: 'rule4-interrupted.jsonl',
    // p2's late result (10:23) comes after it was already interrupted by msg_4b at 10:22.
    calls: ['toolu_p3 running (background)', 'toolu_p2 interrupted at 10:22', 'toolu_p1 completed at 10:21'],
    running: 1,
  },
  {
    rule: 'rule 5: background end by task-notification',
    title: 'ends on the first delivery by task id, tool use id, text block or queued_command attachment',
    fixture: 'rule5-background-end.jsonl',
    // Only a queue-operation echo named b4: not a delivery.
    calls: ['toolu_b4 running (background)', 'toolu_b3 stopped (background) at 10:38', 'toolu_b2 failed (background) at 10:37', 'toolu_b1 completed (background) at 10:36'],
    running: 1,
  },
];

for (const { rule, title, fixture, calls, running } of ENDINGS) {
  describe(rule, () => {
    it(title, () => {
      const { summary } = fold(fixture);
      expect(summary.recent.map(callLine)).toEqual(calls);
      expect(summary.running).toBe(running);
    });
  });
}

describe('rule 6: entry shape', () => {
  it('gives a running entry no endedAt or outcome, and an ended one both, keeping nativeId', () => {
    const { byId } = fold('rule6-entry-shape.jsonl');
    expect(JSON.parse(JSON.stringify(byId.get('toolu_running')))).toEqual({
      nativeId: 'toolu_running', label: 'Still going', kind: 'Explore', background: false, state: 'running',
      startedAt: '2026-05-01T10:40:00.000Z', replayable: false, replayNote: TRAY_NOTES.notLocated,
    });
    expect(Object.keys(byId.get('toolu_ended') ?? {})).toEqual(['nativeId', 'label', 'kind', 'background', 'state', 'outcome', 'startedAt', 'endedAt', 'replayable']);
    expect(byId.get('toolu_ended')).toMatchObject({ nativeId: 'toolu_ended', outcome: 'completed', endedAt: '2026-05-01T10:41:00.000Z', replayable: true });
  });
});

describe('rule 7: recent and running', () => {
  it('lists 8 newest by startedAt (ties: later in file first) and counts all running', () => {
    const { summary } = fold('rule7-recent.jsonl');
    expect(summary.running).toBe(11);
    // Starts: r00..r09 at 10:50..10:59 except r06 = 10:55 (ties r05, later in file), r10 at 10:49.
    expect(summary.recent.map((entry) => entry.nativeId)).toEqual(['toolu_r09', 'toolu_r08', 'toolu_r07', 'toolu_r06', 'toolu_r05', 'toolu_r04', 'toolu_r03', 'toolu_r02']);
  });
});

describe('rule 9: bad input', () => {
  it('skips and counts lines that are not JSON objects and holds back a partial last line', async () => {
    const reader = createClaudeReader({ home: fixtures });
    const file = path.join(fixtures, 'rule9-bad-input.jsonl');
    const projection = await reader.project({ harness: 'claude', home: fixtures, sessionId: 'rule9-bad-input', path: file });
    expect(projection.ok).toBe(true);
    if (!projection.ok) return;
    // "this is not json", the cut assistant line and "[1,2,3]"; the blank line is not counted; the fragment is held.
    expect(projection.read.skippedLines).toBe(3);
    expect(projection.subagents.recent.map((entry) => entry.nativeId)).toEqual(['toolu_good']);
    expect(projection.subagents.running).toBe(1);
  });
});

describe('rule 10: replayable', () => {
  it('is true only when a completed or async_launched result recorded an agent id', () => {
    const { byId } = fold('rule10-replayable.jsonl');
    expect(byId.get('toolu_sync')?.replayable).toBe(true);
    expect(byId.get('toolu_async')?.replayable).toBe(true);
    expect(byId.get('toolu_old')?.replayable).toBe(false);
    expect(byId.get('toolu_error')?.replayable).toBe(false);
    expect(byId.get('toolu_teammate')?.replayable).toBe(false);
  });
});
