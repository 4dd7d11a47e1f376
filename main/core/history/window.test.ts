// The page's window of recent history (`history.window`): folded where the page folds it (shared/historyWindow.ts),
// every moment inside it must equal what the host's seek answers (`history.at`), through the real recorder and a real
// SQLite store, across whole-world snapshots, seats opening and closing, role changes, jobs and usage samples.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseResponse } from '../../../shared/contract';
import { HISTORY_WINDOW_MS, HISTORY_WINDOW_ROWS, type HistoryWindow } from '../../../shared/history';
import { HistoryWindowFold } from '../../../shared/historyWindow';
import type { Seat } from '../../../shared/schemas';
import { HistoryService } from './HistoryService';
import { activity, job, persona, seat } from './testing/records';

const T0 = Date.parse('2026-12-05T08:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const folders: string[] = [];
const services: HistoryService[] = [];
afterEach(() => {
  while (services.length) services.pop()!.dispose();
  while (folders.length) rmSync(folders.pop()!, { recursive: true, force: true });
});

async function open(clock: { now: number }): Promise<HistoryService> {
  const dir = mkdtempSync(join(tmpdir(), 'pf-history-window-'));
  folders.push(dir);
  const service = await HistoryService.open({ file: join(dir, 'history.sqlite'), aliasFile: join(dir, 'job-aliases.json'), record: true, now: () => clock.now, log: () => {} });
  services.push(service);
  return service;
}

/** A small deterministic generator (the same scenario on every run). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const usage = (input: number) => ({ context: { used: input, window: 200_000, fill: input / 200_000 }, totals: { input, output: input / 10, cacheRead: input * 3, cacheWrite: 7 }, partial: false, cost: { usd: input / 1e5, estimated: true } });

/** Records `steps` changes, `gapMs` to three times that apart, of six seats that open, close, change state and role, run jobs and spend. */
function recordFleet(service: HistoryService, clock: { now: number }, steps: number, seed = 7, gapMs = 5_000): void {
  const next = random(seed);
  const roles = ['builder', 'tester', 'reviewer', 'planner'];
  const personas = Array.from({ length: 6 }, (_, index) => persona(`p${index}`, `Agent ${index}`, roles[index % roles.length]));
  const open = new Map<string, Seat>();
  const spent = new Map<string, number>();
  const jobs = new Map<string, ReturnType<typeof job>>();
  let cursor = 1;
  service.onEvent('fleet.changed', { snapshot: { cursor, seats: [], personas, stations: [] } });
  for (let step = 0; step < steps; step += 1) {
    clock.now += gapMs + Math.floor(next() * 2 * gapMs);
    const index = Math.floor(next() * 6);
    const id = `claude:s${index}`;
    const roll = next();
    let seats: { set?: Seat[]; removed?: string[] } = {};
    let personasPatch: { set?: typeof personas } | undefined;
    if (!open.has(id) || roll < 0.06) {
      if (open.has(id)) {
        open.delete(id);
        seats = { removed: [id] };
      } else {
        const opened = seat(id, `p${index}`, activity('working', iso(clock.now), undefined, 'Read · a.ts'));
        open.set(id, opened);
        seats = { set: [opened] };
      }
    } else if (roll < 0.12) {
      personas[index] = { ...personas[index], role: roles[Math.floor(next() * roles.length)], updatedAt: iso(clock.now) };
      personasPatch = { set: [personas[index]] };
    } else if (roll < 0.22) {
      const key = `n${step}`;
      jobs.set(key, job(id, `p${index}`, key, iso(clock.now)));
      if (jobs.size > 5) {
        const [oldest] = jobs.keys();
        jobs.set(oldest, job(jobs.get(oldest)!.seatId!, jobs.get(oldest)!.personaId!, oldest, jobs.get(oldest)!.startedAt!, { at: iso(clock.now), outcome: 'completed' }));
      }
      service.onEvent('jobs.changed', { board: { jobs: [...jobs.values()], aliases: {}, unlisted: [], at: iso(clock.now) } });
      for (const [key, value] of jobs) if (value.state === 'ended') jobs.delete(key);
      continue;
    } else {
      const states = [activity('working', iso(clock.now), undefined, `Edit · f${step}.ts`), activity('needs-you', iso(clock.now), 'question', 'AskUserQuestion'), activity('idle', iso(clock.now))];
      spent.set(id, (spent.get(id) ?? 0) + Math.floor(next() * 5000));
      const changed = { ...open.get(id)!, activity: states[Math.floor(next() * states.length)], usage: usage(spent.get(id)!) };
      open.set(id, changed);
      seats = { set: [changed] };
    }
    cursor += 1;
    service.onEvent('fleet.patched', { patch: { from: cursor - 1, cursor, seats, ...(personasPatch ? { personas: personasPatch } : {}) } });
  }
}

/** The window as the page receives it: through JSON and the contract's response schema. */
function received(window: HistoryWindow): NonNullable<HistoryWindow> {
  const parsed = parseResponse('history.window', JSON.parse(JSON.stringify(window)));
  if (!parsed.ok) throw new Error(parsed.error.message);
  expect(parsed.value).not.toBeNull();
  return parsed.value!;
}

describe('the window of recent history the page folds', () => {
  it('gives, for every moment inside it, exactly the host\'s answer (snapshots, seats, roles, jobs and usage included)', async () => {
    const clock = { now: T0 };
    const service = await open(clock);
    recordFleet(service, clock, 150);
    const window = received(service.window());
    // The last half hour: the whole 25 minutes or so recorded, several whole-world snapshots inside it.
    expect(window.until - window.from).toBeGreaterThan(20 * 60_000);
    expect(window.snapshots.length).toBeGreaterThanOrEqual(3);
    expect(window.from).toBe(Date.parse(service.span().from!));
    expect(window.until).toBe(clock.now);
    expect(window.transitions.length).toBeGreaterThan(150);
    expect(window.usage.length).toBeGreaterThan(0);
    const fold = new HistoryWindowFold(window);
    const next = random(11);
    const times = [window.from, window.until, ...window.transitions.flatMap((transition) => [transition.at - 1, transition.at])];
    for (let index = 0; index < 60; index += 1) times.push(window.from + Math.floor(next() * (window.until - window.from)));
    // In time order (as playback folds on from the last world) and then shuffled (as presses land).
    const inOrder = times.filter((ms) => fold.covers(ms)).sort((left, right) => left - right);
    const shuffled = [...inOrder].sort(() => next() - 0.5);
    let compared = 0;
    let withUsage = 0;
    let withJobs = 0;
    for (const ms of [...inOrder, ...shuffled]) {
      const local = fold.momentAt(ms);
      expect(local).toEqual(service.at(iso(ms)));
      compared += 1;
      if (local.snapshot.seats.some((one) => one.usage)) withUsage += 1;
      if (local.snapshot.seats.some((one) => (one.subagents?.running ?? 0) > 0)) withJobs += 1;
    }
    // The comparison covered moments that have usage and running jobs, not only empty worlds.
    expect(compared).toBeGreaterThan(250);
    expect(withUsage).toBeGreaterThan(60);
    expect(withJobs).toBeGreaterThan(60);
    expect(fold.covers(window.from - 1)).toBe(false);
    expect(fold.covers(window.until + 1)).toBe(false);
  });

  it('starts later than an hour back when that held more rows than its bound, and still equals the host there', async () => {
    const clock = { now: T0 };
    const service = await open(clock);
    // About 5,400 changes in under half an hour: more than the window's bound.
    recordFleet(service, clock, 5_400, 3, 150);
    const span = Date.parse(service.span().from!);
    const window = received(service.window());
    expect(window.until).toBe(clock.now);
    expect(window.from).toBeGreaterThan(span);
    expect(window.until - window.from).toBeLessThanOrEqual(HISTORY_WINDOW_MS);
    expect(window.transitions.length).toBeLessThan(HISTORY_WINDOW_ROWS);
    expect(window.transitions.every((transition) => transition.at > window.from && transition.at <= window.until)).toBe(true);
    const fold = new HistoryWindowFold(window);
    for (const ms of [window.from, window.from + 1, Math.floor((window.from + window.until) / 2), window.until]) expect(fold.momentAt(ms)).toEqual(service.at(iso(ms)));
  });

  it('is null while nothing is recorded', async () => {
    const clock = { now: T0 };
    const service = await open(clock);
    expect(service.window()).toBeNull();
  });
});
