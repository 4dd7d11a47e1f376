// Duplicate ids counted once (issue 36): three task parts sharing one call id are one call, so the badge and the
// jobs board (keyed by call id) agree.
import { describe, expect, it } from 'vitest';
import { collectRows, summarize, type PartRow } from './taskCalls';

const part = (sequence: number, status: string): PartRow => ({
  partId: `prt_${String(sequence).padStart(8, '0')}`,
  messageId: `msg_${sequence}`,
  messageTime: sequence * 10,
  partTime: sequence * 10 + 1,
  data: { type: 'tool', tool: 'task', callID: 'call_dup', state: { status, input: { description: 'Look', subagent_type: 'explore' }, time: { start: 5_000 } } },
});

describe('duplicate task call ids', () => {
  it('three running parts with one call id are one running call', () => {
    const { calls, completions } = collectRows([part(1, 'running'), part(2, 'running'), part(3, 'running')]);
    const summary = summarize(calls, completions, new Set());
    expect(summary.running).toBe(1);
    expect(summary.recent.map((entry) => entry.nativeId)).toEqual(['call_dup']);
  });

  it('one part row stored 18 times (a store without primary keys) is one call: the badge and the board agree', () => {
    const { calls, completions } = collectRows(Array.from({ length: 18 }, () => part(1, 'running')));
    const summary = summarize(calls, completions, new Set());
    expect(summary.running).toBe(1);
    expect(summary.recent).toHaveLength(1);
  });

  it('the latest part of a call decides its state', () => {
    const { calls, completions } = collectRows([part(1, 'running'), part(2, 'completed')]);
    const summary = summarize(calls, completions, new Set());
    expect(summary.running).toBe(0);
    expect(summary.recent).toHaveLength(1);
  });
});
