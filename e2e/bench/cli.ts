/**
 * CLI start-up figures: `pixelfleet --version` and `pixelfleet candidates --json` on an empty home, each as the
 * median wall time over bare `node` measured in the same run (so the figure is what Pixelfleet adds).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { below, type BenchTable } from './table';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'main', 'cli', 'pixelfleet.mjs');
const RUNS = Number(process.env.PIXELFLEET_BENCH_CLI_RUNS ?? 7);

/** Median wall time of `node …args` in ms; throws when a run fails. */
function medianRun(args: string[], env: NodeJS.ProcessEnv): number {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { cwd: ROOT, env, encoding: 'utf8' });
    times.push(performance.now() - started);
    if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  }
  times.sort((first, second) => first - second);
  return times[Math.floor(times.length / 2)];
}

/** Runs the CLI start-up benchmark. */
export async function benchCli(log: (line: string) => void, table: BenchTable): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), 'pixelfleet-bench-cli-'));
  try {
    // An empty home: no app data, no harness homes, no OpenCode database.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PIXELFLEET_HOME: join(home, 'app'),
      CLAUDE_CONFIG_DIR: join(home, 'claude'),
      CODEX_HOME: join(home, 'codex'),
      XDG_DATA_HOME: join(home, 'data'),
      OPENCODE_DB: '',
    };
    // One unmeasured run, so a pending rebuild of a development checkout is not counted.
    const first = spawnSync(process.execPath, [CLI, '--version'], { cwd: ROOT, env, encoding: 'utf8' });
    if (first.stderr.trim()) log(`first run said: ${first.stderr.trim()}`);
    const bare = medianRun(['-e', '0'], env);
    const version = medianRun([CLI, '--version'], env);
    const candidates = medianRun([CLI, 'candidates', '--json'], env);
    log(`bare node: ${bare.toFixed(0)} ms; pixelfleet --version: ${version.toFixed(0)} ms; candidates --json (empty home): ${candidates.toFixed(0)} ms (medians of ${RUNS})`);
    table.add({ figure: '`pixelfleet --version`, over bare node', goal: below(300), value: version - bare, unit: 'ms' });
    table.add({ figure: '`pixelfleet candidates --json`, empty home, over bare node', goal: below(500), value: candidates - bare, unit: 'ms' });
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
