/**
 * History figures (issue 27): what recording adds to a census of 64 unchanged seats and to a 200-agent demo host's
 * CPU, how long showing any moment of 24 h of a 50-agent fleet takes, and how big 24 h of the 50-agent demo makes
 * the store (measured from a running demo's growth, and from 24 h of the demo's past written through the recorder).
 */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemo } from '../../main/demo/index';
import { FleetService } from '../../main/fleet/FleetService';
import { ensureBuilt } from '../../main/build/freshBuild.mjs';
import { HISTORY_CAP_BYTES, HISTORY_SNAPSHOT_EVERY_MS } from '../../main/history/bounds';
import { writeDemoHistory } from '../../main/history/demoHistory';
import { HistoryService } from '../../main/history/HistoryService';
import { openHistoryReader } from '../../main/history/store';
import { activity, persona, seat } from '../../main/history/testing/records';
import { ensureRendererBuilt } from '../../main/host/rendererBuild';
import { PersonaService } from '../../main/personas/PersonaService';
import { createClaudeReader } from '../../main/readers/claude';
import { createEventStream } from '../../main/transport/events';
import { createUpdateSender } from '../../main/transport/updates';
import { freshHome, removeHome, startHost, type RunningHost } from '../host';
import { clockTicks, cpuSeconds, timeInTurn } from './measure';
import { atMost, below, median, type BenchTable } from './table';

const MIB = 1024 * 1024;

/** Census of 64 unchanged seats, with the history recorder subscribed to the change stream as the app wires it, and without. */
async function benchCensus(log: (line: string) => void, table: BenchTable): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'pixelfleet-bench-history-'));
  try {
    const demo = await startDemo({ home: join(dir, 'demo'), agents: 64, seed: 3, speed: 0 });
    for (let step = 0; step < 40; step++) await demo.step();
    await demo.stop();
    // Past the activity rules' quiet times (a turn inferred done after 5 s, an approval after 10 s), so nothing changes.
    await new Promise((done) => setTimeout(done, 11_000));
    const personas = new PersonaService({ file: join(dir, 'personas.json') });
    for (const session of demo.sessions) {
      await personas.hire({ name: session.suggestedName, seat: { harness: 'claude', home: demo.claudeHome, sessionId: session.sessionId, cwd: session.cwd, path: session.path } });
    }
    const reader = createClaudeReader({ home: demo.claudeHome });
    const history = await HistoryService.open({ file: join(dir, 'history.sqlite'), record: true });
    const wire = (fleet: FleetService, withHistory: boolean) => {
      const events = createEventStream(log);
      const updates = createUpdateSender(events.emit);
      if (withHistory) events.onEvent((event, payload) => history.onEvent(event, payload));
      fleet.onChange((snapshot) => updates.fleet(snapshot));
    };
    const recorded = new FleetService({ personas, readers: { claude: reader } });
    const bare = new FleetService({ personas, readers: { claude: reader } });
    wire(recorded, true);
    wire(bare, false);
    for (let round = 0; round < 5; round++) {
      await recorded.read({ fresh: true });
      await bare.read({ fresh: true });
    }
    const rowsBefore = await countRows(join(dir, 'history.sqlite'));
    const rounds = 100;
    const [withTimes, withoutTimes] = await timeInTurn(recorded, bare, rounds);
    const written = (await countRows(join(dir, 'history.sqlite'))) - rowsBefore;
    const withMs = median(withTimes);
    const withoutMs = median(withoutTimes);
    log(`census of 64 unchanged seats with history: median ${withMs.toFixed(2)} ms; without: ${withoutMs.toFixed(2)} ms; rows written over ${rounds} unchanged censuses: ${written} (must be 0)`);
    table.add({ figure: 'census of 64 unchanged seats with history, over the same without', goal: atMost(1.1), value: withMs / withoutMs, unit: '×', also: { text: 'writing 0 rows', holds: written === 0 } });
    recorded.dispose();
    bare.dispose();
    history.dispose();
    reader.dispose();
    personas.dispose();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function countRows(file: string): Promise<number> {
  const store = await openHistoryReader(file);
  if (!store) return 0;
  const tables = ['seat_event', 'activity', 'needs_you', 'persona_event', 'job', 'launch', 'usage_sample', 'snapshot'];
  const count = tables.reduce((sum, table) => sum + Number(store.database.prepare(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0), 0);
  store.close();
  return count;
}

/** Two 200-agent demo hosts side by side over the same window, one recording history and one with history.days 0. */
async function benchHostCpu(log: (line: string) => void, table: BenchTable, seconds: number): Promise<void> {
  const built = ensureBuilt({ say: log });
  if (!built.ok) throw new Error(built.reason);
  await ensureRendererBuilt(log);
  const ticks = clockTicks();
  const homes = [await freshHome('pixelfleet-bench-history-on-'), await freshHome('pixelfleet-bench-history-off-')];
  await writeFile(join(homes[1], 'settings.json'), JSON.stringify({ history: { days: 0 } }));
  const hosts: RunningHost[] = [];
  try {
    for (const home of homes) hosts.push(await startHost({ home, args: ['--demo', '--agents', '200'] }));
    // Past the start (the demo's past hour, the first census) before measuring.
    await new Promise((done) => setTimeout(done, 10_000));
    const before = await Promise.all(hosts.map((host) => cpuSeconds(host.pid, ticks)));
    const historyBefore = (await stat(join(homes[0], 'history.sqlite'))).size;
    const wallBefore = performance.now();
    await new Promise((done) => setTimeout(done, seconds * 1000));
    const after = await Promise.all(hosts.map((host) => cpuSeconds(host.pid, ticks)));
    const wall = (performance.now() - wallBefore) / 1000;
    const growth = (await stat(join(homes[0], 'history.sqlite'))).size - historyBefore;
    const [on, off] = [0, 1].map((index) => (before[index] === null || after[index] === null ? null : ((after[index]! - before[index]!) / wall) * 100));
    log(`200-agent demo hosts over the same ${seconds} s: with history ${on?.toFixed(1) ?? 'n/a'} %, without ${off?.toFixed(1) ?? 'n/a'} % of one core; the store file grew ${(growth / 1024).toFixed(0)} KiB`);
    table.add({ figure: '200-agent demo host CPU with history, over the same without', goal: atMost(1.15), value: on !== null && off ? on / off : null, unit: '×' });
  } finally {
    for (const host of hosts) await host.stop();
    for (const home of homes) await removeHome(home);
  }
}

/** Bytes per table (with its indexes) of a store, from SQLite's own page accounting. */
async function tableBytes(file: string): Promise<{ rows: number; transitionBytes: number; snapshots: number; snapshotBytes: number }> {
  const store = await openHistoryReader(file);
  if (!store) return { rows: 0, transitionBytes: 0, snapshots: 0, snapshotBytes: 0 };
  const pages = store.database.prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name").all();
  const bytes = (match: (name: string) => boolean) => pages.filter((page) => match(String(page.name))).reduce((sum, page) => sum + Number(page.bytes), 0);
  const tables = ['seat_event', 'activity', 'needs_you', 'persona_event', 'job', 'launch', 'usage_sample'];
  const rows = tables.reduce((sum, table) => sum + Number(store.database.prepare(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0), 0);
  const snapshots = Number(store.database.prepare('SELECT count(*) AS n FROM snapshot').get()?.n ?? 0);
  const result = {
    rows,
    transitionBytes: bytes((name) => tables.some((table) => name === table || name.startsWith(`${table}_`) || name === 'sqlite_autoindex_job_1')),
    snapshots,
    snapshotBytes: bytes((name) => name === 'snapshot' || name === 'snapshot_at'),
  };
  store.close();
  return result;
}

/**
 * A 50-agent demo host: how many transitions a minute it records, at the bytes a transition takes in its own store,
 * plus a whole state every few minutes, over 24 h.
 */
async function benchDemoGrowth(log: (line: string) => void, table: BenchTable, seconds: number): Promise<void> {
  const home = await freshHome('pixelfleet-bench-history-50-');
  let host: RunningHost | null = null;
  try {
    host = await startHost({ home, args: ['--demo', '--agents', '50'] });
    await new Promise((done) => setTimeout(done, 5000));
    const file = join(home, 'history.sqlite');
    const before = await tableBytes(file);
    await new Promise((done) => setTimeout(done, seconds * 1000));
    const after = await tableBytes(file);
    const perMinute = ((after.rows - before.rows) / seconds) * 60;
    const bytesPerRow = after.transitionBytes / Math.max(1, after.rows);
    const bytesPerSnapshot = after.snapshotBytes / Math.max(1, after.snapshots);
    const perDay = perMinute * 1440 * bytesPerRow + (86_400_000 / HISTORY_SNAPSHOT_EVERY_MS) * bytesPerSnapshot;
    log(
      `50-agent demo host over ${seconds} s: ${perMinute.toFixed(0)} transitions a minute at ${bytesPerRow.toFixed(0)} bytes each (with indexes), a whole state every ${HISTORY_SNAPSHOT_EVERY_MS / 60_000} min at ${(bytesPerSnapshot / 1024).toFixed(0)} KiB; 24 h: ${(perDay / MIB).toFixed(1)} MiB (the cap is ${HISTORY_CAP_BYTES / MIB} MiB)`,
    );
    table.add({ figure: 'history store for 24 h of the 50-agent demo (its rate over the run)', goal: below(HISTORY_CAP_BYTES / MIB), value: perDay / MIB, unit: 'MiB' });
  } finally {
    await host?.stop();
    await removeHome(home);
  }
}

/** 24 h of a 50-agent fleet's past written through the recorder: the store's size and seeks to random moments. */
async function benchSeek(log: (line: string) => void, table: BenchTable): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'pixelfleet-bench-history-seek-'));
  try {
    const now = Date.now();
    const service = await HistoryService.open({ file: join(dir, 'history.sqlite'), record: true, now: () => now });
    const personas = Array.from({ length: 50 }, (_, index) => persona(`p${index}`, `Agent ${index}`, ['builder', 'tester', 'planner', 'reviewer'][index % 4]));
    const seats = personas.map((entry, index) => seat(`claude:s${index}`, entry.id, activity('working', new Date(now).toISOString())));
    const started = performance.now();
    writeDemoHistory(service.writer!, { seats, personas: personas.map((entry, index) => ({ ...entry, seat: seats[index].address })) }, now, { hours: 24 });
    const rows = await countRows(join(dir, 'history.sqlite'));
    log(`24 h of 50 agents written through the recorder in ${((performance.now() - started) / 1000).toFixed(1)} s: ${rows} rows`);
    const times: number[] = [];
    const cpu: number[] = [];
    let seed = 1;
    // The first seek opens the file's pages and compiles the queries; it is shown apart.
    let before = performance.now();
    service.at(new Date(now - 43_200_000).toISOString());
    const firstMs = performance.now() - before;
    for (let round = 0; round < 200; round++) {
      seed = (seed * 48271) % 2147483647;
      const at = new Date(now - (seed / 2147483647) * 86_400_000).toISOString();
      const cpuBefore = process.cpuUsage();
      before = performance.now();
      const moment = service.at(at);
      times.push(performance.now() - before);
      const used = process.cpuUsage(cpuBefore);
      cpu.push((used.user + used.system) / 1000);
      if (moment.snapshot.seats.length !== 50) throw new Error(`a seek to ${at} gave ${moment.snapshot.seats.length} seats`);
    }
    const sorted = [...times].sort((first, second) => first - second);
    const cpuSorted = [...cpu].sort((first, second) => first - second);
    log(`seek to 200 random moments of the 24 h (the world as the page gets it): wall median ${median(times).toFixed(1)} ms, p95 ${sorted[Math.floor(sorted.length * 0.95)].toFixed(1)} ms, slowest ${sorted.at(-1)!.toFixed(1)} ms; CPU median ${median(cpu).toFixed(1)} ms, slowest ${cpuSorted.at(-1)!.toFixed(1)} ms; the first seek ${firstMs.toFixed(1)} ms`);
    // CPU time, not wall: on a shared machine a seek's wall time includes waiting for a core.
    table.add({ figure: 'history seek, any moment of 24 h of 50 agents (slowest of 200, CPU)', goal: atMost(50), value: cpuSorted.at(-1)!, unit: 'ms' });
    const bytes = service.writer ? (service as unknown as { store: { sizeBytes(): number } }).store.sizeBytes() : 0;
    log(`24 h of the 50-agent demo's past as the recorder writes it: ${(bytes / MIB).toFixed(1)} MiB`);
    table.add({ figure: 'history store for 24 h of 50 agents written through the recorder', goal: below(HISTORY_CAP_BYTES / MIB), value: bytes / MIB, unit: 'MiB' });
    service.dispose();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs the history figures. */
export async function benchHistory(log: (line: string) => void, table: BenchTable): Promise<void> {
  const seconds = Number(process.env.PIXELFLEET_BENCH_DEMO_SECONDS ?? 30);
  await benchCensus(log, table);
  await benchSeek(log, table);
  await benchDemoGrowth(log, table, seconds);
  await benchHostCpu(log, table, seconds);
}
