/**
 * A fresh clone has no ../shared beside it: the suites that read the shared fixtures must skip, each with one line
 * naming what it would have checked and PIXELFLEET_FIXTURES, and the run must still pass.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedFixturesRoot } from './sharedFixtures';

const SUITES = ['main/sources/readers/claude/fixtures.test.ts', 'main/sources/readers/opencode/reader.test.ts'];

describe('the shared fixtures', () => {
  it('are found through PIXELFLEET_FIXTURES first, then beside the checkout', () => {
    expect(sharedFixturesRoot({ PIXELFLEET_FIXTURES: '/somewhere/fixtures' })).toBe('/somewhere/fixtures');
    expect(sharedFixturesRoot({})).toBe(join(process.cwd(), '..', 'shared', 'fixtures'));
  });

  it('when absent, their suites skip with one printed line each and the run passes', () => {
    const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...SUITES], {
      env: { ...process.env, PIXELFLEET_FIXTURES: join(process.cwd(), 'no-such-fixtures'), FORCE_COLOR: '0', NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(0);
    const lines = output.split('\n').filter((line) => line.startsWith('skipped: '));
    expect(lines).toHaveLength(SUITES.length);
    for (const line of lines) expect(line).toMatch(/no shared fixtures at .*no-such-fixtures; set PIXELFLEET_FIXTURES=<folder> to run it$/);
    // The suites' own tests (those on temp stores) still ran.
    expect(output).toMatch(/Tests\s+\d+ passed \| \d+ skipped/);
  });
});
