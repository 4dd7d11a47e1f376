/**
 * History figures (issue 27): what recording adds to a census of 64 unchanged seats and to a 200-agent demo host's
 * CPU, how long showing any moment of 24 h of a 50-agent fleet takes, and how big 24 h of the 50-agent demo makes
 * the store (a real store holding 24 h at a running demo's rate, and 24 h of the demo's past written through the
 * recorder).
 */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemo } from '../../main/dev/demo/index';
import { FleetService } from '../../main/core/fleet/FleetService';
import { ensureBuilt } from '../../main/edges/cli/freshBuild.mjs';
import { HISTORY_CAP_BYTES, HISTORY_SNAPSHOT_EVERY_MS } from '../../main/core/history/bounds';
import { writeDemoHistory } from '../../main/dev/demo/history';
import { ALIAS_MAP_LIMIT } from '../../main/core/history/aliasRules';
import { HistoryService } from '../../main/core/history/HistoryService';
import { migrate, TIMED_TABLES } from '../../main/core/history/schema';
import { inTransaction, openDatabase } from '../../main/core/history/sqlite';
import { openHistoryReader } from '../../main/core/history/store';
import { activity, persona, seat } from '../../main/core/history/testing/records';
import { ensureRendererBuilt } from '../../main/edges/host/rendererBuild';
import { PersonaService } from '../../main/core/personas/PersonaService';
import { createClaudeReader } from '../../main/sources/readers/claude';
import { createEventStream } from '../../main/edges/transport/events';
import { createUpdateSender } from '../../main/edges/transport/updates';
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

/** Rows of each table that grows with the fleet's transitions. */
async function tableRows(file: string): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  const store = await openHistoryReader(file);
  if (!store) return result;
  for (const table of GROWING_TABLES) result.set(table, Number(store.database.prepare(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0));
  store.close();
  return result;
}

/** Tables that grow with the fleet's transitions: the timed ones but whole states, which grow with time alone. */
const GROWING_TABLES = TIMED_TABLES.filter((table) => table !== 'snapshot');

/**
 * A 50-agent demo host: how many rows a minute each table gains, and the size of a real store holding 24 h of them,
 * with a whole state every few minutes and the job aliases up to their bound; then seeks in that day.
 */
async function benchDemoGrowth(log: (line: string) => void, table: BenchTable, seconds: number): Promise<void> {
  const home = await freshHome('pixelfleet-bench-history-50-');
  let host: RunningHost | null = null;
  try {
    host = await startHost({ home, args: ['--demo', '--agents', '50'] });
    await new Promise((done) => setTimeout(done, 5000));
    const file = join(home, 'history.sqlite');
    const before = await tableRows(file);
    const windowFrom = Date.now();
    await new Promise((done) => setTimeout(done, seconds * 1000));
    const windowTo = Date.now();
    const after = await tableRows(file);
    await host.stop();
    host = null;
    const rate = (name: string) => (((after.get(name) ?? 0) - (before.get(name) ?? 0)) / seconds) * 60;
    const perMinute = GROWING_TABLES.reduce((sum, name) => sum + rate(name), 0);
    const detail = GROWING_TABLES.filter((name) => rate(name) > 0)
      .map((name) => `${name} ${rate(name).toFixed(0)}/min`)
      .join(', ');
    log(`50-agent demo host over ${seconds} s: ${perMinute.toFixed(0)} transitions a minute (${detail})`);
    // The day itself: the rows the run recorded, repeated back to back in a fresh store until they span 24 h, with a
    // whole state every few minutes and the job aliases up to their bound; the store's own size is the figure.
    const day = await repeatedDay(file, join(home, 'day.sqlite'), windowFrom, windowTo);
    log(
      `24 h at that rate in a real store: ${(day.bytes / MIB).toFixed(1)} MiB (${day.rows} rows, ${day.snapshots} whole states, ${day.aliases} job aliases; written in ${(day.ms / 1000).toFixed(1)} s; the cap is ${HISTORY_CAP_BYTES / MIB} MiB)`,
    );
    table.add({ figure: 'history store for 24 h of the 50-agent demo (its rate over the run)', goal: below(HISTORY_CAP_BYTES / MIB), value: day.bytes / MIB, unit: 'MiB' });
    // Seeks in that day: each replays up to a few minutes of the demo's busiest rate forward from a whole state.
    const store = await openHistoryReader(join(home, 'day.sqlite'));
    if (store) {
      const cpu: number[] = [];
      for (let round = 0; round < 50; round += 1) {
        const at = windowFrom + Math.floor(Math.random() * 86_400_000);
        const before = process.cpuUsage();
        store.seek(at);
        const used = process.cpuUsage(before);
        cpu.push((used.user + used.system) / 1000);
      }
      store.close();
      log(`seek to 50 random moments of that day: CPU median ${median(cpu).toFixed(1)} ms, slowest ${Math.max(...cpu).toFixed(1)} ms`);
      table.add({ figure: "history seek, any moment of 24 h at the 50-agent demo's live rate (slowest of 50, CPU)", goal: atMost(50), value: Math.max(...cpu), unit: 'ms' });
    }
  } finally {
    await host?.stop();
    await removeHome(home);
  }
}

/**
 * A fresh store holding 24 h of what `live` recorded in `(from, to]`: those rows copied again and again, each copy
 * shifted by the window's length (job rows renumbered), a snapshot every few minutes (the run's newest), and the
 * job aliases repeated up to their bound. Returns the store's live bytes.
 */
async function repeatedDay(live: string, file: string, from: number, to: number): Promise<{ bytes: number; rows: number; snapshots: number; aliases: number; ms: number }> {
  const started = performance.now();
  const database = await openDatabase(file);
  migrate(database);
  database.exec(`ATTACH DATABASE '${live.replaceAll("'", "''")}' AS live`);
  const width = to - from;
  const copies = Math.ceil(86_400_000 / width);
  const jobSpan = Number(database.prepare('SELECT coalesce(max(id), 0) + 1 AS n FROM live.job').get()?.n ?? 1);
  const columns = (table: string) => database.prepare(`PRAGMA live.table_info(${table})`).all().map((row) => String(row.name));
  // Each table's rows of the window, its time shifted by a copy's offset (and a job's row by the copy's renumbering).
  const copy = GROWING_TABLES.map((table) => {
    const parts = columns(table).map((name) => {
      if (name === 'at') return { name, sql: 'at + ?', param: 'time' as const };
      if ((table === 'job' && name === 'id') || (table === 'job_end' && name === 'job')) return { name, sql: `${name} + ?`, param: 'row' as const };
      // Other rowid tables number their rows afresh; tables keyed by time keep the number that orders an instant.
      if (name === 'id' && !['activity', 'needs_you', 'usage_sample'].includes(table)) return { name, sql: 'NULL', param: null };
      return { name, sql: name, param: null };
    });
    const statement = database.prepare(`INSERT INTO main.${table} (${parts.map((part) => part.name).join(', ')}) SELECT ${parts.map((part) => part.sql).join(', ')} FROM live.${table} WHERE at > ? AND at <= ?`);
    return (time: number, row: number) => Number(statement.run(...parts.flatMap((part) => (part.param === 'time' ? [time] : part.param === 'row' ? [row] : [])), from, to).changes);
  });
  database.exec('INSERT INTO main.name SELECT * FROM live.name');
  let rows = 0;
  for (let index = 0; index < copies; index += 1) {
    inTransaction(database, () => {
      for (const write of copy) rows += write(index * width, index * jobSpan);
    });
  }
  const newest = database.prepare('SELECT state FROM live.snapshot ORDER BY at DESC LIMIT 1').get();
  let snapshots = 0;
  inTransaction(database, () => {
    if (!newest) return;
    for (let at = from; at < from + 86_400_000; at += HISTORY_SNAPSHOT_EVERY_MS, snapshots += 1) database.prepare('INSERT INTO main.snapshot (at, state) VALUES (?, ?)').run(at, newest.state as Uint8Array);
  });
  const aliasRows = Number(database.prepare('SELECT count(*) AS n FROM live.alias').get()?.n ?? 0);
  const aliasesPerDay = Math.min(ALIAS_MAP_LIMIT, Math.round(((Number(database.prepare('SELECT count(*) AS n FROM live.alias WHERE at > ? AND at <= ?').get(from, to)?.n ?? 0)) * 86_400_000) / width));
  let aliases = 0;
  for (let round = 0; aliasRows > 0 && aliases < aliasesPerDay; round += 1) {
    inTransaction(database, () => {
      aliases += Number(database.prepare(`INSERT INTO main.alias (key, alias, at) SELECT key || '#' || ?, alias || '#' || ?, at FROM live.alias LIMIT ?`).run(round, round, aliasesPerDay - aliases).changes);
    });
  }
  database.exec('DETACH DATABASE live');
  const bytes = (Number(database.pragma('page_count')) - Number(database.pragma('freelist_count'))) * Number(database.pragma('page_size'));
  database.close();
  return { bytes, rows, snapshots, aliases, ms: performance.now() - started };
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
