/**
 * A fast writer of large, realistic Claude Code main journals for benchmarks: one ~1 MiB block of simulated lines
 * is built once with a placeholder inside every id, then written repeatedly with fresh ids per copy.
 */
import { createWriteStream } from 'node:fs';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { createIdMaker, createRandom } from './random';
import { SimulatedSession } from './session';

/** Options of a bench journal. */
export interface BenchJournalOptions {
  /** Where to write the journal (parent folders are created). */
  path: string;
  /** Target size in bytes; the file ends at a whole line at or below it. */
  bytes: number;
  seed?: number;
}

/** Four characters that occur only inside ids; replaced by four hex digits per copy. */
const MARK = '@@@@';
const BLOCK_BYTES = 1024 * 1024;
const STEP_MS = 1200;

interface Block {
  text: string;
  lines: number;
  calls: number;
}

function countCalls(text: string): number {
  return text.split('"name":"Agent"').length - 1;
}

/** Simulates one session until ~1 MiB of main-journal lines is written and every subagent has reported back. */
function buildBlock(seed: number): Block {
  const random = createRandom(seed);
  const session = new SimulatedSession({ sessionId: 'b0000000-0000-4000-8000-000000000000', cwd: '/home/demo/src/bench', slug: 'bench-demo' }, random, createIdMaker(random, MARK));
  const parts: string[] = [];
  let size = 0;
  let clockMs = Date.UTC(2026, 0, 1);
  // Settling keeps each copy self-contained: no call of one copy is answered in the next.
  for (let steps = 0; (size < BLOCK_BYTES || session.openChildren > 0) && steps < 1_000_000; steps += 1) {
    clockMs += STEP_MS;
    for (const line of session.step(clockMs).main) {
      parts.push(line);
      size += line.length;
    }
  }
  const text = parts.join('');
  return { text, lines: parts.length, calls: countCalls(text) };
}

/** Writes a journal of about `bytes` bytes; returns how many Agent calls and lines it holds. */
export async function writeJournalForBench(options: BenchJournalOptions): Promise<{ calls: number; lines: number }> {
  if (!Number.isFinite(options.bytes) || options.bytes < 0) throw new Error(`bench journal bytes must be 0 or more, got ${options.bytes}`);
  await fs.mkdir(path.dirname(options.path), { recursive: true });
  const block = buildBlock(options.seed ?? 7);
  const stream = createWriteStream(options.path);
  const closed = once(stream, 'close');
  let written = 0;
  let calls = 0;
  let lines = 0;
  try {
    for (let copy = 0; written < options.bytes; copy += 1) {
      // Four hex digits per copy: ids repeat only after 65,536 copies (64 GiB), far beyond any benchmark.
      let text = block.text.replaceAll(MARK, (copy % 0x10000).toString(16).padStart(4, '0'));
      if (written + text.length > options.bytes) {
        const cut = text.lastIndexOf('\n', options.bytes - written - 1);
        if (cut < 0) break;
        text = text.slice(0, cut + 1);
        calls += countCalls(text);
        lines += text.split('\n').length - 1;
      } else {
        calls += block.calls;
        lines += block.lines;
      }
      written += text.length;
      if (!stream.write(text)) await once(stream, 'drain');
    }
  } finally {
    stream.end();
    await closed;
  }
  return { calls, lines };
}
