/**
 * Codex reader figures: a temp Codex home with 4,096 rollouts (one parent with children among them) — cold
 * discovery time (no header index yet), warm discovery (a new reader over the same app home, its header index on
 * disk), warm read time and bytes read when nothing changed. Prints figures; asserts nothing.
 */
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SeatAddress } from '../../shared/schemas';
import { countingFileSystem } from '../../main/sources/readers/codex/fileSystem';
import { callLine, eventLine, headerLine, makeHome, messageLine, notificationText, outputLine, threadId } from '../../main/dev/testing/codexRollout';
import { createCodexReader, type CodexReaderOptions } from '../../main/sources/readers/codex/reader';
import { CODEX_HEADER_INDEX_FILE } from '../../main/sources/readers/codex/headerIndexFile';
import { atMost, below, type BenchTable } from './table';

const ROLLOUTS = 4096;
const CHILDREN = 24;
const DAYS = 16;
/** Warm discoveries measured; the median is the figure (a busy 2-core machine stretches some runs). */
const WARM_RUNS = 9;

/** Builds the home, measures the Codex reader, and deletes the home. */
export async function benchCodex(log: (line: string) => void, table: BenchTable): Promise<void> {
  const home = await makeHome();
  const appHome = await makeHome();
  try {
    const parentId = threadId(1);
    const perDay = Math.ceil(ROLLOUTS / DAYS);
    let parentPath = '';
    for (let index = 0; index < ROLLOUTS; index++) {
      const day = String(1 + Math.floor(index / perDay)).padStart(2, '0');
      const folder = join(home, 'sessions', '2026', '04', day);
      if (index % perDay === 0) await mkdir(folder, { recursive: true });
      const second = String(index % 60).padStart(2, '0');
      const minute = String(Math.floor(index / 60) % 60).padStart(2, '0');
      const time = `2026-04-${day}T10-${minute}-${second}`;
      const at = `2026-04-${day}T10:${minute}:${second}.000Z`;
      const last = index === ROLLOUTS - 1;
      const childIndex = ROLLOUTS - 2 - index;
      const id = last ? parentId : threadId(100 + index);
      let lines: string[];
      if (last) {
        // The parent is the newest rollout; its children are the rollouts just before it in the same folders.
        lines = [headerLine({ id, timestamp: at, padding: 4000 })];
        for (let turn = 0; turn < 2000; turn++) lines.push(messageLine(at, 'assistant', `progress note ${turn} `.repeat(20)), eventLine(at, 'token_count'));
        for (let child = 0; child < CHILDREN; child++) {
          const childId = threadId(100 + ROLLOUTS - 2 - child);
          lines.push(callLine(at, 'wait_agent', { targets: [childId] }, `w${child}`), outputLine(at, `w${child}`, { status: { [childId]: { completed: 'ok' } }, timed_out: false }));
          lines.push(messageLine(at, 'user', notificationText(childId, { completed: 'ok' })));
        }
      } else if (childIndex < CHILDREN) {
        lines = [headerLine({ id, timestamp: at, parent: parentId, nickname: `Child${childIndex}`, role: 'explorer', padding: 4000 })];
      } else {
        lines = [headerLine({ id, timestamp: at, padding: 4000 }), messageLine(at, 'user', 'other session')];
      }
      const path = join(folder, `rollout-${time}-${id}.jsonl`);
      await writeFile(path, lines.map((line) => `${line}\n`).join(''));
      if (last) parentPath = path;
    }
    const seat: SeatAddress = { harness: 'codex', home, sessionId: parentId, path: parentPath };
    const fs = countingFileSystem();
    const headerIndex: CodexReaderOptions['headerIndex'] = { file: join(appHome, CODEX_HEADER_INDEX_FILE), log };
    const reader = createCodexReader({ home, fs, headerIndex });

    let started = performance.now();
    const candidates = await reader.discover();
    const coldDiscovery = performance.now() - started;
    const indexBytes = (await stat(headerIndex.file)).size;
    log(`lobby discovery of ${ROLLOUTS} rollouts, cold: ${coldDiscovery.toFixed(1)} ms, ${candidates.length} candidates, ${fs.counts.readHeader} header reads, ${fs.counts.readdir} directory reads, header index written (${indexBytes} bytes)`);
    table.add({ figure: `Codex lobby discovery, ${ROLLOUTS} rollouts, cold`, goal: atMost(2200), value: coldDiscovery, unit: 'ms' });
    reader.dispose();
    // Warm: a new reader (as a new start of the app or the CLI) over the same app home and Codex home, nothing changed.
    const warmTimes: number[] = [];
    const warmCpu: number[] = [];
    let warmFs = countingFileSystem();
    for (let run = 0; run < WARM_RUNS; run++) {
      warmFs = countingFileSystem();
      const warm = createCodexReader({ home, fs: warmFs, headerIndex });
      const cpuBefore = process.cpuUsage();
      started = performance.now();
      await warm.discover();
      warmTimes.push(performance.now() - started);
      const cpu = process.cpuUsage(cpuBefore);
      warmCpu.push((cpu.user + cpu.system) / 1000);
      warm.dispose();
    }
    warmTimes.sort((left, right) => left - right);
    // CPU time (this process, all threads) says what the run cost when other work on the machine stretches wall time.
    warmCpu.sort((left, right) => left - right);
    const warmDiscovery = warmTimes[Math.floor(WARM_RUNS / 2)];
    log(`lobby discovery, warm (new reader, same app home, nothing changed): median ${warmDiscovery.toFixed(1)} ms of ${WARM_RUNS} (${warmTimes[0].toFixed(1)}–${warmTimes[WARM_RUNS - 1].toFixed(1)}; CPU median ${warmCpu[Math.floor(WARM_RUNS / 2)].toFixed(1)} ms), ${warmFs.counts.readHeader} header reads, ${warmFs.counts.stat} stats, ${warmFs.counts.readdir} directory reads`);
    table.add({ figure: `Codex lobby discovery, ${ROLLOUTS} rollouts, warm`, goal: below(50), value: warmDiscovery, unit: 'ms' });

    const cold = createCodexReader({ home, fs: countingFileSystem() });
    started = performance.now();
    const first = await cold.project(seat);
    const coldMs = performance.now() - started;
    if (!first.ok) throw new Error(first.reason);
    log(`cold project (tail parent + child discovery over ${ROLLOUTS} headers): ${coldMs.toFixed(1)} ms, ${first.read.bytes} bytes read, ${first.subagents.recent.length} recent of ${CHILDREN} children`);

    const counting = countingFileSystem();
    const warmReader = createCodexReader({ home, fs: counting });
    await warmReader.project(seat);
    const before = { ...counting.counts };
    const rounds = 100;
    let bytes = 0;
    started = performance.now();
    for (let round = 0; round < rounds; round++) {
      const again = await warmReader.project(seat);
      if (again.ok) bytes += again.read.bytes;
    }
    const warmMs = (performance.now() - started) / rounds;
    log(`warm read, nothing changed: ${warmMs.toFixed(2)} ms per read, ${bytes / rounds} bytes read per read, ${(counting.counts.readdir - before.readdir) / rounds} directory reads per read, ${(counting.counts.stat - before.stat) / rounds} stats per read`);
  } finally {
    await rm(home, { recursive: true, force: true });
    await rm(appHome, { recursive: true, force: true });
  }
}
