/** Child writer processes for the tests that race two processes on one store file (only tests import it). */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** What a writer process left behind when it exited. */
export interface WriterOutput {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** Starts `script` (TypeScript, run through tsx) with `args`; it prints `ready` and waits for `go` on stdin. */
export function startWriter(script: string, args: readonly string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: process.cwd(), stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Everything the writer printed, and how it exited. */
export async function collect(child: ChildProcess): Promise<WriterOutput> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  return { code, signal, stdout, stderr };
}

/** Resolves once the writer has said `ready`; rejects if it exits first. */
export function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (chunk) => {
      seen += chunk;
      if (seen.includes('ready')) resolve();
    });
    child.once('exit', () => reject(new Error('writer exited before it was ready')));
  });
}

/** Starts two writers, lets them go at once, and returns both outputs in order. */
export async function raceWriters(script: string, first: readonly string[], second: readonly string[]): Promise<[WriterOutput, WriterOutput]> {
  const children = [startWriter(script, first), startWriter(script, second)];
  const results = Promise.all(children.map(collect));
  await Promise.all(children.map(ready));
  for (const child of children) child.stdin?.write('go\n');
  const [a, b] = await results;
  return [a, b];
}
