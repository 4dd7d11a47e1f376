/**
 * The demo fleet: simulated Claude Code sessions whose journals are appended in the real format on a shared timer
 * wheel, plus a Markdown backlog. It drives first-run worlds, the e2e tests and the benchmark through the real readers.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeBacklog } from './backlog';
import { escapeCwd } from './lines';
import { readPreviousJournal } from './resume';
import { distinctNames } from '../../core/personas/names';
import { CHARACTER_NAMES, PROJECTS, ROLE_ROTATION } from './prose';
import { createIdMaker, createRandom } from './random';
import { demoWaits, SimulatedSession, type StepOutput } from './session';
import { claudeDemoUsage } from './usageRecords';

/** Options of a demo fleet. */
export interface DemoOptions {
  /** A throwaway folder; the demo writes `<home>/claude/projects/...` and `<home>/backlog/*.md`. */
  home: string;
  /** Number of simulated sessions (default 6, at most 1000). */
  agents?: number;
  /** PRNG seed: the same seed writes the same sessions, ids and prose (timing aside). */
  seed?: number;
  /** Time scale: 1 = real time (a step every 0.5–3 s per session), 0 = no timers (only `step()` advances). */
  speed?: number;
  /** Clock for line timestamps, in milliseconds since epoch. */
  now?: () => number;
  /** Called once if writing fails (the timers then stop); defaults to a console warning. */
  onError?: (error: Error) => void;
}

/** One simulated session as a candidate seat, with a suggested persona. */
export interface DemoSession {
  sessionId: string;
  cwd: string;
  /** The main journal path. */
  path: string;
  suggestedName: string;
  /** A built-in station, the custom role, or null for an unassigned seat. */
  suggestedRole: string | null;
}

/** A running demo fleet. */
export interface DemoFleet {
  /** The Claude home (as CLAUDE_CONFIG_DIR): journals live in `<claudeHome>/projects/<escaped cwd>/<sessionId>.jsonl`. */
  claudeHome: string;
  /** The Markdown backlog folder. */
  backlogDir: string;
  sessions: DemoSession[];
  /** Stops the timers and waits for the last write; the files stay. */
  stop(): Promise<void>;
  /** Advances every session by one step immediately and waits until it is written (for tests). */
  step(): Promise<void>;
}

/** Steps written with back-dated timestamps at start, so trays have history on first sight. */
const WARMUP_STEPS = 8;
/** Spacing of back-dated warm-up steps, in milliseconds. */
const WARMUP_SPACING_MS = 1500;
const MAX_AGENTS = 1000;

function assertOptions(options: DemoOptions): { agents: number; seed: number; speed: number } {
  const agents = options.agents ?? 6;
  const seed = options.seed ?? 1;
  const speed = options.speed ?? 1;
  if (!path.isAbsolute(options.home)) throw new Error(`demo home must be an absolute path, got "${options.home}"`);
  if (!Number.isInteger(agents) || agents < 1 || agents > MAX_AGENTS) throw new Error(`demo agents must be an integer from 1 to ${MAX_AGENTS}, got ${agents}`);
  if (!Number.isFinite(seed)) throw new Error(`demo seed must be a finite number, got ${seed}`);
  if (!Number.isFinite(speed) || speed < 0) throw new Error(`demo speed must be 0 or more, got ${speed}`);
  return { agents, seed, speed };
}

interface Running {
  session: SimulatedSession;
  info: DemoSession;
  subagentsDir: string;
  dueAtMs: number;
}

function numbered(base: string, index: number, size: number, separator: string): string {
  return index < size ? base : `${base}${separator}${Math.floor(index / size) + 1}`;
}

/**
 * Appends a batch of step outputs in order: each file gets one append (so lines of one file never race), and main
 * journals are written before their children, as Claude Code writes the call before the subagent starts.
 */
async function writeBatch(batch: { running: Running; out: StepOutput }[]): Promise<void> {
  const mains = new Map<string, string[]>();
  const children = new Map<string, string[]>();
  const sidecars: Promise<void>[] = [];
  const add = (files: Map<string, string[]>, file: string, lines: string[]) => {
    const list = files.get(file);
    if (list) list.push(...lines);
    else files.set(file, [...lines]);
  };
  for (const { running, out } of batch) {
    if (out.main.length > 0) add(mains, running.info.path, out.main);
    for (const child of out.children) add(children, path.join(running.subagentsDir, `agent-${child.agentId}.jsonl`), child.lines);
    for (const sidecar of out.sidecars) {
      sidecars.push(fs.writeFile(path.join(running.subagentsDir, `agent-${sidecar.agentId}.meta.json`), sidecar.json));
    }
  }
  await Promise.all([...mains].map(([file, lines]) => fs.appendFile(file, lines.join(''))));
  await Promise.all([...[...children].map(([file, lines]) => fs.appendFile(file, lines.join(''))), ...sidecars]);
}

/** Creates the demo home and starts the simulated fleet. */
export async function startDemo(options: DemoOptions): Promise<DemoFleet> {
  const { agents, seed, speed } = assertOptions(options);
  const now = options.now ?? Date.now;
  const claudeHome = path.join(options.home, 'claude');
  const backlogDir = path.join(options.home, 'backlog');
  const timing = createRandom((seed ^ 0x9e3779b9) >>> 0);
  const nextDelayMs = () => (500 + timing() * 2500) / speed;

  const fleet: Running[] = [];
  const resumed: { running: Running; out: StepOutput }[] = [];
  const startMs = now();
  const names = distinctNames(CHARACTER_NAMES, agents);
  for (let index = 0; index < agents; index += 1) {
    // A seed per session keeps each session's content independent of how steps interleave.
    const sessionSeed = (Math.imul(seed >>> 0, 2654435761) + index * 40503 + 1) >>> 0;
    const project = numbered(PROJECTS[index % PROJECTS.length], index, PROJECTS.length, '-');
    const cwd = `/home/demo/src/${project}`;
    const seeded = createRandom(sessionSeed);
    const sessionId = createIdMaker(seeded).uuid();
    const folder = path.join(claudeHome, 'projects', escapeCwd(cwd));
    const info: DemoSession = {
      sessionId,
      cwd,
      path: path.join(folder, `${sessionId}.jsonl`),
      suggestedName: names[index],
      suggestedRole: ROLE_ROTATION[index % ROLE_ROTATION.length],
    };
    const previous = await readPreviousJournal(info.path);
    // On a restart the same session continues; salting with the journal size keeps new ids from repeating old ones.
    const random = previous ? createRandom((sessionSeed ^ Math.imul(previous.bytes + 1, 2246822519)) >>> 0) : seeded;
    const session = new SimulatedSession({ sessionId, cwd, slug: `${project}-demo`, waits: demoWaits(index), usage: claudeDemoUsage(index) }, random, createIdMaker(random));
    const running: Running = { session, info, subagentsDir: path.join(folder, sessionId, 'subagents'), dueAtMs: 0 };
    fleet.push(running);
    if (previous) {
      session.mainBytes = previous.bytes;
      const out = session.resume(previous.open, startMs);
      if (previous.endsMidLine) out.main.unshift('\n');
      resumed.push({ running, out });
    }
  }

  await writeBacklog(backlogDir);
  await Promise.all(fleet.map((running) => fs.mkdir(running.subagentsDir, { recursive: true })));
  await writeBatch(resumed);
  // Fresh sessions get back-dated history; resumed ones already have theirs (and time must not run backwards).
  const resumedSet = new Set(resumed.map((entry) => entry.running));
  const fresh = fleet.filter((running) => !resumedSet.has(running));
  const warmup: { running: Running; out: StepOutput }[] = [];
  for (let step = 0; step < WARMUP_STEPS; step += 1) {
    const atMs = startMs - (WARMUP_STEPS - step) * WARMUP_SPACING_MS;
    for (const running of fresh) warmup.push({ running, out: running.session.step(atMs) });
  }
  await writeBatch(warmup);

  let chain: Promise<void> = Promise.resolve();
  let busy = false;
  let failed = false;
  const run = (members: Running[]): Promise<void> => {
    const work = async () => {
      busy = true;
      try {
        await writeBatch(members.map((running) => ({ running, out: running.session.step(now()) })));
      } finally {
        busy = false;
      }
    };
    const result = chain.then(work);
    chain = result.catch(() => undefined);
    return result;
  };

  let timer: ReturnType<typeof setInterval> | null = null;
  if (speed > 0) {
    const wallMs = Date.now();
    for (const running of fleet) running.dueAtMs = wallMs + nextDelayMs();
    // One shared wheel instead of a timer per session keeps a 100-agent fleet cheap.
    const periodMs = Math.max(20, Math.min(100, 250 / speed));
    timer = setInterval(() => {
      if (busy || failed) return;
      const wall = Date.now();
      const due = fleet.filter((running) => running.dueAtMs <= wall);
      if (due.length === 0) return;
      for (const running of due) running.dueAtMs = wall + nextDelayMs();
      run(due).catch((error: unknown) => {
        failed = true;
        if (timer !== null) clearInterval(timer);
        const reported = error instanceof Error ? error : new Error(String(error));
        if (options.onError) options.onError(reported);
        else console.warn(`demo fleet stopped: ${reported.message}`);
      });
    }, periodMs);
  }

  return {
    claudeHome,
    backlogDir,
    sessions: fleet.map((running) => ({ ...running.info })),
    async stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      await chain;
    },
    step: () => run(fleet),
  };
}
