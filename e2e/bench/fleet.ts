/**
 * Fleet figures: census of 64 seats unchanged (and what the activity projection adds to it) and with one seat
 * appending; the main process at 100 demo agents for 60 s (mainProcess.ts).
 */
import { appendFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMPTY_BASIS } from '../../main/sources/readers/kit/activityBasis';
import { startDemo } from '../../main/dev/demo';
import { FleetService } from '../../main/core/fleet/FleetService';
import { PersonaService } from '../../main/core/personas/PersonaService';
import { createClaudeReader } from '../../main/sources/readers/claude';
import type { Projection, SeatReader } from '../../main/sources/readers/port';
import { UsageLedger } from '../../main/sources/readers/claude/ledger';
import { benchMainProcess } from './mainProcess';
import { timeInTurn } from './measure';
import { atMost, median, type BenchTable } from './table';

/** Wraps a reader to add up the bytes its projections read. */
function countingBytes(reader: SeatReader): { reader: SeatReader; bytes: () => number; reset: () => void } {
  let bytes = 0;
  return {
    reader: {
      harness: reader.harness,
      discover: (options) => reader.discover(options),
      resolve: (sessionId) => reader.resolve(sessionId),
      replay: (seat, id, cursor) => reader.replay(seat, id, cursor),
      watchPaths: (seat) => reader.watchPaths(seat),
      forget: (seat) => reader.forget(seat),
      dispose: () => reader.dispose(),
      async project(seat): Promise<Projection> {
        const projection = await reader.project(seat);
        if (projection.ok) bytes += projection.read.bytes;
        return projection;
      },
    },
    bytes: () => bytes,
    reset: () => {
      bytes = 0;
    },
  };
}

/** The same reader with the activity projection taken out: every projection carries the empty basis. */
function withoutActivity(reader: SeatReader): SeatReader {
  return {
    ...reader,
    async project(seat): Promise<Projection> {
      const projection = await reader.project(seat);
      return projection.ok ? { ...projection, activity: EMPTY_BASIS } : projection;
    },
  };
}

/** Runs the fleet benchmark. */
export async function benchFleet(log: (line: string) => void, table: BenchTable): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'pixelfleet-bench-fleet-'));
  try {
    const demo = await startDemo({ home: join(dir, 'demo'), agents: 64, seed: 3, speed: 0 });
    for (let step = 0; step < 40; step++) await demo.step();
    await demo.stop();
    const personas = new PersonaService({ file: join(dir, 'personas.json') });
    for (const session of demo.sessions) {
      await personas.hire({ name: session.suggestedName, seat: { harness: 'claude', home: demo.claudeHome, sessionId: session.sessionId, cwd: session.cwd, path: session.path } });
    }
    const ledger = new UsageLedger();
    const counted = countingBytes(createClaudeReader({ home: demo.claudeHome, usageLedger: ledger }));
    const fleet = new FleetService({ personas, readers: { claude: counted.reader } });
    let started = performance.now();
    await fleet.read({ fresh: true });
    log(`census of 64 seats, cold: ${(performance.now() - started).toFixed(1)} ms, ${counted.bytes()} bytes read`);
    const rounds = 50;
    // The first censuses share the process with the usage background pass, which reads every journal from its start
    // once; they are reported apart, and the unchanged census is measured once the pass has reached every tail.
    const duringPass: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const before = performance.now();
      await fleet.read({ fresh: true });
      duringPass.push(performance.now() - before);
    }
    const passStarted = performance.now();
    await ledger.idle();
    log(`census of 64 seats while the usage pass reads the journals: median ${median(duringPass).toFixed(2)} ms (the pass finished ${(performance.now() - passStarted).toFixed(0)} ms after)`);
    for (let round = 0; round < 5; round++) await fleet.read({ fresh: true });
    counted.reset();
    const times: number[] = [];
    const censusCpu = process.cpuUsage();
    for (let round = 0; round < rounds; round++) {
      const before = performance.now();
      await fleet.read({ fresh: true });
      times.push(performance.now() - before);
    }
    const cpuUsed = process.cpuUsage(censusCpu);
    // The floor: one stat of each of the 64 journals, eight at a time as the census does.
    const statTimes: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const before = performance.now();
      for (let index = 0; index < demo.sessions.length; index += 8) await Promise.all(demo.sessions.slice(index, index + 8).map((session) => stat(session.path)));
      statTimes.push(performance.now() - before);
    }
    log(`64 stats of the same journals: median ${statTimes.sort((first, second) => first - second)[Math.floor(rounds / 2)].toFixed(2)} ms`);
    // The median: a busy machine stretches some rounds; the census itself is what is measured.
    const unchangedMs = times.sort((first, second) => first - second)[Math.floor(rounds / 2)];
    log(`census of 64 seats, nothing changed: median ${unchangedMs.toFixed(2)} ms per census (CPU ${((cpuUsed.user + cpuUsed.system) / 1000 / rounds).toFixed(2)} ms), ${counted.bytes()} bytes read over ${rounds} censuses (must be 0)`);
    table.add({ figure: 'fleet census, 64 unchanged seats', goal: atMost(2), value: unchangedMs, unit: 'ms', also: { text: 'reading 0 bytes', holds: counted.bytes() === 0 } });
    // What activity costs an unchanged census: the same 64 seats through a fleet whose projections carry no activity,
    // round for round in turn with the full one, so a busy machine stretches both alike.
    const bare = new FleetService({ personas, readers: { claude: withoutActivity(counted.reader) } });
    for (let round = 0; round < 5; round++) await bare.read({ fresh: true });
    const [withTimes, withoutTimes] = await timeInTurn(fleet, bare, rounds * 2);
    bare.dispose();
    const withMs = median(withTimes);
    const withoutMs = median(withoutTimes);
    log(`census of 64 unchanged seats with activity: median ${withMs.toFixed(2)} ms; without activity: ${withoutMs.toFixed(2)} ms (${((withMs / withoutMs - 1) * 100).toFixed(1)} %)`);
    table.add({ figure: 'fleet census, 64 unchanged seats with activity, over the same without', goal: atMost(1.1), value: withMs / withoutMs, unit: '×', also: { text: 'reading 0 bytes', holds: counted.bytes() === 0 } });
    counted.reset();
    const line = `${JSON.stringify({ type: 'assistant', timestamp: new Date().toISOString(), message: { id: 'msg_bench', role: 'assistant', content: [{ type: 'text', text: 'still working' }] } })}\n`;
    started = performance.now();
    for (let round = 0; round < rounds; round++) {
      await appendFile(demo.sessions[0].path, line);
      await fleet.read({ fresh: true });
    }
    log(`census of 64 seats, one seat appending: ${((performance.now() - started) / rounds).toFixed(2)} ms per census, ${(counted.bytes() / rounds).toFixed(0)} bytes read per census`);
    personas.dispose();
    await ledger.dispose();

    await benchMainProcess(log, table, Number(process.env.PIXELFLEET_BENCH_DEMO_SECONDS ?? 60));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
