/**
 * `npm run bench [area…] [--json]`: measures speed and memory on this machine and ends with one table of figures,
 * goals and whether each holds (`--json`: the rows as JSON on stdout, progress on stderr). Not a test: a figure that
 * misses its goal does not fail the run; an area that crashes does.
 */
import { cpus, totalmem } from 'node:os';
import { BenchTable, formatTable, type BenchArea } from './table';

type Area = { name: string; load: () => Promise<BenchArea> };

const areas: Area[] = [
  { name: 'cli', load: async () => (await import('./cli')).benchCli },
  { name: 'claude', load: async () => (await import('./claude')).benchClaude },
  { name: 'codex', load: async () => (await import('./codex')).benchCodex },
  { name: 'opencode', load: async () => (await import('./opencode')).benchOpenCode },
  { name: 'fleet', load: async () => (await import('./fleet')).benchFleet },
  { name: 'world', load: async () => (await import('./world')).benchWorld },
  { name: 'activity', load: async () => (await import('./activity')).benchActivity },
  { name: 'history', load: async () => (await import('./history')).benchHistory },
  { name: 'timeline', load: async () => (await import('./timeline')).benchTimeline },
];

const args = process.argv.slice(2);
const json = args.includes('--json');
const wanted = args.filter((arg) => arg !== '--json');
const unknown = wanted.filter((name) => !areas.some((area) => area.name === name));
if (unknown.length) {
  console.error(`bench: unknown area ${unknown.join(', ')}; areas are ${areas.map((area) => area.name).join(', ')}`);
  process.exit(2);
}

// With --json, stdout carries only the JSON rows.
const say = (line: string) => (json ? console.error(line) : console.log(line));
const log = (line: string) => say(`  ${line}`);
const table = new BenchTable();
const failed: string[] = [];
say(`Pixelfleet benchmark — node ${process.version}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`);
for (const area of areas) {
  if (wanted.length && !wanted.includes(area.name)) continue;
  say(`\n## ${area.name}`);
  const started = performance.now();
  try {
    const run = await area.load();
    await run(log, table);
  } catch (error) {
    log(`failed: ${(error as Error)?.stack ?? String(error)}`);
    failed.push(area.name);
    process.exitCode = 1;
  }
  log(`(area took ${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

if (json) {
  console.log(JSON.stringify(table.rows, null, 2));
} else {
  console.log(`\n## figures\n${formatTable(table.rows)}`);
  const missed = table.rows.filter((row) => !row.holds).length;
  console.log(`${table.rows.length - missed} of ${table.rows.length} goals hold${failed.length ? `; areas that failed: ${failed.join(', ')}` : ''}`);
}
if (failed.length && json) console.error(`bench: areas that failed: ${failed.join(', ')}`);
