/** `npm run bench [section…]`: prints speed and memory figures for this machine. Not a test: nothing here asserts. */
import { cpus, totalmem } from 'node:os';

type Section = { name: string; load: () => Promise<(log: (line: string) => void) => Promise<void>> };

const sections: Section[] = [
  { name: 'claude', load: async () => (await import('./claude')).benchClaude },
  { name: 'codex', load: async () => (await import('./codex')).benchCodex },
  { name: 'opencode', load: async () => (await import('./opencode')).benchOpenCode },
  { name: 'fleet', load: async () => (await import('./fleet')).benchFleet },
  { name: 'world', load: async () => (await import('./world')).benchWorld },
];

const wanted = process.argv.slice(2);
const log = (line: string) => console.log(`  ${line}`);
console.log(`Pixelfleet benchmark — node ${process.version}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`);
for (const section of sections) {
  if (wanted.length && !wanted.includes(section.name)) continue;
  console.log(`\n## ${section.name}`);
  const started = performance.now();
  try {
    const run = await section.load();
    await run(log);
  } catch (error) {
    console.log(`  failed: ${(error as Error)?.stack ?? String(error)}`);
    process.exitCode = 1;
  }
  console.log(`  (section took ${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
