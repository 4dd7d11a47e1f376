/**
 * A child process for the alias store tests: `aliasWriter.ts <file> <tag> <count>` waits for "go" on stdin, then
 * asks for aliases one subagent at a time — its own `<tag>-<i>` and a `shared-<i>` that the other writer also asks
 * for — racing any other writer, and prints every key with its alias as JSON lines.
 */
import { once } from 'node:events';
import { AliasService } from '../AliasService';

/** Runs the writer named on the command line. */
export async function runWriter(argv: string[]): Promise<void> {
  const [file, tag, countText] = argv;
  const count = Number(countText);
  process.stdout.write('ready\n');
  await once(process.stdin, 'data');
  process.stdin.pause();
  // Each request is a fresh service, as each CLI run is: no cache helps, only the lock and the file.
  for (let index = 0; index < count; index += 1) {
    const service = new AliasService({ file, lockTimeoutMs: 60_000 });
    const keys = [`${tag}-${index}`, `shared-${index}`];
    const aliases = await service.aliasesFor(keys.map((key) => ({ key, type: 'Explore' })));
    for (const key of keys) process.stdout.write(`${JSON.stringify([key, aliases.get(key)])}\n`);
  }
  process.stdout.write('done\n');
}

await runWriter(process.argv.slice(2));
