/**
 * `pixelfleet usage --blocks` and `usage --by` in-process over real temp homes (issue 41). The blocks' expected
 * figures are the hand-written journals of main/core/usage/fixtures/pace counted by hand; the same journals gave the
 * same starts, ends and token totals from the reference tool's `blocks --json` (see the fixture's README).
 */
import { appendFile, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BlockReportSchema, UsageByReportSchema } from '../../../shared/pace';
import { UsageReportSchema } from '../../../shared/usageReport';
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

async function paceHome() {
  const dir = await mkdtemp(join(tmpdir(), 'pixelfleet-pace-cli-'));
  dirs.push(dir);
  await cp(join(import.meta.dirname, '..', '..', 'core', 'usage', 'fixtures', 'pace', 'claude-home'), join(dir, 'claude'), { recursive: true });
  return { PIXELFLEET_HOME: join(dir, 'home'), CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), XDG_DATA_HOME: join(dir, 'data'), OPENCODE_DB: join(dir, 'none.db') };
}

/** The three blocks of the fixture journals (two sessions and a subagent's file): boundary, gap and limit message. */
const EXPECTED = [
  { start: '2026-12-01T09:00:00.000Z', end: '2026-12-01T14:00:00.000Z', lastEntry: '2026-12-01T14:00:00.000Z', active: false, totals: { input: 1600, output: 520, cacheRead: 2100, cacheWrite: 6000 }, cost: { usd: 0.03573, estimated: true }, entries: 4 },
  { start: '2026-12-01T14:00:00.000Z', end: '2026-12-01T19:00:00.000Z', lastEntry: '2026-12-01T16:10:30.500Z', active: false, totals: { input: 660, output: 101, cacheRead: 9500, cacheWrite: 2000 }, cost: { usd: 0.015185, estimated: true }, entries: 5 },
  { start: '2026-12-01T21:00:00.000Z', end: '2026-12-02T02:00:00.000Z', lastEntry: '2026-12-01T21:00:00.000Z', active: false, totals: { input: 40, output: 7, cacheRead: 1400, cacheWrite: 0 }, cost: { usd: 0.000645, estimated: true }, entries: 1 },
];

describe('pixelfleet usage --blocks', () => {
  it('--all-sessions: every journal of the Claude home in 5-hour blocks; a message at the end stays, a millisecond later starts a block, a 5 h gap starts one', async () => {
    const env = await paceHome();
    const result = await cli(['usage', '--blocks', '--all-sessions', '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    const report = BlockReportSchema.parse(JSON.parse(result.stdout));
    expect(report).toMatchObject({ source: 'all-sessions', partial: false });
    expect(report.blocks).toEqual(EXPECTED);
    // Exactly the keys the issue names, no more.
    expect(Object.keys(JSON.parse(result.stdout).blocks[0]).sort()).toEqual(['active', 'cost', 'end', 'entries', 'lastEntry', 'start', 'totals']);
    // A second run reads the checkpoint, not the journals again, and says the same.
    const again = await cli(['usage', '--blocks', '--all-sessions', '--json'], env);
    expect(BlockReportSchema.parse(JSON.parse(again.stdout)).blocks).toEqual(EXPECTED);
    const table = await cli(['usage', '--blocks', '--all-sessions'], env);
    expect(table.stdout).toContain('2026-12-01 09:00 2026-12-01 14:00');
    expect(table.stdout).toContain('every journal in the Claude home');
  });

  it('by default over the fleet\'s seats only: the opened session counts with every subagent file of its folder (usage rule U7); the other session does not', async () => {
    const env = await paceHome();
    const opened = await cli(['seats', 'open', 'claude:a1111111-1111-4111-8111-111111111111', '--name', 'Ada'], env);
    expect(opened.code, opened.stderr).toBe(0);
    const result = await cli(['usage', '--blocks', '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    const report = BlockReportSchema.parse(JSON.parse(result.stdout));
    expect(report.source).toBe('fleet');
    expect(report.blocks.map((block) => [block.start, block.totals.input, block.entries])).toEqual([
      ['2026-12-01T09:00:00.000Z', 600, 3],
      ['2026-12-01T14:00:00.000Z', 590, 4],
      ['2026-12-01T21:00:00.000Z', 40, 1],
    ]);
    // The session's limit message: usage --json's limits names it, with its reset time.
    const usage = UsageReportSchema.parse(JSON.parse((await cli(['usage', '--json'], env)).stdout));
    expect(usage.limits).toEqual([]); // its reset (2026-12-02 02:00) has passed by now
    expect(usage.limitsSkipped).toBe(0);
  });

  it('refuses --all-sessions without --blocks and an unknown --by', async () => {
    const env = await paceHome();
    expect((await cli(['usage', '--all-sessions'], env)).code).toBe(2);
    const bad = await cli(['usage', '--by', 'model'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--by must be day, role, harness or host');
  });
});

describe('pixelfleet usage --by', () => {
  it('answers rows of { key, totals, cost, partial } (empty without recorded samples)', async () => {
    const env = await paceHome();
    for (const by of ['day', 'role', 'harness', 'host']) {
      const result = await cli(['usage', '--by', by, '--since', '7d', '--json'], env);
      expect(result.code, result.stderr).toBe(0);
      const report = UsageByReportSchema.parse(JSON.parse(result.stdout));
      expect(report).toMatchObject({ by, rows: [] });
    }
  });
});

describe('pixelfleet usage --json limits', () => {
  it('names the newest record per harness and window among the seats, and a Claude seat\'s limit while it holds', async () => {
    const env = await paceHome();
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const id = '019af041-0000-7000-8000-0000000c11e4';
    const day = new Date(now - 3_600_000);
    const folder = join(env.CODEX_HOME, 'sessions', String(day.getFullYear()), String(day.getMonth() + 1).padStart(2, '0'), String(day.getDate()).padStart(2, '0'));
    await mkdir(folder, { recursive: true });
    const line = (value: object) => `${JSON.stringify(value)}\n`;
    const limits = (used: number, at: number) => line({ timestamp: iso(at), type: 'event_msg', payload: { type: 'token_count', info: null, rate_limits: { primary: { used_percent: used, window_minutes: 300, resets_at: Math.floor((now + 7_200_000) / 1000) }, secondary: { used_percent: 250, window_minutes: 10080 } } } });
    await writeFile(
      join(folder, `rollout-${iso(now - 3_600_000).slice(0, 19).replace(/:/g, '-')}-${id}.jsonl`),
      line({ timestamp: iso(now - 3_600_000), type: 'session_meta', payload: { id, timestamp: iso(now - 3_600_000), cwd: '/work/api', originator: 'codex_cli_rs', cli_version: '0.60.0', source: 'cli' } }) + limits(20, now - 1_800_000) + limits(64.5, now - 60_000),
    );
    const journal = join(env.CLAUDE_CONFIG_DIR, 'projects', '-work-alpha', 'a1111111-1111-4111-8111-111111111111.jsonl');
    const resetsAt = Math.floor((now + 5_400_000) / 1000);
    await appendFile(journal, line({ type: 'assistant', isSidechain: false, sessionId: 'a1111111-1111-4111-8111-111111111111', timestamp: iso(now - 30_000), isApiErrorMessage: true, message: { id: 'msg_limit_2', role: 'assistant', model: '<synthetic>', content: [{ type: 'text', text: `Claude AI usage limit reached|${resetsAt}` }], usage: { input_tokens: 0, output_tokens: 0 } } }));
    for (const candidate of [`codex:${id}`, 'claude:a1111111-1111-4111-8111-111111111111']) {
      const opened = await cli(['seats', 'open', candidate], env);
      expect(opened.code, opened.stderr).toBe(0);
    }
    const result = await cli(['usage', '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    const report = UsageReportSchema.parse(JSON.parse(result.stdout));
    expect(report.limits).toEqual([
      { harness: 'claude', limited: true, resetsAt: iso(resetsAt * 1000), recordedAt: iso(now - 30_000), seatId: 'claude:a1111111-1111-4111-8111-111111111111' },
      { harness: 'codex', window: 'primary', minutes: 300, usedPercent: 64.5, resetsAt: iso(Math.floor((now + 7_200_000) / 1000) * 1000), recordedAt: iso(now - 60_000), seatId: `codex:${id}` },
    ]);
    // The secondary window's 250 % is skipped, twice (one per record), never shown.
    expect(report.limitsSkipped).toBe(2);
    const table = await cli(['usage'], env);
    expect(table.stdout).toContain('Codex 5 h window: 64.5 % used, resets');
    expect(table.stdout).toContain('Claude Code: usage limit reached, limited until');
    // A seat with no token recorded is unknown, as on the page: never "$0.00"; harnesses named as the page names them.
    expect(table.stdout).not.toContain('$0.00');
    expect(table.stdout).toMatch(/^codex:\S+\s+\S+\s+Codex\s+.*none recorded yet\s+unknown$/m);
  });
});
