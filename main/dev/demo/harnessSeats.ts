/**
 * The demo's Codex and OpenCode seats beside its Claude sessions: Codex rollouts under `<demo>/codex` and an OpenCode
 * database under `<demo>/opencode`, each advanced by the same turn cycle on one shared timer and read by the real
 * readers, so the world shows all three harnesses.
 */
import path from 'node:path';
import type { SeatAddress } from '../../../shared/schemas';
import { CodexActor } from './codexChildren';
import { codexThreadId } from './codexSeat';
import { OpenCodeActor } from './openCodeChildren';
import { closeOpenCodeLeftovers } from './openCodeResume';
import { OpenCodeStore, openCodeId } from './openCodeStore';
import { PROJECTS } from './prose';
import { createIdMaker, createRandom, type Random } from './random';

/** How many of a demo fleet's agents sit at Codex and at OpenCode seats (about a sixth each, one each from 3). */
export function harnessShares(agents: number): { claude: number; codex: number; opencode: number } {
  const each = agents >= 3 ? Math.max(1, Math.round(agents / 6)) : 0;
  return { claude: agents - each * 2, codex: each, opencode: each };
}

/** A demo seat of another harness, with the persona it suggests. */
export interface HarnessSeat {
  seat: SeatAddress;
  suggestedName: string;
  suggestedRole: string | null;
}

/** The running Codex and OpenCode seats. */
export interface HarnessSeats {
  codexHome: string;
  /** The OpenCode database file (null when it could not be opened here). */
  openCodeDb: string | null;
  seats: HarnessSeat[];
  stop(): Promise<void>;
  /** Advances every seat by one step at the clock's time and waits until it is written (for tests). */
  step(): Promise<void>;
}

/** Steps written back-dated at start, so a first look finds history. */
const WARMUP_STEPS = 6;
const WARMUP_SPACING_MS = 1500;
/** Milliseconds between a seat's steps: 1–4 s, like the Claude sessions. */
const STEP_MS = { low: 1000, high: 4000 } as const;
const WHEEL_MS = 250;
/** The time encoded in the demo's OpenCode session ids (2026-06-01). */
const SESSION_EPOCH_MS = Date.UTC(2026, 5, 1);

interface Running {
  advance(atMs: number): Promise<void> | void;
  random: Random;
  dueAtMs: number;
  /** False for a seat a previous run wrote (it continues without back-dated warm-up). */
  fresh: boolean;
}

/** Starts `codex` Codex seats and `opencode` OpenCode seats in `home`, named and given roles from the lists in order. */
export async function startHarnessSeats(options: {
  home: string;
  codex: number;
  opencode: number;
  names: readonly string[];
  /** The role each seat is suggested, in the same order as the names (null: unassigned). */
  roles: readonly (string | null)[];
  seed: number;
  log?: (message: string) => void;
  /** Clock for the records' times, in milliseconds since epoch. */
  now?: () => number;
  /** False: no timer, only `step()` advances the seats (default true). */
  timers?: boolean;
}): Promise<HarnessSeats> {
  const codexHome = path.join(options.home, 'codex');
  const now = options.now ?? Date.now;
  const startMs = now();
  const seats: HarnessSeat[] = [];
  const running: Running[] = [];
  const seeded = (index: number) => createRandom((Math.imul(options.seed >>> 0, 2246822519) + index * 7919 + 17) >>> 0);
  const project = (index: number) => `/home/demo/src/${PROJECTS[(index * 3 + 1) % PROJECTS.length]}`;
  const suggest = (seat: SeatAddress, index: number) =>
    seats.push({ seat, suggestedName: options.names[index] ?? `Agent ${index + 1}`, suggestedRole: options.roles[index] ?? null });

  for (let index = 0; index < options.codex; index += 1) {
    const random = seeded(index);
    const id = codexThreadId(createIdMaker(random).uuid());
    const cwd = project(index);
    const createdMs = startMs - (WARMUP_STEPS + 1) * WARMUP_SPACING_MS;
    // A restarted seat's draws are salted with its rollout's size, so its new children's ids never repeat old ones.
    const salted = (salt: number) => (salt === 0 ? random : createRandom((options.seed ^ Math.imul(salt + index + 1, 2246822519)) >>> 0));
    const actor = await CodexActor.open({ home: codexHome, id, cwd, createdMs, atMs: startMs, index, random: salted });
    suggest({ harness: 'codex', home: codexHome, sessionId: id, cwd, path: actor.path }, index);
    running.push({ advance: (atMs) => actor.advance(atMs), random, dueAtMs: 0, fresh: !actor.resumed });
  }

  let store: OpenCodeStore | null = null;
  if (options.opencode > 0) {
    try {
      store = await OpenCodeStore.open(path.join(options.home, 'opencode', 'opencode.db'));
    } catch (error) {
      options.log?.(`pixelfleet: the demo's OpenCode seats are left out: ${(error as Error).message}`);
    }
  }
  const resumedSessions: string[] = [];
  for (let index = 0; store && index < options.opencode; index += 1) {
    const random = seeded(1000 + index);
    // A fixed time base keeps the ids of a seed the same across restarts, so a restart continues the sessions.
    const id = openCodeId('ses', SESSION_EPOCH_MS + (options.seed % 1000) * 1000, index + 1);
    const cwd = project(options.codex + index);
    const fresh = store.ensureSession(id, cwd, `Demo session ${index + 1}`, startMs - (WARMUP_STEPS + 1) * WARMUP_SPACING_MS);
    if (!fresh) resumedSessions.push(id);
    suggest({ harness: 'opencode', home: store.path, sessionId: id, cwd, path: null }, options.codex + index);
    const actor = new OpenCodeActor(store, id, cwd, random, index);
    running.push({ advance: (atMs) => actor.advance(atMs), random, dueAtMs: 0, fresh });
  }
  // A restart closes what the previous run left open in the sessions it continues.
  if (store) closeOpenCodeLeftovers(store, resumedSessions, startMs);

  for (let step = 0; step < WARMUP_STEPS; step += 1) {
    const atMs = startMs - (WARMUP_STEPS - step) * WARMUP_SPACING_MS;
    for (const seat of running) if (seat.fresh) await seat.advance(atMs);
  }

  let busy = false;
  let stopped = false;
  let writing: Promise<void> = Promise.resolve();
  const delay = (seat: Running) => STEP_MS.low + seat.random() * (STEP_MS.high - STEP_MS.low);
  for (const seat of running) seat.dueAtMs = Date.now() + delay(seat);
  const timer = setInterval(() => {
    if (busy || stopped) return;
    const wall = Date.now();
    const due = running.filter((seat) => seat.dueAtMs <= wall);
    if (due.length === 0) return;
    busy = true;
    writing = (async () => {
      try {
        for (const seat of due) {
          seat.dueAtMs = wall + delay(seat);
          await seat.advance(now());
        }
      } catch (error) {
        stopped = true;
        clearInterval(timer);
        options.log?.(`pixelfleet: the demo's Codex and OpenCode seats stopped: ${(error as Error).message}`);
      } finally {
        busy = false;
      }
    })();
  }, WHEEL_MS);
  if (options.timers === false) clearInterval(timer);

  return {
    codexHome,
    openCodeDb: store?.path ?? null,
    seats,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await writing;
      store?.close();
    },
    async step() {
      await writing;
      for (const seat of running) await seat.advance(now());
    },
  };
}
