import { describe, expect, it } from 'vitest';
import { childReference, collectRows, summarize } from './taskCalls';
import type { PartRow } from './taskCalls';
import { OPENCODE_TASK_CALLS } from '../kit/bounds';

let sequence = 0;
function row(messageTime: number, data: unknown, messageId = `msg_${String(messageTime).padStart(10, '0')}`): PartRow {
  sequence += 1;
  return { partId: `prt_${String(sequence).padStart(8, '0')}`, messageId, messageTime, partTime: messageTime + 1, data };
}

function task(callID: string, state: Record<string, unknown>, input: Record<string, unknown> = {}) {
  return {
    type: 'tool',
    tool: 'task',
    callID,
    state: { input: { description: 'Find the config loader', subagent_type: 'explore', ...input }, ...state },
  };
}

const CHILD = 'ses_00000000000aChild';
const only = (rows: PartRow[], children: string[] = [CHILD]) => {
  const { calls, completions } = collectRows(rows);
  return summarize(calls, completions, new Set(children));
};

describe('task calls', () => {
  it('labels a call with its subagent type and description and takes its start time', () => {
    const summary = only([row(10, task('call_1', { status: 'running', time: { start: 5_000 }, metadata: { sessionId: CHILD } }))]);
    expect(summary).toEqual({
      running: 1,
      recent: [
        { nativeId: 'call_1', label: 'explore: Find the config loader', kind: 'explore', background: false, state: 'running', startedAt: new Date(5_000).toISOString(), replayable: true },
      ],
    });
  });

  it('starts a pending call without a start time at the part creation time', () => {
    const pending = row(10, task('call_1', { status: 'pending' }));
    const [entry] = only([pending]).recent;
    expect(entry).toMatchObject({ state: 'running', startedAt: new Date(pending.partTime).toISOString(), replayable: false });
  });

  it('ends completed calls as completed and error calls as failed or interrupted, at state.time.end', () => {
    const summary = only([
      row(10, task('done', { status: 'completed', output: 'ok', time: { start: 1_000, end: 2_000 } })),
      row(11, task('broken', { status: 'error', error: 'Unknown agent type', time: { start: 3_000, end: 3_500 } })),
      row(12, task('aborted', { status: 'error', error: 'Tool execution aborted', metadata: { interrupted: true, sessionId: CHILD }, time: { start: 4_000, end: 4_200 } })),
    ]);
    expect(summary.running).toBe(0);
    expect(summary.recent.map((entry) => [entry.nativeId, entry.outcome, entry.endedAt])).toEqual([
      ['aborted', 'interrupted', new Date(4_200).toISOString()],
      ['broken', 'failed', new Date(3_500).toISOString()],
      ['done', 'completed', new Date(2_000).toISOString()],
    ]);
    expect(summary.recent[0].replayable).toBe(true);
  });

  it('keeps a background launch running until a later synthetic envelope names its child', () => {
    const launch = task('bg', {
      status: 'completed',
      output: `<task id="${CHILD}" state="running">\n<summary>Background task started</summary>\n</task>`,
      metadata: { sessionId: CHILD, background: true },
      time: { start: 1_000, end: 1_100 },
    });
    expect(only([row(10, launch)]).recent[0]).toMatchObject({ state: 'running', background: true });
    const envelope = (state: string) => ({ type: 'text', synthetic: true, text: `<task id="${CHILD}" state="${state}">\n</task>` });
    for (const [state, outcome] of [['completed', 'completed'], ['error', 'failed'], ['cancelled', 'stopped']] as const) {
      const summary = only([row(10, launch), row(9_000, envelope(state))]);
      expect(summary.running).toBe(0);
      expect(summary.recent[0]).toMatchObject({ state: 'ended', outcome, endedAt: new Date(9_000).toISOString() });
    }
  });

  it('ignores envelopes that are not synthetic, name another child, or come before the launch', () => {
    const launch = task('bg', { status: 'completed', output: `<task id="${CHILD}" state="running">`, time: { start: 5_000 } });
    const summary = only([
      row(2, { type: 'text', synthetic: true, text: `<task id="${CHILD}" state="completed">` }),
      row(10, launch),
      row(20, { type: 'text', text: `<task id="${CHILD}" state="completed">` }),
      row(30, { type: 'text', synthetic: true, text: '<task id="ses_other1" state="completed">' }),
    ]);
    expect(summary.recent[0]).toMatchObject({ state: 'running', background: true });
  });

  it('treats metadata.background as a background launch even without the envelope', () => {
    const summary = only([row(10, task('bg', { status: 'completed', output: 'task_id: ses_x (for polling this task with task_status)', metadata: { background: true } }))]);
    expect(summary.recent[0]).toMatchObject({ state: 'running', background: true, replayable: false });
  });

  it('keeps resumed calls into the same child as distinct entries', () => {
    const summary = only([
      row(10, task('first', { status: 'completed', time: { start: 1_000, end: 2_000 }, metadata: { sessionId: CHILD } })),
      row(20, task('again', { status: 'running', time: { start: 3_000 }, metadata: { sessionId: CHILD } }, { task_id: CHILD })),
    ]);
    expect(summary.recent.map((entry) => [entry.nativeId, entry.state, entry.replayable])).toEqual([
      ['again', 'running', true],
      ['first', 'ended', true],
    ]);
  });

  it('finds the child in every output format and never in a title', () => {
    expect(childReference({ output: 'x\n\n<task_metadata>\nsession_id: ses_abc123\n</task_metadata>' })).toBe('ses_abc123');
    expect(childReference({ output: 'task_id: ses_def456 (for resuming to continue this task if needed)' })).toBe('ses_def456');
    expect(childReference({ output: '<task id="ses_ghi789" state="completed">' })).toBe('ses_ghi789');
    expect(childReference({ title: 'ses_title1', output: 'There are 42 files.' })).toBeNull();
    expect(childReference({ metadata: { sessionId: '../escape' }, output: '' })).toBeNull();
  });

  it('marks calls whose child is not a direct child as not replayable', () => {
    const summary = only([row(10, task('elsewhere', { status: 'completed', metadata: { sessionId: 'ses_notMine' }, time: { start: 1, end: 2 } }))]);
    expect(summary.recent[0].replayable).toBe(false);
  });

  it('counts task parts without a call id or state as malformed and skips other part types', () => {
    const { calls, malformed } = collectRows([
      row(1, { type: 'tool', tool: 'task', state: { status: 'running' } }),
      row(2, { type: 'tool', tool: 'task', callID: 'x' }),
      row(3, undefined),
      row(4, { type: 'tool', tool: 'bash', callID: 'b', state: { status: 'running' } }),
      row(5, { type: 'step-start' }),
    ]);
    expect(calls).toEqual([]);
    expect(malformed).toBe(3);
  });

  it('keeps the 64 most recent calls, counts running among them, and emits eight newest first', () => {
    const rows: PartRow[] = [];
    for (let index = 0; index < 70; index += 1) {
      const status = index < 6 ? 'running' : index % 2 === 0 ? 'running' : 'completed';
      rows.push(row(100 + index, task(`call_${index}`, { status, time: { start: 10_000 + index, end: 20_000 + index } })));
    }
    const summary = only(rows);
    expect(summary.running).toBe(OPENCODE_TASK_CALLS / 2);
    expect(summary.recent.map((entry) => entry.nativeId)).toEqual(
      [69, 68, 67, 66, 65, 64, 63, 62].map((index) => `call_${index}`),
    );
  });

  it('orders ties in start time by position, later first', () => {
    const summary = only([
      row(10, task('earlier', { status: 'running', time: { start: 1_000 } })),
      row(11, task('later', { status: 'running', time: { start: 1_000 } })),
    ]);
    expect(summary.recent.map((entry) => entry.nativeId)).toEqual(['later', 'earlier']);
  });
});
