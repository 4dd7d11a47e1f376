// Claude usage (rules U1–U5 of ../../usage/claudeUsage.ts) through the real reader over fixtures written for them,
// plus a subagent's own file and a journal longer than the read window (the background pass).
import { appendFile, copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SeatAddress } from '../../../../shared/schemas';
import { UsageSchema } from '../../../../shared/usage';
import { UsageLedger } from './ledger';
import { escapeCwd } from './locate';
import { createClaudeReader } from './reader';

const SESSION = 'u0000000-0000-4000-8000-000000000001';
const CWD = '/work/app';
const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'usage');
let home: string;
let journal: string;

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'pixelfleet-claude-usage-'));
  await mkdir(path.join(home, 'projects', escapeCwd(CWD)), { recursive: true });
  journal = path.join(home, 'projects', escapeCwd(CWD), `${SESSION}.jsonl`);
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const seat = (): SeatAddress => ({ harness: 'claude', home, sessionId: SESSION, cwd: CWD, path: journal });

async function usageOf(fixture: string, options: Parameters<typeof createClaudeReader>[0] = { home }) {
  await copyFile(path.join(FIXTURES, fixture), journal);
  const reader = createClaudeReader(options);
  const projection = await reader.project(seat());
  if (!projection.ok) throw new Error(projection.reason);
  return { projection, usage: UsageSchema.parse(projection.usage) };
}

describe('Claude usage', () => {
  it('U1: a message repeated over its block lines counts once, at its final figures', async () => {
    const { usage } = await usageOf('u1-repeated-usage.jsonl');
    // By hand: msg_A 10/200/5000/1000 once; msg_B 5/120/6000/300 (its last line's output).
    expect(usage.totals).toEqual({ input: 15, output: 320, cacheRead: 11_000, cacheWrite: 1_300 });
    expect(usage.context).toEqual({ used: 6_305, window: 200_000, fill: 0.0315 });
    expect(usage).toMatchObject({ partial: false, model: 'claude-sonnet-4-5-20250929' });
    // (15×3 + 320×15 + 11,000×0.30 + 1,300×3.75) / 1e6 from the dated table.
    expect(usage.cost).toEqual({ usd: 0.01302, estimated: true });
    expect(usage.skipped).toBeUndefined();
  });

  it('U2: after a compaction the context is the last message\'s; totals keep the whole session', async () => {
    const { usage } = await usageOf('u2-compaction.jsonl');
    expect(usage.context).toEqual({ used: 12_000, window: 200_000, fill: 0.06 });
    expect(usage.totals).toEqual({ input: 3_010, output: 600, cacheRead: 150_000, cacheWrite: 11_000 });
  });

  it('U3: inline sidechain lines count toward the subagent, not the parent\'s totals or context', async () => {
    const { usage } = await usageOf('u3-sidechain.jsonl');
    expect(usage.totals).toEqual({ input: 150, output: 30, cacheRead: 1_000, cacheWrite: 0 });
    expect(usage.context?.used).toBe(1_050);
    expect(usage.withSubagents?.totals).toEqual({ input: 150 + 2_000 + 9_999, output: 30 + 300 + 1, cacheRead: 1_000, cacheWrite: 0 });
    expect(usage.withSubagents?.partial).toBe(false);
  });

  it('U4–U5: malformed usage is skipped and counted once per message, never NaN; an unknown model has no window and no cost', async () => {
    const { usage } = await usageOf('u5-bad-usage.jsonl');
    expect(usage.totals).toEqual({ input: 7, output: 3, cacheRead: 0, cacheWrite: 0 });
    // negative, string, absurd, missing, fractional, and one bad message over two lines: six.
    expect(usage.skipped).toBe(6);
    expect(usage.model).toBe('mystery-model-9');
    expect(usage.context).toEqual({ used: 7, window: null, fill: null });
    expect(usage.cost).toBeUndefined();
  });

  it('a subagent file gives its call its own usage and the parent its "with subagents" line', async () => {
    const agentId = 'a1b2c3d4e5f601234';
    const lines = [
      { type: 'assistant', sessionId: SESSION, timestamp: '2026-05-01T09:00:01.000Z', requestId: 'r1', message: { id: 'm1', role: 'assistant', model: 'claude-opus-4-5', content: [{ type: 'tool_use', id: 'toolu_agent', name: 'Agent', input: { description: 'Survey', prompt: 'Survey it.', subagent_type: 'general-purpose' } }], usage: { input_tokens: 100, output_tokens: 10 } } },
      { type: 'user', sessionId: SESSION, timestamp: '2026-05-01T09:00:09.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_agent', content: 'done' }] }, toolUseResult: { status: 'completed', agentId } },
    ];
    await writeFile(journal, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    const child = path.join(path.dirname(journal), SESSION, 'subagents', `agent-${agentId}.jsonl`);
    await mkdir(path.dirname(child), { recursive: true });
    const childLine = (id: string, input: number) =>
      JSON.stringify({ type: 'assistant', isSidechain: true, agentId, sessionId: SESSION, timestamp: '2026-05-01T09:00:05.000Z', requestId: `r-${id}`, message: { id, role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'text', text: 'x' }], usage: { input_tokens: input, output_tokens: 5 } } });
    await writeFile(child, [childLine('c1', 1_000), childLine('c1', 1_000), childLine('c2', 500)].join('\n') + '\n');
    const ledger = new UsageLedger();
    const reader = createClaudeReader({ home, usageLedger: ledger });
    await reader.project(seat());
    await ledger.idle();
    const projection = await reader.project(seat());
    if (!projection.ok) throw new Error(projection.reason);
    const entry = projection.subagents.recent.find((candidate) => candidate.nativeId === 'toolu_agent');
    expect(entry?.usage).toEqual({ totals: { input: 1_500, output: 10, cacheRead: 0, cacheWrite: 0 }, partial: false, cost: { usd: 0.00155, estimated: true } });
    expect(projection.usage?.totals).toEqual({ input: 100, output: 10, cacheRead: 0, cacheWrite: 0 });
    expect(projection.usage?.withSubagents).toMatchObject({ totals: { input: 1_600, output: 20, cacheRead: 0, cacheWrite: 0 }, partial: false });
  });

  it('a journal longer than the read window is partial until the background pass reaches its end, then whole', async () => {
    const message = (index: number) =>
      JSON.stringify({ type: 'assistant', sessionId: SESSION, timestamp: '2026-05-01T09:00:00.000Z', requestId: `r${index}`, message: { id: `m${index}`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'y'.repeat(200) }], usage: { input_tokens: 10, output_tokens: 2 } } });
    await writeFile(journal, Array.from({ length: 400 }, (_, index) => message(index)).join('\n') + '\n');
    const ledger = new UsageLedger({ chunkBytes: 8192 });
    const reader = createClaudeReader({ home, usageLedger: ledger, tail: { coldBytes: 16_384, maxLineBytes: 1 << 20 } });
    const first = await reader.project(seat());
    expect(first.ok && first.usage?.partial).toBe(true);
    expect(first.ok && first.usage!.totals.input).toBeLessThan(4_000);
    await ledger.idle();
    const whole = await reader.project(seat());
    expect(whole.ok && whole.usage).toMatchObject({ partial: false, totals: { input: 4_000, output: 800 } });
    // Appended lines: read by the pass from where it stood, so the totals stay exact.
    await appendFile(journal, `${message(400)}\n${message(401)}\n`);
    await reader.project(seat());
    await ledger.idle();
    const grown = await reader.project(seat());
    expect(grown.ok && grown.usage).toMatchObject({ partial: false, totals: { input: 4_020, output: 804 } });
    await ledger.dispose();
  });

  it('while the pass only gets further, the seat keeps its answer for a few seconds; its end shows at once', async () => {
    const message = (index: number) =>
      JSON.stringify({ type: 'assistant', sessionId: SESSION, timestamp: '2026-05-01T09:00:00.000Z', requestId: `r${index}`, message: { id: `m${index}`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'y'.repeat(200) }], usage: { input_tokens: 10, output_tokens: 2 } } });
    await writeFile(journal, Array.from({ length: 2_000 }, (_, index) => message(index)).join('\n') + '\n');
    const ledger = new UsageLedger({ chunkBytes: 4096 });
    let clock = 0;
    const reader = createClaudeReader({ home, usageLedger: ledger, tail: { coldBytes: 16_384, maxLineBytes: 1 << 20 }, now: () => clock });
    const tick = async (chunks: number) => {
      for (let index = 0; index < chunks; index += 1) await new Promise<void>((resolve) => setImmediate(resolve));
    };
    const usage = async () => {
      const projection = await reader.project(seat());
      if (!projection.ok) throw new Error(projection.reason);
      return projection.usage!;
    };
    // Polled, not timed (a busy machine opens and reads slower): what the pass has counted, -1 before it started.
    const counted = () => {
      const view = ledger.lookup(journal);
      return view !== null && view !== 'missing' ? view.fold.main.sum.input : -1;
    };
    await usage();
    while (counted() < 0) await tick(1);
    // The pass has started (a new state: an answer at once), and reads on.
    const reading = await usage();
    expect(reading.partial).toBe(true);
    while (counted() <= reading.totals.input) await tick(1);
    clock += 1_000;
    expect(await usage()).toBe(reading);
    clock += 4_000;
    const further = await usage();
    expect(further.partial).toBe(true);
    expect(further.totals.input).toBeGreaterThan(reading.totals.input);
    expect(ledger.bytesRead).toBeLessThan(2_000 * 300);
    await ledger.idle();
    clock += 1;
    expect(await usage()).toMatchObject({ partial: false, totals: { input: 20_000, output: 4_000 } });
    await ledger.dispose();
  });
});
