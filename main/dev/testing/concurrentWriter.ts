/**
 * A child process for the store tests: `concurrentWriter.ts <file> <tag> <count>` waits for "go" on stdin, then
 * hires `count` personas named `<tag>-<i>` and gives each the role `<tag> role <i>`, racing any other writer.
 * `concurrentWriter.ts <file> crash <json>` writes the text as a temp file and dies before the rename.
 */
import { once } from 'node:events';
import { writeTemp } from '../../kit/fileStore';
import { PersonaService } from '../../core/personas/PersonaService';

/** Runs the mode named on the command line. */
export async function runWriter(argv: string[]): Promise<void> {
  const [file, tag, countText] = argv;
  if (tag === 'crash') {
    await writeTemp(file, countText);
    process.kill(process.pid, 'SIGKILL');
    return;
  }
  const count = Number(countText);
  process.stdout.write('ready\n');
  await once(process.stdin, 'data');
  process.stdin.pause();
  const service = new PersonaService({ file, lockTimeoutMs: 60_000 });
  const hired: string[] = [];
  for (let index = 0; index < count; index += 1) {
    hired.push((await service.hire({ name: `${tag}-${index}` })).id);
    // Interleave role changes with hires so both processes' writes overlap in every kind of change.
    if (index > 0) await service.setRole(hired[index - 1], `${tag} role ${index - 1}`);
  }
  await service.setRole(hired[count - 1], `${tag} role ${count - 1}`);
  service.dispose();
  process.stdout.write('done\n');
}

await runWriter(process.argv.slice(2));
