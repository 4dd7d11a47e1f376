/** `pixelfleet usage` in-process over a real temp home: a Claude journal and a real OpenCode store, counted by hand. */
import { appendFile, copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageReportSchema } from '../../../shared/usageReport';
import { StoreWriter } from '../../dev/testing/opencodeStore';
import { main } from './index';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function cli(argv: string[], env: NodeJS.ProcessEnv) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env: { HOME: '/nonexistent-home', ...env } });
  return { code, stdout, stderr };
}

const SESSION = 'u0000000-0000-4000-8000-000000000001';
const OPENCODE = 'ses_cliUsage0000001';

async function fleetHome() {
  const dir = await mkdtemp(join(tmpdir(), 'pixelfleet-usage-cli-'));
  dirs.push(dir);
  const folder = join(dir, 'claude', 'projects', '-work-app');
  await mkdir(folder, { recursive: true });
  const journal = join(folder, `${SESSION}.jsonl`);
  await copyFile(join(import.meta.dirname, '..', '..', 'sources', 'readers', 'claude', 'fixtures', 'usage', 'u1-repeated-usage.jsonl'), journal);
  const db = join(dir, 'opencode.db');
  const writer = new StoreWriter(db);
  const time = Date.UTC(2026, 5, 1, 9);
  writer.session(OPENCODE, { time, directory: '/work/app' });
  writer.message(OPENCODE, time, { role: 'assistant', time: { created: time }, modelID: 'claude-sonnet-4-5', providerID: 'anthropic', tokens: { input: 100, output: 20, reasoning: 5, cache: { read: 1_000, write: 500 } }, cost: 0.0125 });
  writer.close();
  const env = { PIXELFLEET_HOME: join(dir, 'home'), CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), XDG_DATA_HOME: join(dir, 'data'), OPENCODE_DB: db };
  return { env, journal };
}

describe('pixelfleet usage', () => {
  it('--json agrees with a hand count: one row per seat and the total', async () => {
    const { env } = await fleetHome();
    expect((await cli(['seats', 'open', `claude:${SESSION}`, '--name', 'Ada'], env)).code).toBe(0);
    expect((await cli(['seats', 'open', `opencode:${OPENCODE}`, '--name', 'Bo'], env)).code).toBe(0);
    const run = await cli(['usage', '--json'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = UsageReportSchema.parse(JSON.parse(run.stdout));
    expect(Object.keys(JSON.parse(run.stdout))).toEqual(['at', 'since', 'seats', 'total', 'limits', 'limitsSkipped', 'hosts']);
    expect(report.hosts).toEqual([]); // no remotes listed: one entry per remote (issue 42)
    expect(report.since).toBeNull();
    const claude = report.seats.find((row) => row.harness === 'claude');
    const openCode = report.seats.find((row) => row.harness === 'opencode');
    // Claude by hand (u1): msg_A 10 in / 200 out / 5,000 read / 1,000 written once; msg_B 5 / 120 / 6,000 / 300.
    expect(claude).toEqual({
      seat: `claude:${SESSION}`, persona: 'Ada', harness: 'claude', model: 'claude-sonnet-4-5-20250929',
      context: { used: 6_305, window: 200_000, fill: 0.0315 },
      totals: { input: 15, output: 320, cacheRead: 11_000, cacheWrite: 1_300 },
      cost: { usd: 0.01302, estimated: true }, partial: false, skipped: 0,
      models: [{ model: 'claude-sonnet-4-5-20250929', totals: { input: 15, output: 320, cacheRead: 11_000, cacheWrite: 1_300 }, cost: { usd: 0.01302, estimated: true } }],
    });
    expect(openCode).toMatchObject({ persona: 'Bo', totals: { input: 100, output: 20, cacheRead: 1_000, cacheWrite: 500, reasoning: 5 }, cost: { usd: 0.0125, estimated: false } });
    // One estimate makes the total an estimate.
    expect(report.total).toEqual({ totals: { input: 115, output: 340, cacheRead: 12_000, cacheWrite: 1_800, reasoning: 5 }, cost: { usd: 0.02552, estimated: true }, partial: false, unpriced: 0 });

    const table = await cli(['usage'], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('Ada');
    expect(table.stdout).toContain('total');
    expect(table.stdout).toContain('$0.03 est.');
  });

  it('a journal longer than the read window is counted whole before the command answers, not shown as "≥"', async () => {
    const { env, journal } = await fleetHome();
    // 3 MiB of one message each line (10 input, 2 output), past the 2 MiB window of a cold read.
    const line = (index: number) =>
      JSON.stringify({ type: 'assistant', sessionId: SESSION, timestamp: '2026-05-01T09:00:00.000Z', requestId: `r${index}`, message: { id: `m${index}`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'y'.repeat(700) }], usage: { input_tokens: 10, output_tokens: 2 } } });
    const lines = Array.from({ length: 3_600 }, (_, index) => line(index));
    await rm(journal);
    await appendFile(journal, `${lines.join('\n')}\n`);
    expect((await cli(['seats', 'open', `claude:${SESSION}`, '--name', 'Ada'], env)).code).toBe(0);
    const run = await cli(['usage', '--json'], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('counting whole sessions');
    const claude = UsageReportSchema.parse(JSON.parse(run.stdout)).seats.find((row) => row.harness === 'claude');
    expect(claude).toMatchObject({ partial: false, totals: { input: 36_000, output: 7_200 } });
  });

  it('cause 7: `fleet --json` and `usage --json` give the same figures with the same `partial`', async () => {
    const { env, journal } = await fleetHome();
    const line = (index: number) =>
      JSON.stringify({ type: 'assistant', sessionId: SESSION, timestamp: '2026-05-01T09:00:00.000Z', requestId: `r${index}`, message: { id: `m${index}`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'y'.repeat(700) }], usage: { input_tokens: 10, output_tokens: 2 } } });
    await rm(journal);
    await appendFile(journal, `${Array.from({ length: 3_600 }, (_, index) => line(index)).join('\n')}\n`);
    expect((await cli(['seats', 'open', `claude:${SESSION}`, '--name', 'Ada'], env)).code).toBe(0);
    const fleet = JSON.parse((await cli(['fleet', '--json'], env)).stdout);
    const report = UsageReportSchema.parse(JSON.parse((await cli(['usage', '--json'], env)).stdout));
    const seat = fleet.seats.find((candidate: { id: string }) => candidate.id === `claude:${SESSION}`);
    expect(seat.usage.withSubagents?.partial ?? seat.usage.partial).toBe(false);
    expect(fleet.usage.open.partial).toBe(report.total.partial);
    expect(report.seats[0]).toMatchObject({ partial: false, totals: seat.usage.totals });
    expect(fleet.usage.open.totals).toEqual(report.total.totals);
  });

  it('--since today counts only what was written since local midnight', async () => {
    const { env, journal } = await fleetHome();
    expect((await cli(['seats', 'open', `claude:${SESSION}`, '--name', 'Ada'], env)).code).toBe(0);
    const now = new Date().toISOString();
    await appendFile(journal, `${JSON.stringify({ type: 'assistant', sessionId: SESSION, timestamp: now, requestId: 'r_now', message: { id: 'm_now', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'now' }], usage: { input_tokens: 4, output_tokens: 6 } } })}\n`);
    const report = UsageReportSchema.parse(JSON.parse((await cli(['usage', '--json', '--since', 'today'], env)).stdout));
    expect(report.since).not.toBeNull();
    expect(report.seats[0].totals).toEqual({ input: 4, output: 6, cacheRead: 0, cacheWrite: 0 });
    const whole = UsageReportSchema.parse(JSON.parse((await cli(['usage', '--json', '--since', '7d'], env)).stdout));
    expect(whole.seats[0].totals.input).toBe(4);
  });

  it('--since gives the window\'s per-model rows (issue 37), and they add up to the row\'s totals', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pixelfleet-usage-since-'));
    dirs.push(dir);
    const session = 'e3a00000-0000-4000-8000-000000000001';
    const folder = join(dir, 'claude', 'projects', '-work-app');
    await mkdir(join(folder, session, 'subagents'), { recursive: true });
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
    const line = (id: string, hours: number, model: string, input: number, output: number, side = false) =>
      `${JSON.stringify({ type: 'assistant', isSidechain: side, cwd: '/work/app', sessionId: session, timestamp: hoursAgo(hours), requestId: `req_${id}`, message: { id: `msg_${id}`, role: 'assistant', model, content: [{ type: 'text', text: id }], usage: { input_tokens: input, output_tokens: output } } })}\n`;
    // Own: Sonnet 4.5 30 h ago (before the window) and 1 h ago; its subagent: Haiku 4.5 2 h ago and 48 h ago.
    await appendFile(join(folder, `${session}.jsonl`), line('old', 30, 'claude-sonnet-4-5', 1_000, 100) + line('new', 1, 'claude-sonnet-4-5', 200, 20));
    await appendFile(join(folder, session, 'subagents', 'agent-s1.jsonl'), line('sub', 2, 'claude-haiku-4-5', 300, 30, true) + line('subold', 48, 'claude-haiku-4-5', 5_000, 500, true));
    const env = { PIXELFLEET_HOME: join(dir, 'home'), CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), XDG_DATA_HOME: join(dir, 'data') };
    expect((await cli(['seats', 'open', `claude:${session}`, '--name', 'Ada'], env)).code).toBe(0);
    const report = UsageReportSchema.parse(JSON.parse((await cli(['usage', '--json', '--since', '24h'], env)).stdout));
    const [row] = report.seats;
    // In the window: Haiku 300 / 30 → (300 × $1 + 30 × $5) / 1e6; Sonnet 200 / 20 → (200 × $3 + 20 × $15) / 1e6.
    expect(row.totals).toEqual({ input: 500, output: 50, cacheRead: 0, cacheWrite: 0 });
    expect(row.models).toEqual([
      { model: 'claude-haiku-4-5', totals: { input: 300, output: 30, cacheRead: 0, cacheWrite: 0 }, cost: { usd: 0.00045, estimated: true } },
      { model: 'claude-sonnet-4-5', totals: { input: 200, output: 20, cacheRead: 0, cacheWrite: 0 }, cost: { usd: 0.0009, estimated: true } },
    ]);
    expect(row.cost).toEqual({ usd: 0.00135, estimated: true });
    const whole = UsageReportSchema.parse(JSON.parse((await cli(['usage', '--json'], env)).stdout));
    expect(whole.seats[0].models.map((model) => model.totals.input)).toEqual([5_300, 1_200]);
  });

  it('a garbage --since exits 2 saying what it accepts', async () => {
    const { env } = await fleetHome();
    const run = await cli(['usage', '--since', 'yesterday'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--since must be today, 24h or 7d (got "yesterday")');
    expect(run.stdout).toBe('');
  });
});
