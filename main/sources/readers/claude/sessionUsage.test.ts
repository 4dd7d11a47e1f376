// Whole-session Claude usage (issue 37) through the real reader and ledger over fixtures written from the rules:
// every subagent file counts wherever its launch lies and however many there are, compaction agents count, 1-hour
// cache writes are priced at their own rate, and the seat's totals break down by model.
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SeatAddress } from '../../../../shared/schemas';
import { UsageSchema } from '../../../../shared/usage';
import { UsageLedger } from './ledger';
import { escapeCwd } from './locate';
import { createClaudeReader } from './reader';

const CWD = '/work/app';
const WHOLE = 'e3700000-0000-4000-8000-000000000001';
const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'usage', 'u7-whole-session');
let home: string;
let folder: string;

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'pixelfleet-session-usage-'));
  folder = path.join(home, 'projects', escapeCwd(CWD));
  await mkdir(folder, { recursive: true });
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

/** Projects a seat twice around the ledger's pass (the second answer is whole), with a read window of 16 KiB. */
async function wholeUsage(sessionId: string) {
  const seat: SeatAddress = { harness: 'claude', home, sessionId, cwd: CWD, path: path.join(folder, `${sessionId}.jsonl`) };
  const ledger = new UsageLedger();
  const reader = createClaudeReader({ home, usageLedger: ledger, tail: { coldBytes: 16_384, maxLineBytes: 1 << 20 } });
  await reader.project(seat);
  await ledger.idle();
  const projection = await reader.project(seat);
  await ledger.dispose();
  if (!projection.ok) throw new Error(projection.reason);
  return { projection, usage: UsageSchema.parse(projection.usage) };
}

describe('whole-session usage (issue 37)', () => {
  it('counts a subagent launched before the read window and the compaction agent; 1-hour writes at 2× input', async () => {
    await cp(FIXTURE, folder, { recursive: true });
    const { usage } = await wholeUsage(WHOLE);
    // Own (Opus 4.6, $5 / $25, read $0.50, 5-minute write $6.25, 1-hour write $10): msg_E1 10 in / 20 out / 1,000
    // written for one hour; msg_E2 5 in / 50 out / 1,000 read. (15×5 + 70×25 + 1,000×0.5 + 1,000×10) / 1e6.
    expect(usage.totals).toEqual({ input: 15, output: 70, cacheRead: 1_000, cacheWrite: 1_000 });
    expect(usage.cost).toEqual({ usd: 0.012325, estimated: true });
    expect(usage.partial).toBe(false);
    // The early subagent (Haiku 4.5, $1 / $5, 5-minute write $1.25): msg_A1 100 / 10 / 200 written; msg_A2 over two
    // lines counts once at its final 50 / 25 → 150 in, 35 out, 200 written: (150 + 175 + 250) / 1e6 = $0.000575.
    // The compaction agent (Opus 4.6): 3,000 in / 400 out / 20,000 read → (15,000 + 10,000 + 10,000) / 1e6 = $0.035.
    expect(usage.withSubagents).toEqual({
      totals: { input: 15 + 150 + 3_000, output: 70 + 35 + 400, cacheRead: 1_000 + 20_000, cacheWrite: 1_000 + 200 },
      cost: { usd: 0.0479, estimated: true },
      partial: false,
    });
    expect(usage.models).toEqual([
      { model: 'claude-opus-4-6', totals: { input: 3_015, output: 470, cacheRead: 21_000, cacheWrite: 1_000 }, cost: { usd: 0.047325, estimated: true } },
      { model: 'claude-haiku-4-5-20251001', totals: { input: 150, output: 35, cacheRead: 0, cacheWrite: 200 }, cost: { usd: 0.000575, estimated: true } },
    ]);
  });

  it('counts a message repeated across files of the session once (rule U8), as ccusage 20.0.24 does', async () => {
    await cp(path.join(import.meta.dirname, 'fixtures', 'usage', 'u8-repeats'), folder, { recursive: true });
    const { usage } = await wholeUsage('e3800000-0000-4000-8000-000000000001');
    // Haiku 4.5 ($1 / $5, read $0.10 per million). The main journal: msg_M1 100 / 10, msg_M2 200 / 20 / 1,000 read.
    // The compaction file repeats msg_M2 (a main-chain copy is kept over a sidechain one) and adds msg_C1 300 / 30.
    // agent-a8b1 repeats msg_M1 with 40 out (sidechain: the main journal's copy stands), adds msg_A1 50 / 5, msg_M2
    // under another request id 7 / 7 (another message), and msg_A3 20 / 2; agent-a8b2 repeats msg_A1 (a tie: the
    // first file by path, a8b1, keeps it) and msg_A3 with 20 / 12 (more tokens: a8b2's copy is kept).
    expect(usage.totals).toEqual({ input: 300, output: 30, cacheRead: 1_000, cacheWrite: 0 });
    // 100 + 200 + 300 + 50 + 7 + 20 = 677 in; 10 + 20 + 30 + 5 + 7 + 12 = 84 out: (677 + 420 + 100) / 1e6.
    expect(usage.withSubagents).toEqual({ totals: { input: 677, output: 84, cacheRead: 1_000, cacheWrite: 0 }, cost: { usd: 0.001197, estimated: true }, partial: false });
    expect(usage.models).toEqual([{ model: 'claude-haiku-4-5', totals: { input: 677, output: 84, cacheRead: 1_000, cacheWrite: 0 }, cost: { usd: 0.001197, estimated: true } }]);
  });

  it('counts the flat agent files (2.0.24–2.1.1) that name the session, on the tray or not, and no other session\'s', async () => {
    await cp(path.join(import.meta.dirname, 'fixtures', 'usage', 'u9-flat-agents'), folder, { recursive: true });
    const { projection, usage } = await wholeUsage('e3900000-0000-4000-8000-000000000001');
    // No call in the journal names them: the tray is empty, the files still count.
    expect(projection.subagents.recent).toEqual([]);
    // Haiku 4.5 ($1 / $5). Own: msg_N1 40 / 4. agent-9a9a9a9a: msg_F1 60 / 6. agent-9b9b9b9b (a Warmup agent):
    // msg_F2 25 / 5 and a sidechain copy of msg_N1 (the main journal's stands, rule U8). agent-9c9c9c9c names another
    // session: not counted. 125 in, 15 out: (125 + 75) / 1e6.
    expect(usage.totals).toEqual({ input: 40, output: 4, cacheRead: 0, cacheWrite: 0 });
    expect(usage.withSubagents).toEqual({ totals: { input: 125, output: 15, cacheRead: 0, cacheWrite: 0 }, cost: { usd: 0.0002, estimated: true }, partial: false });
  });

  it('counts a message a resumed session copied from an earlier journal once, in the session that keeps it (rule U8)', async () => {
    await cp(path.join(import.meta.dirname, 'fixtures', 'usage', 'u10-resumed'), folder, { recursive: true });
    const ledger = new UsageLedger();
    const reader = createClaudeReader({ home, usageLedger: ledger, tail: { coldBytes: 16_384, maxLineBytes: 1 << 20 } });
    const seat = (sessionId: string): SeatAddress => ({ harness: 'claude', home, sessionId, cwd: CWD, path: path.join(folder, `${sessionId}.jsonl`) });
    const [first, resumed] = [seat('e3b00000-0000-4000-8000-000000000001'), seat('e3b00000-0000-4000-8000-000000000002')];
    // Each seat is looked at twice, as the census does: the second look sees what the other seat counted.
    for (let round = 0; round < 2; round += 1) {
      await reader.project(first);
      await reader.project(resumed);
      await ledger.idle();
    }
    const usageOf = async (address: SeatAddress) => {
      const projection = await reader.project(address);
      if (!projection.ok) throw new Error(projection.reason);
      return UsageSchema.parse(projection.usage);
    };
    // The first journal: msg_u10R1 100 / 10, msg_u10R2 200 / 20. The resumed one copies both (msg_u10R2 with 25 out)
    // and adds msg_u10R3 300 / 30. R1: a tie, the first file by path keeps it; R2: the resumed copy has more tokens.
    expect((await usageOf(first)).totals).toEqual({ input: 100, output: 10, cacheRead: 0, cacheWrite: 0 });
    const second = await usageOf(resumed);
    expect(second.totals).toEqual({ input: 500, output: 55, cacheRead: 0, cacheWrite: 0 });
    // Haiku 4.5: (500 × $1 + 55 × $5) / 1e6.
    expect(second.cost).toEqual({ usd: 0.000775, estimated: true });
    await ledger.dispose();
  });

  it('counts all nineteen subagent files of a session, not the tray\'s eight newest', async () => {
    const sessionId = 'e3700000-0000-4000-8000-000000000002';
    const line = (fields: Record<string, unknown>) => JSON.stringify({ parentUuid: null, isSidechain: false, cwd: CWD, sessionId, version: '2.1.120', ...fields });
    const main: string[] = [line({ type: 'assistant', uuid: 'm0', timestamp: '2026-05-02T11:00:00.000Z', requestId: 'req_P', message: { id: 'msg_P', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'go' }], usage: { input_tokens: 1, output_tokens: 1 } } })];
    const subagents = path.join(folder, sessionId, 'subagents');
    await mkdir(subagents, { recursive: true });
    for (let index = 0; index < 19; index += 1) {
      const agentId = `a${String(index).padStart(16, '0')}`;
      const toolUse = `toolu_${index}`;
      const at = `2026-05-02T11:${String(index + 1).padStart(2, '0')}:00.000Z`;
      main.push(line({ type: 'assistant', uuid: `c${index}`, timestamp: at, requestId: `req_c${index}`, message: { id: `msg_c${index}`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: toolUse, name: 'Agent', input: { description: `Helper ${index}`, prompt: 'Help.', subagent_type: 'general-purpose' } }], usage: { input_tokens: 0, output_tokens: 0 } } }));
      main.push(line({ type: 'user', uuid: `r${index}`, timestamp: at, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse, content: 'done' }] }, toolUseResult: { status: 'completed', agentId } }));
      // Subagent i: one message of 100 + i input tokens and 10 output tokens.
      const child = JSON.stringify({ parentUuid: null, isSidechain: true, agentId, cwd: CWD, sessionId, type: 'assistant', uuid: `s${index}`, timestamp: at, requestId: `req_s${index}`, message: { id: `msg_s${index}`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: 100 + index, output_tokens: 10 } } });
      await writeFile(path.join(subagents, `agent-${agentId}.jsonl`), `${child}\n`);
    }
    await writeFile(path.join(folder, `${sessionId}.jsonl`), `${main.join('\n')}\n`);
    const { projection, usage } = await wholeUsage(sessionId);
    expect(projection.subagents.recent.length).toBeLessThanOrEqual(8);
    // By hand: 1 + Σ(100 + i, i = 0…18) = 1 + 1,900 + 171 input; 1 + 19 × 10 output.
    expect(usage.withSubagents?.totals).toEqual({ input: 2_072, output: 191, cacheRead: 0, cacheWrite: 0 });
    expect(usage.withSubagents?.partial).toBe(false);
  });
});
