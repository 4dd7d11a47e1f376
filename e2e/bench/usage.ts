/**
 * Usage figures (issue 26): what usage adds to a census of 64 unchanged seats (over the same seats without it, still
 * reading 0 bytes), the Claude cold read of a large journal with usage projected, and the background pass over it
 * (MiB/s and peak RSS growth). The journal is generated in a temp folder and deleted afterwards.
 * Size of the large journal: PIXELFLEET_BENCH_GIB (GiB, default 1).
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemo } from '../../main/dev/demo';
import { writeJournalForBench } from '../../main/dev/demo/benchJournal';
import { FleetService } from '../../main/core/fleet/FleetService';
import { PersonaService } from '../../main/core/personas/PersonaService';
import { createClaudeReader } from '../../main/sources/readers/claude';
import type { Projection, SeatReader } from '../../main/sources/readers/port';
import { UsageLedger } from '../../main/sources/readers/claude/ledger';
import { flushToDisk, timeInTurn } from './measure';
import { benchBlocks } from './usageBlocks';
import { atLeast, atMost, below, median, type BenchTable } from './table';

const MIB = 1024 * 1024;
const SESSION = 'b0000000-0000-4000-8000-000000000000';

/** The same reader with usage taken out of every projection (the census as it was before usage). */
function withoutUsage(reader: SeatReader): SeatReader {
  return {
    ...reader,
    async project(seat): Promise<Projection> {
      const projection = await reader.project(seat);
      if (!projection.ok) return projection;
      const { usage: _usage, usageTally: _tally, ...rest } = projection;
      void _usage;
      void _tally;
      return rest;
    },
  };
}

function countingBytes(reader: SeatReader): { reader: SeatReader; bytes: () => number } {
  let bytes = 0;
  return {
    reader: {
      ...reader,
      async project(seat): Promise<Projection> {
        const projection = await reader.project(seat);
        if (projection.ok) bytes += projection.read.bytes;
        return projection;
      },
    },
    bytes: () => bytes,
  };
}

async function benchCensus(dir: string, log: (line: string) => void, table: BenchTable): Promise<void> {
  const demo = await startDemo({ home: join(dir, 'demo'), agents: 64, seed: 3, speed: 0 });
  for (let step = 0; step < 40; step++) await demo.step();
  await demo.stop();
  const personas = new PersonaService({ file: join(dir, 'personas.json') });
  for (const session of demo.sessions) {
    await personas.hire({ name: session.suggestedName, seat: { harness: 'claude', home: demo.claudeHome, sessionId: session.sessionId, cwd: session.cwd, path: session.path } });
  }
  const ledger = new UsageLedger();
  const counted = countingBytes(createClaudeReader({ home: demo.claudeHome, usageLedger: ledger }));
  const full = new FleetService({ personas, readers: { claude: counted.reader } });
  const bare = new FleetService({ personas, readers: { claude: withoutUsage(counted.reader) } });
  for (let round = 0; round < 5; round++) {
    await full.read({ fresh: true });
    await bare.read({ fresh: true });
  }
  await ledger.idle();
  const start = counted.bytes();
  const [withTimes, withoutTimes] = await timeInTurn(full, bare, 100);
  const read = counted.bytes() - start;
  const withMs = median(withTimes);
  const withoutMs = median(withoutTimes);
  const snapshot = await full.read();
  const seatsWithUsage = snapshot.seats.filter((seat) => seat.usage).length;
  log(`census of 64 unchanged seats with usage: median ${withMs.toFixed(2)} ms; without: ${withoutMs.toFixed(2)} ms (${((withMs / withoutMs - 1) * 100).toFixed(1)} %), ${read} bytes read, ${seatsWithUsage} seats with usage, fleet line ${snapshot.usage ? 'present' : 'absent'}`);
  table.add({ figure: 'fleet census, 64 unchanged seats with usage, over the same without', goal: atMost(1.1), value: withMs / withoutMs, unit: '×', also: { text: 'reading 0 bytes', holds: read === 0 && seatsWithUsage === 64 } });
  full.dispose();
  bare.dispose();
  personas.dispose();
  await ledger.dispose();
}

async function benchLargeJournal(dir: string, log: (line: string) => void, table: BenchTable): Promise<void> {
  const gib = Number(process.env.PIXELFLEET_BENCH_GIB ?? '1');
  const target = Math.max(4 * MIB, Math.round((Number.isFinite(gib) && gib > 0 ? gib : 1) * 1024 * MIB));
  const home = join(dir, 'claude');
  const journal = join(home, 'projects', '-bench-work', `${SESSION}.jsonl`);
  let started = performance.now();
  await writeJournalForBench({ path: journal, bytes: target });
  const size = (await stat(journal)).size;
  log(`usage: generated ${(size / MIB).toFixed(0)} MiB journal in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  log(`usage: flushed it to disk in ${(await flushToDisk(journal)).toFixed(1)} s`);
  const seat = { harness: 'claude' as const, home, sessionId: SESSION, cwd: null, path: journal };

  // Cold reads with usage projected; the reader's ledger is one that never runs (its pass is measured below).
  const idleLedger = new UsageLedger();
  await idleLedger.dispose();
  const reader = createClaudeReader({ home, usageLedger: idleLedger });
  const times: number[] = [];
  let partial: boolean | undefined;
  for (let sample = 0; sample < 11; sample++) {
    reader.forget(seat);
    const before = performance.now();
    const projection = await reader.project(seat);
    times.push(performance.now() - before);
    if (!projection.ok) throw new Error(projection.reason);
    partial = projection.usage?.partial;
  }
  reader.dispose();
  const coldMs = median(times);
  log(`usage: cold read of the ${(size / MIB).toFixed(0)} MiB journal with usage: median ${coldMs.toFixed(1)} ms (usage partial: ${partial}; load average ${loadavg()[0].toFixed(1)})`);
  table.add({ figure: 'Claude cold read of a large journal, with usage projected', goal: atMost(20), value: coldMs, unit: 'ms', also: { text: 'partial until the pass is done', holds: partial === true } });

  // The background pass over the whole journal, with its checkpoint in an app home.
  const ledger = new UsageLedger({ appHome: join(dir, 'home') });
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  started = performance.now();
  const cpu = process.cpuUsage();
  ledger.lookup(journal, size);
  await ledger.idle();
  const passMs = performance.now() - started;
  const cpuUsed = process.cpuUsage(cpu);
  const cpuMs = (cpuUsed.user + cpuUsed.system) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const view = ledger.lookup(journal, size);
  const done = view !== null && view !== 'missing' && view.done;
  const rate = size / MIB / (passMs / 1000);
  log(`usage: background pass over ${(size / MIB).toFixed(0)} MiB in ${(passMs / 1000).toFixed(2)} s = ${rate.toFixed(0)} MiB/s (CPU ${(cpuMs / 1000).toFixed(2)} s = ${(size / MIB / (cpuMs / 1000)).toFixed(0)} MiB/s of CPU time; load average ${loadavg()[0].toFixed(1)}), peak RSS growth ${((peak - rssBefore) / MIB).toFixed(1)} MiB, done: ${done}`);
  table.add({ figure: 'usage background pass over a large journal', goal: atLeast(150), value: rate, unit: 'MiB/s', also: { text: 'reaching the end', holds: done } });
  table.add({ figure: 'usage background pass, peak RSS growth', goal: below(50), value: (peak - rssBefore) / MIB, unit: 'MiB' });
  await ledger.dispose();
  await benchBlocks(home, join(dir, 'blocks-home'), size / MIB, log, table); // issue 41
}

/** Runs the usage benchmark. */
export async function benchUsage(log: (line: string) => void, table: BenchTable): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'pixelfleet-bench-usage-'));
  try {
    await benchCensus(dir, log, table);
    await benchLargeJournal(dir, log, table);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
