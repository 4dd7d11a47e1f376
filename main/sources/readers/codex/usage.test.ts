// Codex usage (rules X1–X5 of ../../usage/codexUsage.ts) through the real reader over rollouts written here.
import { afterEach, describe, expect, it } from 'vitest';
import type { SeatAddress } from '../../../../shared/schemas';
import { UsageSchema } from '../../../../shared/usage';
import { callLine, eventLine, headerLine, outputLine, tempHomes, threadId, writeRollout } from '../../../dev/testing/codexRollout';
import { createCodexReader } from './reader';

const homes = tempHomes();
afterEach(() => homes.removeAll());

const day = '2026/04/20';
const parentId = threadId(1);
const at = (second: number) => `2026-04-20T10:00:${String(second).padStart(2, '0')}.000Z`;
const context = (second: number, model: string) => JSON.stringify({ timestamp: at(second), type: 'turn_context', payload: { turn_id: 't', cwd: '/home/dev/repo', model, summary: 'auto' } });
const figures = (input: number, cached: number, output: number, reasoning: number) => ({ input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: reasoning, total_tokens: input + output });
const tokenCount = (second: number, total: unknown, last: unknown, window: unknown = 272_000) => eventLine(at(second), 'token_count', { info: { total_token_usage: total, last_token_usage: last, model_context_window: window }, rate_limits: null });

async function project(lines: string[], children: { id: string; lines: string[] }[] = []) {
  const home = await homes.make();
  const path = await writeRollout(home, day, '2026-04-20T10-00-00', parentId, [headerLine({ id: parentId, timestamp: at(0) }), ...lines]);
  for (const [index, child] of children.entries()) {
    await writeRollout(home, day, `2026-04-20T10-00-0${index + 2}`, child.id, [headerLine({ id: child.id, timestamp: at(index + 2), parent: parentId, nickname: `Child ${index}`, role: 'worker' }), ...child.lines]);
  }
  const seat: SeatAddress = { harness: 'codex', home, sessionId: parentId, path };
  const reader = createCodexReader({ home, now: () => Date.parse('2026-04-20T10:05:00.000Z') });
  const projection = await reader.project(seat);
  reader.dispose();
  if (!projection.ok) throw new Error(projection.reason);
  return { projection, usage: UsageSchema.parse(projection.usage) };
}

describe('Codex usage', () => {
  it('X1–X3, X5: totals from the running totals, context by Codex\'s rule (the last request\'s total_tokens)', async () => {
    const { usage } = await project([
      context(1, 'gpt-5.1-codex'),
      eventLine(at(2), 'token_count', { info: null, rate_limits: null }),
      tokenCount(3, figures(1_000, 800, 50, 20), figures(1_000, 800, 50, 20)),
      tokenCount(4, figures(3_000, 2_400, 150, 60), figures(2_000, 1_600, 100, 40)),
    ]);
    // Input without the cached part (3,000 − 2,400); cached is cache read; Codex records no cache write.
    expect(usage.totals).toEqual({ input: 600, output: 150, cacheRead: 2_400, cacheWrite: 0, reasoning: 60 });
    expect(usage.context).toEqual({ used: 2_100, window: 272_000, fill: 0.0077 });
    expect(usage.model).toBe('gpt-5.1-codex');
    // (600×1.25 + 150×10 + 2,400×0.125) / 1e6.
    expect(usage.cost).toEqual({ usd: 0.00255, estimated: true });
    expect(usage.partial).toBe(false);
  });

  it('X1: a rollout without info has no context and no tokens', async () => {
    const { usage } = await project([context(1, 'gpt-5.1-codex'), eventLine(at(2), 'token_count', { info: null, rate_limits: null })]);
    expect(usage.context).toBeNull();
    expect(usage.totals).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
    expect(usage.skipped).toBeUndefined();
  });

  it('X3: running totals that go down start a new run (a resumed session) instead of a negative', async () => {
    const { usage } = await project([
      context(1, 'gpt-5.1-codex'),
      tokenCount(2, figures(5_000, 0, 500, 0), figures(5_000, 0, 500, 0)),
      tokenCount(3, figures(1_000, 0, 100, 0), figures(1_000, 0, 100, 0)),
    ]);
    expect(usage.totals).toMatchObject({ input: 6_000, output: 600 });
  });

  it('X4: malformed figures skip the event and are counted; the model without a price gives no cost', async () => {
    const { usage } = await project([
      context(1, 'unheard-of-model'),
      tokenCount(2, figures(-1, 0, 5, 0), figures(1, 0, 5, 0)),
      tokenCount(3, { ...figures(10, 0, 5, 0), output_tokens: 'many' }, figures(10, 0, 5, 0)),
      tokenCount(4, figures(2e12, 0, 5, 0), figures(10, 0, 5, 0)),
      tokenCount(5, figures(100, 0, 10, 0), figures(100, 0, 10, 0), null),
    ]);
    expect(usage.skipped).toBe(3);
    expect(usage.totals).toMatchObject({ input: 100, output: 10 });
    expect(usage.context).toEqual({ used: 110, window: null, fill: null });
    expect(usage.cost).toBeUndefined();
  });

  it('a child rollout\'s usage is its own job\'s and counts toward the parent with subagents', async () => {
    const child = threadId(2);
    const { projection, usage: seat } = await project(
      [context(1, 'gpt-5.1-codex'), callLine(at(2), 'spawn_agent', { message: 'go' }, 'call_1'), outputLine(at(2), 'call_1', { agent_id: child }), tokenCount(3, figures(100, 0, 10, 0), figures(100, 0, 10, 0))],
      [{ id: child, lines: [context(3, 'gpt-5.1-codex'), tokenCount(4, figures(400, 100, 40, 0), figures(400, 100, 40, 0))] }],
    );
    const entry = projection.ok ? projection.subagents.recent.find((candidate) => candidate.nativeId === child) : undefined;
    expect(entry?.usage).toEqual({ totals: { input: 300, output: 40, cacheRead: 100, cacheWrite: 0, reasoning: 0 }, partial: false, cost: { usd: 0.000788, estimated: true } }); // 787.5e-6, to the micro-dollar
    expect(seat.withSubagents?.totals).toEqual({ input: 400, output: 50, cacheRead: 100, cacheWrite: 0, reasoning: 0 });
  });

  it('X6: a forked child\'s copy of the parent\'s history is not counted again, whether its totals go on or start over', async () => {
    const goesOn = threadId(2);
    const startsOver = threadId(3);
    const replayed = [headerLine({ id: parentId, timestamp: at(0) }), tokenCount(3, figures(100, 0, 10, 0), figures(100, 0, 10, 0))];
    const spawn = (second: number, id: string, call: string) => [callLine(at(second), 'spawn_agent', { message: 'go', fork_context: true }, call), outputLine(at(second), call, { agent_id: id })];
    const { projection, usage: seat } = await project(
      [context(1, 'gpt-5.1-codex'), ...spawn(2, goesOn, 'call_1'), ...spawn(2, startsOver, 'call_2'), tokenCount(3, figures(100, 0, 10, 0), figures(100, 0, 10, 0))],
      [
        // By hand: the copied prefix (the parent's 100 in / 10 out) only sets the start; the fork adds 400 / 40.
        { id: goesOn, lines: [...replayed, context(5, 'gpt-5.1-codex'), tokenCount(6, figures(500, 0, 50, 0), figures(400, 0, 40, 0))] },
        // Totals that start over after the copy: a new run, 30 in / 3 out, all the fork's own.
        { id: startsOver, lines: [...replayed, context(5, 'gpt-5.1-codex'), tokenCount(6, figures(30, 0, 3, 0), figures(30, 0, 3, 0))] },
      ],
    );
    const recent = projection.ok ? projection.subagents.recent : [];
    expect(recent.find((entry) => entry.nativeId === goesOn)?.usage?.totals).toMatchObject({ input: 400, output: 40 });
    expect(recent.find((entry) => entry.nativeId === startsOver)?.usage?.totals).toMatchObject({ input: 30, output: 3 });
    expect(seat.withSubagents?.totals).toMatchObject({ input: 100 + 400 + 30, output: 10 + 40 + 3 });
  });
});
