// One small hand-written rollout per Codex activity rule (fixtures/activity/ruleN-*.jsonl), folded by the same
// reducer as the subagent records, then evaluated at chosen times.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateActivity } from '../kit/activityBasis';
import { codexActivityBasis } from './activity';
import { createParentState, reduceParentLine } from './records';

const fixtures = path.resolve(process.cwd(), 'main/sources/readers/codex/fixtures/activity');
const at = (seconds: number) => Date.parse('2026-05-01T10:00:00.000Z') + seconds * 1000;
const iso = (seconds: number) => new Date(at(seconds)).toISOString();

function fold(name: string) {
  const state = createParentState();
  for (const line of readFileSync(path.join(fixtures, name), 'utf8').split('\n')) reduceParentLine(state, line);
  return codexActivityBasis(state.activity);
}

describe('rule 1: the last turn event', () => {
  it('task_complete is a certain turn-done, with the turn time for notifications', () => {
    const basis = fold('rule1-task-complete.jsonl');
    expect(evaluateActivity(basis, at(80))).toEqual({ state: 'needs-you', why: 'turn-done', certain: true, since: iso(71) });
    expect(basis.turnMs).toBe(70_000);
  });

  it('turn_aborted interrupted is interrupted; budget_limited (and other aborts) an error', () => {
    expect(evaluateActivity(fold('rule1-interrupted.jsonl'), at(60))).toEqual({ state: 'needs-you', why: 'interrupted', certain: true, since: iso(5) });
    expect(evaluateActivity(fold('rule1-budget.jsonl'), at(60))).toEqual({ state: 'needs-you', why: 'error', certain: true, since: iso(5) });
  });
});

describe('rule 2: a turn in progress', () => {
  it('task_started without its end is working', () => {
    expect(evaluateActivity(fold('rule2-working.jsonl'), at(600))).toEqual({ state: 'working', certain: true, since: iso(1) });
  });

  it('a pending request_user_input is a certain question, never its text', () => {
    const activity = evaluateActivity(fold('rule2-question.jsonl'), at(3));
    expect(activity).toEqual({ state: 'needs-you', why: 'question', certain: true, since: iso(2), label: 'request_user_input' });
  });
});

describe('rule 3: a pending call with no progress for 10 s', () => {
  it('is working under 10 s (token_count is not progress), then an uncertain approval', () => {
    const basis = fold('rule3-approval.jsonl');
    expect(evaluateActivity(basis, at(11.9))).toEqual({ state: 'working', certain: true, since: iso(1), label: 'shell' });
    expect(evaluateActivity(basis, at(12))).toEqual({ state: 'needs-you', why: 'approval', certain: false, since: iso(2), label: 'shell' });
  });

  it('stays working when the turn approval_policy is never', () => {
    expect(evaluateActivity(fold('rule3-never.jsonl'), at(600))).toEqual({ state: 'working', certain: true, since: iso(1), label: 'shell' });
  });
});

describe('rule 4: turn-done older than 30 minutes is idle', () => {
  it('keeps since', () => {
    expect(evaluateActivity(fold('rule1-task-complete.jsonl'), at(71 + 1800))).toEqual({ state: 'idle', certain: true, since: iso(71) });
  });
});
