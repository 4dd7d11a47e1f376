// One small hand-written journal per activity rule (fixtures/activity/ruleN-*.jsonl), folded by the same pure parser
// and reducer as the subagent summary, then evaluated at chosen times.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ActivitySchema } from '../../../../shared/schemas';
import { evaluateActivity } from '../kit/activityBasis';
import { activityOf, projectLines } from './reducer';

const fixtures = path.resolve(process.cwd(), 'main/sources/readers/claude/fixtures/activity');
const at = (seconds: number) => Date.parse('2026-05-01T10:00:00.000Z') + seconds * 1000;
const iso = (seconds: number) => new Date(at(seconds)).toISOString();

function lines(name: string): string[] {
  return readFileSync(path.join(fixtures, name), 'utf8').split('\n');
}

/** The seat's activity at `seconds` past 10:00, after folding the fixture (plus extra lines). */
function activityAt(name: string, seconds: number, extra: string[] = []) {
  const basis = activityOf(projectLines([...lines(name), ...extra]));
  const activity = evaluateActivity(basis, at(seconds));
  expect(ActivitySchema.parse(activity)).toEqual(activity);
  return { activity, basis };
}

describe('rule 1: turn ended → needs-you / turn-done', () => {
  it('is certain when a turn_duration or stop_hook_summary line follows the last assistant line', () => {
    const { activity, basis } = activityAt('rule1-turn-done-record.jsonl', 6);
    expect(activity).toEqual({ state: 'needs-you', why: 'turn-done', certain: true, since: iso(5) });
    expect(basis.turnMs).toBe(5000);
  });

  it('is certain on stop_reason end_turn', () => {
    expect(activityAt('rule1-turn-done-end-turn.jsonl', 3).activity).toEqual({ state: 'needs-you', why: 'turn-done', certain: true, since: iso(3) });
  });

  it('is a heuristic after 5 s of quiet following a text-only assistant line, and working before', () => {
    expect(activityAt('rule1-turn-done-quiet.jsonl', 8).activity).toEqual({ state: 'working', certain: true, since: iso(0) });
    expect(activityAt('rule1-turn-done-quiet.jsonl', 9).activity).toEqual({ state: 'needs-you', why: 'turn-done', certain: false, since: iso(4) });
  });
});

describe('rule 2: a pending AskUserQuestion or ExitPlanMode', () => {
  it('is a certain question from the call on', () => {
    expect(activityAt('rule2-question.jsonl', 3).activity).toEqual({ state: 'needs-you', why: 'question', certain: true, since: iso(3), label: 'AskUserQuestion' });
  });

  it('is a certain plan', () => {
    expect(activityAt('rule2-plan.jsonl', 100).activity).toEqual({ state: 'needs-you', why: 'plan', certain: true, since: iso(4), label: 'ExitPlanMode' });
  });
});

describe('rule 3: a [Request interrupted by user…] line as the last main-thread event', () => {
  it('is interrupted in the "for tool use" variant', () => {
    expect(activityAt('rule3-interrupted.jsonl', 10).activity).toEqual({ state: 'needs-you', why: 'interrupted', certain: true, since: iso(9) });
  });

  it('is interrupted in the plain variant, and a later sidechain line does not count', () => {
    expect(activityAt('rule3-interrupted-plain.jsonl', 60).activity).toEqual({ state: 'needs-you', why: 'interrupted', certain: true, since: iso(3) });
  });
});

describe('rule 4: an API error message as the last main-thread event', () => {
  it('is a certain error', () => {
    expect(activityAt('rule4-api-error.jsonl', 3).activity).toEqual({ state: 'needs-you', why: 'error', certain: true, since: iso(2) });
  });
});

describe('rule 5: a pending tool with no later main-thread line for 10 s', () => {
  it('is working under 10 s, then an uncertain approval labelled with the tool and its description', () => {
    // The progress line at 4 s is later main-thread output for the pending Bash: the clock runs from it.
    expect(activityAt('rule5-approval.jsonl', 13).activity).toEqual({ state: 'working', certain: true, since: iso(0), label: 'Bash · Run unit tests' });
    expect(activityAt('rule5-approval.jsonl', 14).activity).toEqual({ state: 'needs-you', why: 'approval', certain: false, since: iso(2), label: 'Bash · Run unit tests' });
  });

  it('stays working for an edit tool under acceptEdits', () => {
    expect(activityAt('rule5-accept-edits.jsonl', 600).activity).toEqual({ state: 'working', certain: true, since: iso(0), label: 'Edit · World.ts' });
  });

  it('stays working for any tool under bypassPermissions', () => {
    expect(activityAt('rule5-bypass.jsonl', 600).activity).toEqual({ state: 'working', certain: true, since: iso(0), label: 'Bash · Wait for the build' });
  });
});

describe('rule 6: any other turn in progress is working', () => {
  it('is working while a foreground subagent runs, and sidechain or subagent lines never count', () => {
    expect(activityAt('rule6-working.jsonl', 3600).activity).toEqual({ state: 'working', certain: true, since: iso(0), label: 'Agent · Survey the code' });
  });

  it('is working after a tool result the model has not answered yet', () => {
    expect(activityAt('rule6-working-results.jsonl', 60).activity).toEqual({ state: 'working', certain: true, since: iso(0) });
  });
});

describe('rule 7: needs-you / turn-done older than 30 minutes → idle', () => {
  it('turns idle after 30 min with since unchanged, and a new line resets it', () => {
    expect(activityAt('rule7-idle.jsonl', 5 + 29 * 60).activity).toMatchObject({ state: 'needs-you', why: 'turn-done' });
    expect(activityAt('rule7-idle.jsonl', 5 + 30 * 60).activity).toEqual({ state: 'idle', certain: true, since: iso(5) });
    const prompt = JSON.stringify({ type: 'user', isSidechain: false, timestamp: iso(2000), message: { role: 'user', content: 'next' } });
    expect(activityAt('rule7-idle.jsonl', 2001, [prompt]).activity).toEqual({ state: 'working', certain: true, since: iso(2000) });
  });
});

describe('labels, not content', () => {
  it('never carries prompt, command or question text', () => {
    for (const name of ['rule2-question.jsonl', 'rule2-plan.jsonl', 'rule5-approval.jsonl']) {
      const text = JSON.stringify(activityAt(name, 100).activity);
      expect(text).not.toMatch(/Which database|secret plan|rm -rf|Please do/);
    }
  });
});
