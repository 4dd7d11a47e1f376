/**
 * `pixelfleet usage --blocks` and `usage --by` in-process over real temp homes (issue 41). The blocks' expected
 * figures are the hand-written journals of main/core/usage/fixtures/pace counted by hand; the same journals gave the
 * same starts, ends and token totals from the reference tool's `blocks --json` (see the fixture's README).
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
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

  it('by default over the fleet\'s seats only: the opened session counts; the other session and the subagent file no Agent call of it names do not', async () => {
    const env = await paceHome();
    const opened = await cli(['seats', 'open', 'claude:a1111111-1111-4111-8111-111111111111', '--name', 'Ada'], env);
    expect(opened.code, opened.stderr).toBe(0);
    const result = await cli(['usage', '--blocks', '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    const report = BlockReportSchema.parse(JSON.parse(result.stdout));
    expect(report.source).toBe('fleet');
    expect(report.blocks.map((block) => [block.start, block.totals.input, block.entries])).toEqual([
      ['2026-12-01T09:00:00.000Z', 600, 3],
      ['2026-12-01T14:00:00.000Z', 30, 2],
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
