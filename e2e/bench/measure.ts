/**
 * Measuring helpers the bench areas share: paired timings taken in turn, a process's CPU time from /proc, and a
 * generated file flushed to disk before it is read.
 */
import { spawnSync } from 'node:child_process';
import { open, readFile } from 'node:fs/promises';

/** Something read fresh once per round (a fleet census). */
export interface FreshReader {
  read(options: { fresh: true }): Promise<unknown>;
}

/**
 * Milliseconds of `rounds` fresh reads of each of two readers, taken in turn (first one leads, then the other), so a
 * busy machine stretches both alike. Returns the first reader's times, then the second's.
 */
export async function timeInTurn(first: FreshReader, second: FreshReader, rounds: number): Promise<[number[], number[]]> {
  const firstTimes: number[] = [];
  const secondTimes: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const order: [FreshReader, number[]][] = round % 2 === 0 ? [[first, firstTimes], [second, secondTimes]] : [[second, secondTimes], [first, firstTimes]];
    for (const [reader, times] of order) {
      const before = performance.now();
      await reader.read({ fresh: true });
      times.push(performance.now() - before);
    }
  }
  return [firstTimes, secondTimes];
}

/** Clock ticks per second for /proc's CPU figures (100 when getconf cannot say). */
export function clockTicks(): number {
  const result = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const ticks = Number(result.stdout?.trim());
  return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
}

/** User plus system CPU seconds of a process so far, or null when /proc cannot say. */
export async function cpuSeconds(pid: number, ticks: number): Promise<number | null> {
  try {
    const text = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces) in parentheses: state is the first, utime the 12th.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticks;
  } catch {
    return null;
  }
}

/**
 * Flushes a file just written to disk, so its write-back does not run under the reads timed next; returns the
 * seconds it took.
 */
export async function flushToDisk(path: string): Promise<number> {
  const started = performance.now();
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  return (performance.now() - started) / 1000;
}
