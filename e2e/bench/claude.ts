/**
 * Benchmark of the Claude reader on generated journals (written to a temp folder and deleted afterwards): cold read
 * of a large journal beside a whole-file stream parse, a refresh of 64 unchanged seats, steady appends, a census of
 * a seat with many subagent files while a call waits for its locator, peak RSS.
 * Size of the large journal: PIXELFLEET_BENCH_GIB (GiB, default 1).
 */
import { appendFile, mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SeatAddress } from '../../shared/schemas';
import { createClaudeReader } from '../../main/sources/readers/claude/reader';
import { createFold, foldLine } from '../../main/sources/readers/claude/journalFold';
import { summarize } from '../../main/sources/readers/claude/reducer';
import { agentCall, assistantLine, isoAt, notificationText, textBlock, toolCall, toolResult, userLine } from '../../main/dev/testing/claudeJournal';
import { DEFAULT_TAIL, tailReduce } from '../../main/sources/readers/tail';
import { benchClaudeChildren } from './claudeChildren';
import { flushToDisk } from './measure';
import { atMost, median, type BenchTable } from './table';

const MIB = 1024 * 1024;
const SESSION = 'bench000-0000-4000-8000-000000000000';
/** Same-length stand-in replaced per block so every block carries fresh tool ids. */
const BLOCK_MARK = '@@@@@@';
/** Cold reads of the large journal measured; the figure is their median. */
const COLD_SAMPLES = 11;

/** Runs the Claude reader benchmark and prints plain lines through `log`. */
export async function benchClaude(log: (line: string) => void, table: BenchTable): Promise<void> {
  const gib = Number(process.env.PIXELFLEET_BENCH_GIB ?? '1');
  const targetBytes = Math.max(4 * MIB, Math.round((Number.isFinite(gib) && gib > 0 ? gib : 1) * 1024 * MIB));
  const home = await mkdtemp(path.join(tmpdir(), 'pixelfleet-bench-claude-'));
  try {
    const folder = path.join(home, 'projects', '-bench-work');
    await mkdir(folder, { recursive: true });
    const seat = (sessionId: string): SeatAddress => ({ harness: 'claude', home, sessionId, cwd: null, path: path.join(folder, `${sessionId}.jsonl`) });

    const block = sampleBlock(MIB);
    let started = performance.now();
    const written = await writeJournal(seat(SESSION).path as string, block, targetBytes);
    log(`claude: generated ${mib(written)} MiB journal in ${seconds(performance.now() - started)} s`);
    log(`claude: flushed it to disk in ${(await flushToDisk(seat(SESSION).path as string)).toFixed(1)} s`);

    // Cold reads through the reader: only the last 2 MiB. Each is of a seat the reader holds no state for (forget()
    // drops it), so each reads the window afresh; the first in the process also pays for compiling the parser.
    const reader = createClaudeReader({ home });
    const coldTimes: number[] = [];
    let coldBytes = 0;
    let cold;
    for (let sample = 0; sample < COLD_SAMPLES; sample++) {
      reader.forget(seat(SESSION));
      started = performance.now();
      cold = await reader.project(seat(SESSION));
      coldTimes.push(performance.now() - started);
      if (!cold.ok) throw new Error(`bench: cold read failed: ${cold.reason}`);
      coldBytes = Math.max(coldBytes, cold.read.bytes);
    }
    const coldMs = median(coldTimes);
    const limit = DEFAULT_TAIL.coldBytes + longestLine(block);
    const subagents = cold?.ok ? `running ${cold.subagents.running}, recent ${cold.subagents.recent.length}` : '';
    log(`claude: cold read ${coldBytes} bytes: median ${coldMs.toFixed(1)} ms of ${COLD_SAMPLES} (first ${coldTimes[0].toFixed(1)} ms, fastest ${Math.min(...coldTimes).toFixed(1)} ms; ${subagents})`);
    log(`claude: cold read bytes ≤ 2 MiB + one line (${limit}): ${coldBytes <= limit ? 'yes' : 'NO'}`);
    table.add({ figure: 'Claude cold read of the last 2 MiB', goal: atMost(20), value: coldMs, unit: 'ms', also: { text: 'reading ≤ 2 MiB + one line', holds: coldBytes <= limit } });

    // Baseline: what a whole-file reader pays, streaming and parsing every line from the start (the reader's own
    // tail → parse → reduce step, no window), so the ratio isolates the bounded read.
    started = performance.now();
    const whole = { coldBytes: Number.MAX_SAFE_INTEGER, maxLineBytes: DEFAULT_TAIL.maxLineBytes };
    const { derived: baseline } = await tailReduce(seat(SESSION).path as string, null, whole, createFold(), () => createFold(), foldLine);
    const baselineMs = performance.now() - started;
    log(`claude: whole-file stream parse ${mib(written)} MiB in ${seconds(baselineMs)} s (${(mib(written) / (baselineMs / 1000)).toFixed(1)} MiB/s, running ${summarize(baseline.projection).running})`);
    log(`claude: cold read is ${(baselineMs / coldMs).toFixed(0)}x faster than the whole-file parse`);

    // 64 seats, each read once, then refreshed unchanged.
    const seats: SeatAddress[] = [];
    for (let index = 0; index < 64; index++) {
      const id = `seat${String(index).padStart(4, '0')}-0000-4000-8000-000000000000`;
      const text = block.replaceAll(BLOCK_MARK, String(index).padStart(6, '0')).slice(0, 256 * 1024);
      await writeFile(seat(id).path as string, text.slice(0, text.lastIndexOf('\n') + 1));
      seats.push(seat(id));
    }
    for (const address of seats) await reader.project(address);
    started = performance.now();
    let refreshBytes = 0;
    for (const address of seats) {
      const refreshed = await reader.project(address);
      if (refreshed.ok) refreshBytes += refreshed.read.bytes;
    }
    log(`claude: refresh of 64 unchanged seats in ${(performance.now() - started).toFixed(2)} ms, bytes read ${refreshBytes} (must be 0): ${refreshBytes === 0 ? 'yes' : 'NO'}`);

    // Steady appends: 64 appends of 1 MiB each to the large journal, projected after each one.
    let appendedBytes = 0;
    let projectMs = 0;
    for (let index = 0; index < 64; index++) {
      const chunk = block.replaceAll(BLOCK_MARK, `z${String(index).padStart(5, '0')}`);
      await appendFile(seat(SESSION).path as string, chunk);
      const before = performance.now();
      const projection = await reader.project(seat(SESSION));
      projectMs += performance.now() - before;
      if (projection.ok) appendedBytes += projection.read.bytes;
    }
    log(`claude: steady appends parsed ${mib(appendedBytes)} MiB in ${seconds(projectMs)} s (${(mib(appendedBytes) / (projectMs / 1000)).toFixed(1)} MiB/s)`);
    await benchClaudeChildren(log);
    log(`claude: peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(1)} MiB`);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/** About `bytes` of realistic lines: prompts, text, tool calls with outputs, agent spawns and their endings. */
function sampleBlock(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  let turn = 0;
  const push = (line: string) => {
    lines.push(line);
    size += line.length + 1;
  };
  const context = (seconds: number) => ({ sessionId: SESSION, at: isoAt(seconds) });
  while (size < bytes) {
    const base = turn * 60;
    const id = (suffix: string) => `toolu_${BLOCK_MARK}_${turn}_${suffix}`;
    push(userLine(context(base), `Please look at part ${turn} of the project and fix what you find.`));
    push(assistantLine(context(base + 1), `msg_${BLOCK_MARK}_${turn}_a`, [textBlock('Let me look at the files first.')]));
    push(assistantLine(context(base + 2), `msg_${BLOCK_MARK}_${turn}_a`, [toolCall(id('read'), 'Read', { file_path: `/work/demo/src/part${turn}.ts` })]));
    push(userLine(context(base + 3), [toolResult(id('read'), `export const part = ${turn};\n`.repeat(120))], { type: 'text' }));
    push(assistantLine(context(base + 4), `msg_${BLOCK_MARK}_${turn}_b`, [toolCall(id('bash'), 'Bash', { command: 'npm test', description: 'Run tests' })]));
    push(userLine(context(base + 5), [toolResult(id('bash'), 'ok 1 - passes\n'.repeat(200))], { stdout: 'ok', stderr: '' }));
    push(JSON.stringify({ type: 'progress', timestamp: isoAt(base + 6), sessionId: SESSION, data: { type: 'hook_progress', hookEvent: 'PostToolUse' } }));
    if (turn % 3 === 0) {
      push(assistantLine(context(base + 7), `msg_${BLOCK_MARK}_${turn}_c`, [agentCall(id('agent'), `Review part ${turn}`, { subagent_type: 'Explore' })]));
      push(userLine(context(base + 20), [toolResult(id('agent'), 'Review done.')], { status: 'completed', agentId: `a${BLOCK_MARK}${turn}` }));
    } else if (turn % 3 === 1) {
      push(assistantLine(context(base + 7), `msg_${BLOCK_MARK}_${turn}_c`, [agentCall(id('bg'), `Survey part ${turn}`, { run_in_background: true })]));
      push(userLine(context(base + 8), [toolResult(id('bg'), 'Async agent launched successfully.')], { isAsync: true, status: 'async_launched', agentId: `b${BLOCK_MARK}${turn}` }));
      push(userLine(context(base + 30), notificationText(`b${BLOCK_MARK}${turn}`, 'completed')));
    }
    push(assistantLine(context(base + 40), `msg_${BLOCK_MARK}_${turn}_d`, [textBlock(`Part ${turn} is fixed; the tests pass.`)]));
    turn++;
  }
  return `${lines.join('\n')}\n`;
}

/** Writes the block again and again (fresh ids each time) until the file reaches `target` bytes. */
async function writeJournal(file: string, block: string, target: number): Promise<number> {
  const handle = await open(file, 'w');
  let written = 0;
  try {
    for (let index = 0; written < target; index++) {
      const bytes = Buffer.from(block.replaceAll(BLOCK_MARK, index.toString(36).padStart(6, '0')), 'utf8');
      await handle.write(bytes, 0, bytes.length, written);
      written += bytes.length;
    }
  } finally {
    await handle.close();
  }
  return written;
}

function longestLine(text: string): number {
  return Math.max(...text.split('\n').map((line) => Buffer.byteLength(line) + 1));
}

function mib(bytes: number): number {
  return Math.round((bytes / MIB) * 10) / 10;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(2);
}
