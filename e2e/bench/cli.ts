/**
 * CLI start-up figures: `pixelfleet --version` and `pixelfleet candidates --json` on an empty home, each as the
 * median wall time over bare `node` measured in the same run (so the figure is what Pixelfleet adds).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { below, median, type BenchTable } from './table';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'main', 'edges', 'cli', 'pixelfleet.mjs');
const RUNS = Number(process.env.PIXELFLEET_BENCH_CLI_RUNS ?? 9);

function timeRun(args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd: ROOT, env, encoding: 'utf8' });
  const elapsed = performance.now() - started;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return elapsed;
}

/**
 * Runs bare node and each command in turn, `RUNS` rounds, and returns the medians: the commands both as wall time
 * and as the per-round difference to bare node (interleaved, so a busy machine weighs on both sides alike).
 */
function interleaved(commands: string[][], env: NodeJS.ProcessEnv): { bare: number; walls: number[]; over: number[] } {
  const bare: number[] = [];
  const walls: number[][] = commands.map(() => []);
  const over: number[][] = commands.map(() => []);
  for (let round = 0; round < RUNS; round++) {
    const base = timeRun(['-e', '0'], env);
    bare.push(base);
    commands.forEach((args, index) => {
      const wall = timeRun(args, env);
      walls[index].push(wall);
      over[index].push(wall - base);
    });
  }
  return { bare: median(bare), walls: walls.map(median), over: over.map(median) };
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
    const { bare, walls, over } = interleaved([[CLI, '--version'], [CLI, 'candidates', '--json']], env);
    log(`bare node: ${bare.toFixed(0)} ms; pixelfleet --version: ${walls[0].toFixed(0)} ms; candidates --json (empty home): ${walls[1].toFixed(0)} ms (medians of ${RUNS} interleaved rounds)`);
    table.add({ figure: '`pixelfleet --version`, over bare node', goal: below(300), value: over[0], unit: 'ms' });
    table.add({ figure: '`pixelfleet candidates --json`, empty home, over bare node', goal: below(500), value: over[1], unit: 'ms' });
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
