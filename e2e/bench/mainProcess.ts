/**
 * The main process at 100 demo agents: browser mode (`pixelfleet web`: the fleet, personas, work, jobs and the host)
 * runs as a child process over a home whose Claude journals, Codex rollouts and OpenCode database the simulator writes
 * from the bench process, at the demo's own rate; the child's peak RSS (VmHWM) and CPU come from /proc. For
 * comparison, the same child with the simulator inside it (`pixelfleet web --demo --agents 100`).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prepareDemo } from '../../main/dev/demo/demoSetup';
import { ensureRendererBuilt } from '../../main/edges/host/rendererBuild';
import { PersonaService } from '../../main/core/personas/PersonaService';
import { followFleet } from '../fleetFollower';
import { ensureBuilt } from '../../main/edges/cli/freshBuild.mjs';
import { freshHome, removeHome, startHost, type RunningHost } from '../host';
import { clockTicks, cpuSeconds } from './measure';
import { atMost, below, type BenchTable } from './table';

/** Agents of the demo fleet measured here. */
const AGENTS = 100;

/** What one browser-mode process did over the measured window. */
interface Watched {
  /** The last snapshot's seats: how many per harness, and how many of them are unknown. */
  seats: { harness: Record<string, number>; unknown: number };
  /** Fleet events (whole snapshots and changes) per second received by a connected client. */
  eventsPerSecond: number;
  /** Fleet and jobs events per second. */
  allEventsPerSecond: number;
  /** Kilobytes of fleet and jobs events per second (their changes, after the first whole snapshot). */
  kilobytesPerSecond: number;
  /** CPU time over wall time, in % of one core (null without /proc). */
  cpuPercent: number | null;
  /** Memory figures of /proc/<pid>/status at the end, in MiB (null without /proc). */
  memory: { peak: number; rss: number; anonymous: number; files: number } | null;
}

/** The clock ticks per second /proc/<pid>/stat counts in. */
/** Peak and current RSS of a process and how much of it is anonymous memory and mapped files, or null. */
async function memory(pid: number): Promise<Watched['memory']> {
  try {
    const text = await readFile(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? Number.NaN) / 1024;
    return { peak: field('VmHWM'), rss: field('VmRSS'), anonymous: field('RssAnon'), files: field('RssFile') };
  } catch {
    return null;
  }
}

/** Watches a running browser mode for `seconds` with one client connected, following the fleet as an open page does. */
async function watch(host: RunningHost, seconds: number): Promise<Watched> {
  const ticks = clockTicks();
  const follower = await followFleet(host);
  const startCounts = { ...follower.counts };
  const cpuBefore = await cpuSeconds(host.pid, ticks);
  const wallBefore = performance.now();
  await new Promise((done) => setTimeout(done, seconds * 1000));
  const cpuAfter = await cpuSeconds(host.pid, ticks);
  const wall = (performance.now() - wallBefore) / 1000;
  const figures = await memory(host.pid);
  follower.close();
  const seats: Watched['seats'] = { harness: {}, unknown: 0 };
  for (const seat of follower.fleet()?.seats ?? []) {
    seats.harness[seat.harness] = (seats.harness[seat.harness] ?? 0) + 1;
    if (seat.activity.state === 'unknown') seats.unknown++;
  }
  const counts = follower.counts;
  const fleetEvents = counts.whole + counts.patches - startCounts.whole - startCounts.patches;
  const allEvents = fleetEvents + counts.jobsWhole + counts.jobsPatches - startCounts.jobsWhole - startCounts.jobsPatches;
  return {
    seats,
    eventsPerSecond: fleetEvents / wall,
    allEventsPerSecond: allEvents / wall,
    kilobytesPerSecond: (counts.bytes - startCounts.bytes) / 1024 / wall,
    cpuPercent: cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) / wall) * 100,
    memory: figures,
  };
}

function describe(watched: Watched): string {
  const cpu = watched.cpuPercent === null ? 'CPU n/a' : `CPU ${watched.cpuPercent.toFixed(1)}% of one core`;
  const { memory: figures } = watched;
  const rss = figures
    ? `peak RSS ${figures.peak.toFixed(0)} MiB (at the end ${figures.rss.toFixed(0)} MiB: ${figures.anonymous.toFixed(0)} anonymous, ${figures.files.toFixed(0)} mapped files)`
    : 'RSS n/a (no /proc)';
  const harnesses = Object.entries(watched.seats.harness).map(([harness, count]) => `${count} ${harness}`).join(', ');
  return `${harnesses || 'no'} seats (${watched.seats.unknown} unknown), ${watched.eventsPerSecond.toFixed(1)} fleet updates/s (${watched.allEventsPerSecond.toFixed(1)} fleet and jobs updates/s, ${watched.kilobytesPerSecond.toFixed(0)} KB/s), ${cpu}, ${rss}`;
}

/** Runs both measurements and adds the figure without the simulator to the table. */
export async function benchMainProcess(log: (line: string) => void, table: BenchTable, seconds: number): Promise<void> {
  // Built beforehand, so neither build runs inside (and inflates) the measured process.
  const built = ensureBuilt({ say: log });
  if (!built.ok) throw new Error(built.reason);
  await ensureRendererBuilt(log);

  const home = await freshHome('pixelfleet-bench-main-');
  const demo = await prepareDemo({ home, agents: AGENTS, log });
  let host: RunningHost | null = null;
  try {
    const personas = new PersonaService({ file: join(home, 'personas.json') });
    await demo.seatPersonas(personas);
    personas.dispose();
    await writeFile(join(home, 'settings.json'), JSON.stringify({ workSources: [{ kind: 'markdown', dir: demo.backlogDir }] }));
    host = await startHost({
      home,
      env: { CLAUDE_CONFIG_DIR: demo.claudeHome, CODEX_HOME: demo.codexHome, OPENCODE_DB: demo.openCodeDb ?? '' },
    });
    const watched = await watch(host, seconds);
    if (watched.memory === null) log(`the main process could not be read in /proc; its output:\n${host.output().slice(-2000)}`);
    log(`main process at ${AGENTS} demo agents for ${seconds} s, the simulator in another process: ${describe(watched)}`);
    table.add({ figure: `main process at ${AGENTS} demo agents, peak RSS without the simulator`, goal: below(150), value: watched.memory?.peak ?? null, unit: 'MiB' });
    // Issue 43's rows: the same process and window, against the goals for a watcher owners keep.
    table.add({ figure: `main process at ${AGENTS} demo agents, simulator apart: CPU`, goal: atMost(12), value: watched.cpuPercent, unit: '% of a core' });
    table.add({ figure: `main process at ${AGENTS} demo agents: peak RSS`, goal: atMost(120), value: watched.memory?.peak ?? null, unit: 'MiB' });
  } finally {
    await host?.stop();
    await demo.stop();
    await removeHome(home);
  }

  // The figure the issue first gave, with the simulator writing from inside the measured process.
  const demoHome = await freshHome('pixelfleet-bench-demo-');
  try {
    host = await startHost({ home: demoHome, args: ['--demo', '--agents', String(AGENTS)] });
    log(`main process at ${AGENTS} demo agents for ${seconds} s, simulator included (for comparison): ${describe(await watch(host, seconds))}`);
  } finally {
    await host?.stop();
    await removeHome(demoHome);
  }
}
