import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { worldSnapshot } from '../../../shared/pastWorld';
import { readDigest, readList } from './queries';
import { HistoryRecorder } from './recorder';
import { TIMED_TABLES } from './schema';
import { openHistoryStore, type HistoryStore } from './store';
import { activity, job, persona, seat } from './testing/records';

const T0 = Date.parse('2026-12-05T08:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const folders: string[] = [];
const stores: HistoryStore[] = [];
afterEach(() => {
  while (stores.length) stores.pop()!.close();
  while (folders.length) rmSync(folders.pop()!, { recursive: true, force: true });
});

async function freshStore(): Promise<HistoryStore> {
  const dir = mkdtempSync(join(tmpdir(), 'pf-history-'));
  folders.push(dir);
  const opened = await openHistoryStore(join(dir, 'history.sqlite'));
  if (!opened.ok) throw new Error(opened.reason);
  stores.push(opened.store);
  return opened.store;
}

function rowCount(store: HistoryStore): number {
  return TIMED_TABLES.reduce((sum, table) => sum + Number(store.database.prepare(`SELECT count(*) AS n FROM ${table}`).get()!.n), 0);
}

describe('history recorder', () => {
  it('records a seat opening, its activity, a wait on a question with how long, a role change and a job, at the records’ own times', async () => {
    const store = await freshStore();
    let now = T0;
    const recorder = new HistoryRecorder(store, () => now);
    const ada = persona('p1', 'Ada', 'builder');
    recorder.fleetWhole({ seats: [seat('claude:a', 'p1', activity('working', iso(T0 - 5000), undefined, 'Read · a.ts'))], personas: [ada] });
    now = T0 + 60_000;
    recorder.fleetPatch({ seats: { set: [seat('claude:a', 'p1', activity('needs-you', iso(T0 + 50_000), 'question', 'AskUserQuestion'))] } });
    now = T0 + 200_000;
    recorder.fleetPatch({ seats: { set: [seat('claude:a', 'p1', activity('working', iso(T0 + 170_000), undefined, 'Edit · a.ts'))] }, personas: { set: [{ ...ada, role: 'tester' }] } });
    recorder.jobsWhole({ jobs: [job('claude:a', 'p1', 'n1', iso(T0 + 180_000))] });
    now = T0 + 400_000;
    recorder.jobsPatch({ jobs: { set: [job('claude:a', 'p1', 'n1', iso(T0 + 180_000), { at: iso(T0 + 390_000), outcome: 'completed' })] } });
    const { events } = readList(store, 0, now, {});
    const brief = events.map((event) => [event.type, event.at]);
    // The first sight of a persona is not a role change; the seat's activity takes the record's own time, clamped
    // to the seat's opening.
    expect(brief).toEqual([
      ['seat.opened', iso(T0)],
      ['activity', iso(T0)],
      ['activity', iso(T0 + 50_000)],
      ['needs-you.entered', iso(T0 + 50_000)],
      ['activity', iso(T0 + 170_000)],
      ['needs-you.left', iso(T0 + 170_000)],
      ['job.started', iso(T0 + 180_000)],
      ['role', iso(T0 + 200_000)],
      ['job.ended', iso(T0 + 390_000)],
    ]);
    expect(events.find((event) => event.type === 'needs-you.left')).toMatchObject({ why: 'question', waitedMs: 120_000 });
    expect(events.filter((event) => event.type === 'role').at(-1)).toMatchObject({ name: 'Ada', role: 'tester', previous: 'builder' });
    expect(events.find((event) => event.type === 'job.ended')).toMatchObject({ alias: 'explore-n1', outcome: 'completed', jobType: 'Explore', parent: 'p1' });
  });

  it('writes nothing when a change carries nothing new (an unchanged seat, an ended job listed again)', async () => {
    const store = await freshStore();
    let now = T0;
    const recorder = new HistoryRecorder(store, () => now);
    const working = seat('claude:a', 'p1', activity('working', iso(T0), undefined, 'Read · a.ts'));
    recorder.fleetWhole({ seats: [working], personas: [persona('p1', 'Ada')] });
    recorder.jobsWhole({ jobs: [job('claude:a', 'p1', 'n1', iso(T0), { at: iso(T0), outcome: 'completed' })] });
    const before = rowCount(store);
    now = T0 + 1000;
    recorder.fleetPatch({ seats: { set: [{ ...working, subagents: { running: 1, recent: [] } }] } });
    recorder.fleetPatch({});
    recorder.jobsPatch({ jobs: { set: [job('claude:a', 'p1', 'n1', iso(T0), { at: iso(T0), outcome: 'completed' })] } });
    expect(rowCount(store)).toBe(before);
    // After a restart the board lists the ended job again (for 30 minutes): still nothing new.
    const restarted = new HistoryRecorder(store, () => now);
    restarted.jobsWhole({ jobs: [job('claude:a', 'p1', 'n1', iso(T0), { at: iso(T0), outcome: 'completed' })] });
    restarted.fleetWhole({ seats: [working], personas: [persona('p1', 'Ada')] });
    expect(rowCount(store)).toBe(before);
  });

  it("a job's end is a row beside its start's row, and a cut by retention keeps a job still running", async () => {
    const store = await freshStore();
    let now = T0;
    const recorder = new HistoryRecorder(store, () => now);
    recorder.fleetWhole({ seats: [seat('claude:a', 'p1', activity('working', iso(T0)))], personas: [persona('p1', 'Ada')] });
    recorder.jobsWhole({ jobs: [job('claude:a', 'p1', 'n1', iso(T0)), job('claude:a', 'p1', 'n2', iso(T0))] });
    now = T0 + 60_000;
    recorder.jobsPatch({ jobs: { set: [job('claude:a', 'p1', 'n1', iso(T0), { at: iso(now), outcome: 'completed' })] } });
    // The jobs came in a second change at T0, after the snapshot taken at T0: they lie 1 ms after it.
    expect(store.database.prepare('SELECT native_id, job.at, e.at AS ended_at, (SELECT text FROM name WHERE name.id = e.outcome) AS outcome FROM job LEFT JOIN job_end e ON e.job = job.id ORDER BY id').all()).toEqual([
      { native_id: 'n1', at: T0 + 1, ended_at: T0 + 60_000, outcome: 'completed' },
      { native_id: 'n2', at: T0 + 1, ended_at: null, outcome: null },
    ]);
    store.dropBefore(T0 + 120_000);
    // The ended job went with its end; the running one stayed.
    expect(store.database.prepare('SELECT native_id FROM job').all()).toEqual([{ native_id: 'n2' }]);
    expect(store.database.prepare('SELECT count(*) AS n FROM job_end').get()).toEqual({ n: 0 });
    now = T0 + 180_000;
    recorder.jobsPatch({ jobs: { set: [job('claude:a', 'p1', 'n2', iso(T0), { at: iso(now), outcome: 'failed' })] } });
    expect(readList(store, T0 + 120_000, now, { kind: 'jobs' }).events).toEqual([expect.objectContaining({ type: 'job.ended', nativeId: 'n2', outcome: 'failed', at: iso(now) })]);
    expect(store.seek(T0 + 150_000).world.jobs.size).toBe(1);
    expect(store.seek(now).world.jobs.size).toBe(0);
  });

  it('a seek gives the world as it was: the old role before a change, the waiting seat, the running job; across snapshots', async () => {
    const store = await freshStore();
    let now = T0;
    const recorder = new HistoryRecorder(store, () => now);
    const ada = persona('p1', 'Ada', 'builder');
    recorder.fleetWhole({ seats: [seat('claude:a', 'p1', activity('working', iso(T0)))], personas: [ada, persona('p2', 'Bo')] });
    // Twenty minutes of changes, one a minute: several snapshots lie between.
    for (let minute = 1; minute <= 20; minute += 1) {
      now = T0 + minute * 60_000;
      const state = minute % 2 === 0 ? activity('needs-you', iso(now), 'question') : activity('working', iso(now), undefined, `Read · ${minute}.ts`);
      recorder.fleetPatch({ seats: { set: [seat('claude:a', 'p1', state)] }, personas: minute === 12 ? { set: [{ ...ada, role: 'tester' }] } : undefined });
      if (minute === 5) recorder.jobsWhole({ jobs: [job('claude:a', 'p1', 'n1', iso(now))] });
    }
    expect(Number(store.database.prepare('SELECT count(*) AS n FROM snapshot').get()!.n)).toBeGreaterThanOrEqual(4);
    const before = worldSnapshot(store.seek(T0 + 11 * 60_000 + 30_000).world);
    expect(before.personas.find((entry) => entry.id === 'p1')?.role).toBe('builder');
    expect(before.stations.find((station) => station.role === 'builder')?.count).toBe(1);
    expect(before.seats[0].activity).toMatchObject({ state: 'working', label: 'Read · 11.ts' });
    expect(before.seats[0].subagents?.running).toBe(1);
    const after = worldSnapshot(store.seek(T0 + 12 * 60_000 + 30_000).world);
    expect(after.personas.find((entry) => entry.id === 'p1')?.role).toBe('tester');
    expect(after.seats[0].activity).toMatchObject({ state: 'needs-you', why: 'question' });
    expect(after.personas.find((entry) => entry.id === 'p1')?.seat?.sessionId).toBe('a');
    // The live world and a seek to now agree.
    const live = worldSnapshot(recorder.current());
    expect(worldSnapshot(store.seek(now).world)).toEqual(live);
    // Before anything was recorded: the oldest state, marked inexact.
    expect(store.seek(T0 - 3_600_000).exact).toBe(false);
  });

  it('the digest lists the agent still waiting first, then waits that ended, turns finished, jobs ended and launches', async () => {
    const store = await freshStore();
    let now = T0;
    const recorder = new HistoryRecorder(store, () => now);
    recorder.fleetWhole({ seats: [seat('claude:a', 'p1', activity('working', iso(T0))), seat('claude:b', 'p2', activity('working', iso(T0)))], personas: [persona('p1', 'Ada', 'builder'), persona('p2', 'Bo')] });
    now = T0 + 60_000;
    recorder.fleetPatch({ seats: { set: [seat('claude:a', 'p1', activity('needs-you', iso(now), 'approval'))] } });
    recorder.launch({ personaId: 'p2', harness: 'claude', name: 'Bo', role: null });
    now = T0 + 120_000;
    recorder.fleetPatch({ seats: { set: [seat('claude:b', 'p2', activity('needs-you', iso(now), 'turn-done'))] } });
    recorder.jobsWhole({ jobs: [job('claude:b', 'p2', 'n9', iso(T0 + 30_000), { at: iso(now), outcome: 'failed' })] });
    now = T0 + 180_000;
    recorder.fleetPatch({ seats: { set: [seat('claude:b', 'p2', activity('working', iso(now)))] } });
    now = T0 + 240_000;
    recorder.fleetPatch({ seats: { set: [seat('claude:b', 'p2', activity('needs-you', iso(now), 'question'))] } });
    now = T0 + 600_000;
    recorder.fleetPatch({ seats: { set: [seat('claude:b', 'p2', activity('working', iso(now)))] } });
    const digest = readDigest(store, T0 + 10_000, now);
    expect(digest.entries.map((entry) => [entry.kind, entry.name])).toEqual([
      ['waiting', 'Ada'],
      ['waited', 'Bo'],
      ['turn-done', 'Bo'],
      ['job-ended', 'Bo'],
      ['launch', 'Bo'],
    ]);
    expect(digest.entries[0]).toMatchObject({ why: 'approval', waitedMs: 540_000, personaId: 'p1', role: 'builder' });
    expect(digest.entries[1]).toMatchObject({ why: 'question', waitedMs: 360_000 });
    expect(digest.entries[2]).toMatchObject({ count: 1 });
    expect(digest.entries[3]).toMatchObject({ alias: 'explore-n9', outcome: 'failed' });
    expect(readDigest(store, now, now).entries.map((entry) => entry.kind)).toEqual(['waiting']);
  });

  it('a usage sample is taken at most once a minute per seat, only while usage is present and differs from the last sample', async () => {
    const store = await freshStore();
    let now = T0;
    const recorder = new HistoryRecorder(store, () => now);
    const usage = (input: number) => ({ context: { used: input, window: 200_000, fill: input / 200_000 }, totals: { input, output: 10, cacheRead: 0, cacheWrite: 0 }, partial: false });
    const base = seat('claude:a', 'p1', activity('working', iso(T0)));
    recorder.fleetWhole({ seats: [base], personas: [persona('p1', 'Ada')] });
    for (const [offset, input] of [[1000, 100], [20_000, 200], [61_000, 300], [62_000, 400], [130_000, 400]] as const) {
      now = T0 + offset;
      recorder.fleetPatch({ seats: { set: [{ ...base, activity: activity('working', iso(now), undefined, `Read · ${offset}`), usage: usage(input) }] } });
    }
    const samples = readList(store, 0, now, {}).events.filter((event) => event.type === 'usage');
    expect(samples.map((sample) => [sample.at, sample.type === 'usage' ? sample.input : null])).toEqual([
      [iso(T0 + 1000), 100],
      [iso(T0 + 61_000), 300],
      [iso(T0 + 130_000), 400],
    ]);
  });
});
