/**
 * `npm run fuzz -- [--seed S] [--count N] [--harness claude|codex|opencode] [--path P] [--no-huge]` (issue 36): mutates valid
 * records of each harness with fast-check and checks the property of ./property.ts for every mutation, printing
 * each failing harness with its seed, its least mutation and the valid record it came from. Exit 1 on a failure.
 */
import { HARNESSES } from '../../sources/readers/registry';
import type { Harness } from '../../../shared/schemas';
import { failureText, runFuzz } from './runFuzz';

function value(argv: string[], name: string): string | undefined {
  const index = argv.indexOf(`--${name}`);
  if (index >= 0) return argv[index + 1];
  return argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
}

async function main(argv: string[]): Promise<number> {
  const seed = Number(value(argv, 'seed') ?? Date.now() % 2 ** 31);
  const count = Number(value(argv, 'count') ?? 10_000);
  const only = value(argv, 'harness');
  if (!Number.isInteger(seed) || !Number.isInteger(count) || count < 1) {
    console.error('usage: npm run fuzz -- [--seed S] [--count N] [--harness claude|codex|opencode] [--no-huge]');
    return 2;
  }
  const harnesses = (Object.keys(HARNESSES) as Harness[]).filter((harness) => !only || harness === only);
  if (harnesses.length === 0) {
    console.error(`--harness takes one of ${Object.keys(HARNESSES).join(', ')}.`);
    return 2;
  }
  console.log(`fuzz: seed ${seed}, ${count} mutations per harness`);
  let failed = false;
  for (const harness of harnesses) {
    const started = Date.now();
    const path = value(argv, 'path');
    const outcome = await runFuzz(harness, { seed, count, huge: !argv.includes('--no-huge'), ...(path ? { path } : {}) });
    console.log(`${failureText(outcome)} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    failed ||= outcome.failure !== null;
  }
  return failed ? 1 : 0;
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
