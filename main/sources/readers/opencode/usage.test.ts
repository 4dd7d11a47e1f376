// OpenCode usage (rules O1–O5 of usage.ts) through the real reader over a real SQLite store written here.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SeatAddress } from '../../../../shared/schemas';
import { UsageSchema } from '../../../../shared/usage';
import { makeTempDir, StoreWriter } from '../../../dev/testing/opencodeStore';
import { createOpenCodeReader } from './reader';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const PARENT = 'ses_usageParent0001';
const CHILD = 'ses_usageChild00002';
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 5, 1, 9, 0, 0);

const assistant = (time: number, fields: Record<string, unknown>) => ({ role: 'assistant', time: { created: time, completed: time }, ...fields });
const tokens = (input: unknown, output: unknown, read: unknown, write: unknown, reasoning: unknown = 0) => ({ input, output, reasoning, cache: { read, write } });

function store(): { path: string; writer: StoreWriter } {
  const temp = makeTempDir();
  const path = join(temp.dir, 'opencode.db');
  const writer = new StoreWriter(path);
  cleanups.push(temp.remove, () => writer.close());
  writer.session(PARENT, { time: T0 });
  return { path, writer };
}

async function project(path: string) {
  const seat: SeatAddress = { harness: 'opencode', home: path, sessionId: PARENT, cwd: '/work/repo', path: null };
  const reader = createOpenCodeReader({ db: path });
  const projection = await reader.project(seat);
  reader.dispose();
  if (!projection.ok) throw new Error(projection.reason);
  return { projection, usage: UsageSchema.parse(projection.usage) };
}

describe('OpenCode usage', () => {
  it('hours follow the owner\'s clock (issue 38): in Kolkata (UTC+5:30) a message at 00:10 local is in the bucket of local midnight', async () => {
    const zone = process.env.TZ;
    process.env.TZ = 'Asia/Kolkata';
    try {
      const { path, writer } = store();
      const at = new Date(2026, 5, 2, 0, 10).getTime();
      writer.message(PARENT, at, assistant(at, { modelID: 'gpt-5', tokens: tokens(10, 1, 0, 0), cost: 0.001 }));
      const { projection } = await project(path);
      expect(Object.keys(projection.usageTally!.hours)).toEqual([String(new Date(2026, 5, 2, 0, 0).getTime())]);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('O1, O4: totals and cost as recorded over assistant messages, context from the last one, window by modelID', async () => {
    const { path, writer } = store();
    writer.message(PARENT, T0, { role: 'user', time: { created: T0 } });
    writer.message(PARENT, T0 + 1, assistant(T0 + 1, { modelID: 'claude-sonnet-4-5', providerID: 'anthropic', tokens: tokens(100, 20, 1_000, 500, 5), cost: 0.0125 }));
    writer.message(PARENT, T0 + HOUR, assistant(T0 + HOUR, { modelID: 'claude-sonnet-4-5', providerID: 'anthropic', tokens: tokens(40, 10, 1_500, 100, 0), cost: 0.0075 }));
    writer.message(PARENT, T0 + HOUR + 5, assistant(T0 + HOUR + 5, { modelID: 'claude-sonnet-4-5' })); // still being written: no tokens yet (O2)
    const { usage, projection } = await project(path);
    expect(usage.totals).toEqual({ input: 140, output: 30, cacheRead: 2_500, cacheWrite: 600, reasoning: 5 });
    expect(usage.cost).toEqual({ usd: 0.02, estimated: false });
    expect(usage.context).toEqual({ used: 1_640, window: 200_000, fill: 0.0082 });
    expect(usage).toMatchObject({ model: 'claude-sonnet-4-5', partial: false });
    expect(usage.skipped).toBeUndefined();
    // Two hours, each with its message (for "today" and --since).
    expect(Object.keys(projection.usageTally!.hours)).toHaveLength(2);
  });

  it('O3: a message without a cost leaves the seat without one; O2: bad figures are skipped and counted', async () => {
    const { path, writer } = store();
    writer.message(PARENT, T0 + 1, assistant(T0 + 1, { modelID: 'gpt-5', tokens: tokens(100, 10, 0, 0), cost: 0.001 }));
    writer.message(PARENT, T0 + 2, assistant(T0 + 2, { modelID: 'gpt-5', tokens: tokens(50, 5, 0, 0) }));
    writer.message(PARENT, T0 + 3, assistant(T0 + 3, { modelID: 'gpt-5', tokens: tokens(-3, 5, 0, 0), cost: 0.1 }));
    writer.message(PARENT, T0 + 4, assistant(T0 + 4, { modelID: 'gpt-5', tokens: tokens('9', 5, 0, 0), cost: 0.1 }));
    writer.message(PARENT, T0 + 5, assistant(T0 + 5, { modelID: 'gpt-5', tokens: tokens(2e12, 5, 0, 0), cost: 0.1 }));
    writer.message(PARENT, T0 + 6, assistant(T0 + 6, { modelID: 'gpt-5', tokens: tokens(1, 1, 'x', 0), cost: 0.1 }));
    const { usage } = await project(path);
    expect(usage.totals).toEqual({ input: 150, output: 15, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    expect(usage.cost).toBeUndefined();
    expect(usage.skipped).toBe(4);
  });

  it('O5: a child session\'s totals are its job\'s usage and count toward the parent with subagents', async () => {
    const { path, writer } = store();
    writer.session(CHILD, { parent: PARENT, time: T0 + 10 });
    const message = writer.message(PARENT, T0 + 10, assistant(T0 + 10, { modelID: 'claude-sonnet-4-5', tokens: tokens(10, 1, 0, 0), cost: 0.5 }));
    writer.task(message, PARENT, T0 + 10, { callId: 'call_child', status: 'completed', child: CHILD, start: T0 + 10, end: T0 + 90, output: `<task id="${CHILD}" state="completed">done</task>` });
    writer.message(CHILD, T0 + 20, assistant(T0 + 20, { modelID: 'claude-haiku-4-5', tokens: tokens(300, 30, 0, 0), cost: 0.25 }));
    const { usage, projection } = await project(path);
    const entry = projection.subagents.recent.find((candidate) => candidate.nativeId === 'call_child');
    expect(entry?.usage).toEqual({ totals: { input: 300, output: 30, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, partial: false, cost: { usd: 0.25, estimated: false } });
    expect(usage.totals.input).toBe(10);
    expect(usage.withSubagents).toEqual({ totals: { input: 310, output: 31, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, partial: false, cost: { usd: 0.75, estimated: false } });
  });

  it('O5–O6: every child session counts toward "with subagents", not only the tray\'s; the recorded cost stands, by model', async () => {
    const { path, writer } = store();
    writer.message(PARENT, T0, assistant(T0, { modelID: 'claude-sonnet-4-5', tokens: tokens(1, 1, 0, 0), cost: 0.01 }));
    for (let index = 0; index < 12; index += 1) {
      const child = `ses_usageChild${String(index).padStart(5, '0')}`;
      writer.session(child, { parent: PARENT, time: T0 + 10 + index });
      const message = writer.message(PARENT, T0 + 10 + index, assistant(T0 + 10 + index, { modelID: 'claude-sonnet-4-5', tokens: tokens(0, 0, 0, 0), cost: 0 }));
      writer.task(message, PARENT, T0 + 10 + index, { callId: `call_${index}`, status: 'completed', child, start: T0 + 10 + index, end: T0 + 90, output: `<task id="${child}" state="completed">done</task>` });
      // Child i: 100 + i input, 10 output, at a recorded $0.02 (more than the table's list price: it stands).
      writer.message(child, T0 + 20 + index, assistant(T0 + 20 + index, { modelID: 'claude-haiku-4-5', tokens: tokens(100 + index, 10, 0, 0), cost: 0.02 }));
    }
    const { usage, projection } = await project(path);
    expect(projection.subagents.recent.length).toBeLessThan(12);
    // By hand: 1 + Σ(100 + i, i = 0…11) = 1 + 1,200 + 66 input; 1 + 12 × 10 output; $0.01 + 12 × $0.02.
    expect(usage.withSubagents).toEqual({ totals: { input: 1_267, output: 121, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, partial: false, cost: { usd: 0.25, estimated: false } });
    expect(usage.models).toEqual([
      { model: 'claude-haiku-4-5', totals: { input: 1_266, output: 120, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, cost: { usd: 0.24, estimated: false } },
      { model: 'claude-sonnet-4-5', totals: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, cost: { usd: 0.01, estimated: false } },
    ]);
  });
});
