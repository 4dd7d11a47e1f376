/**
 * The demo's past: a plausible stretch of history written through the recorder's own API (whole snapshots and
 * changes at past instants), consistent with the demo's agents and roles as they are now: the same seats and
 * personas, turns of work with tool labels, waits for the owner, subagent jobs that start and end, one role change
 * and one launch. Seeded, so a demo home always gets the same past.
 */
import type { Job } from '../../../shared/jobs';
import type { Activity, FleetSnapshot, NeedsWhy, Persona, Seat } from '../../../shared/schemas';
import { chance, createRandom, pick, randomInt, type Random } from './random';
import type { HistoryRecorder } from '../../core/history/recorder';

/** Step of the replayed past: one fleet change and one board change per step. */
const STEP_MS = 60_000;
const LABELS = ['Read · README.md', 'Edit · src/index.ts', 'Bash · npm test', 'Grep · TODO', 'Read · package.json', 'Edit · src/parser.ts', 'Bash · git status', 'Write · notes/plan.md'];
const JOB_TYPES = ['Explore', 'general-purpose', 'Plan'];
const JOB_LABELS = ['Survey the call sites', 'Find the failing test', 'Map the modules', 'Check the docs for drift'];
const WAITS: readonly NeedsWhy[] = ['turn-done', 'turn-done', 'turn-done', 'question', 'approval', 'plan', 'error'];

interface SeatPlan {
  seat: Seat;
  /** Activity changes: instant and activity. */
  changes: { at: number; activity: Activity }[];
}

function activityAt(state: Activity['state'], at: number, why?: NeedsWhy, label?: string): Activity {
  return { state, ...(why ? { why } : {}), certain: true, since: new Date(at).toISOString(), ...(label ? { label } : {}) };
}

/** A seat's turns over `[from, to)`: working with changing labels, then a wait or idleness. */
function planSeat(random: Random, seat: Seat, from: number, to: number): SeatPlan {
  const changes: SeatPlan['changes'] = [];
  let at = from + randomInt(random, 0, 4 * 60_000);
  while (at < to - 60_000) {
    const workEnd = at + randomInt(random, 2, 7) * 60_000;
    for (let tick = at; tick < workEnd && tick < to; tick += randomInt(random, 15, 60) * 1000) changes.push({ at: tick, activity: activityAt('working', tick, undefined, pick(random, LABELS)) });
    at = workEnd;
    if (at >= to) break;
    const why = chance(random, 0.15) ? null : pick(random, WAITS);
    changes.push({ at, activity: why ? activityAt('needs-you', at, why) : activityAt('idle', at) });
    at += randomInt(random, 1, 9) * 60_000;
  }
  return { seat, changes };
}

interface JobPlan {
  job: Job;
  endAt: number;
}

function planJobs(random: Random, plan: SeatPlan, persona: Persona | undefined, to: number, serial: { next: number }): JobPlan[] {
  const jobs: JobPlan[] = [];
  for (const change of plan.changes) {
    if (change.activity.state !== 'working' || !chance(random, 0.08)) continue;
    const start = change.at;
    const endAt = Math.min(start + randomInt(random, 1, 5) * 60_000, to - 30_000);
    if (endAt <= start) continue;
    serial.next += 1;
    jobs.push({
      endAt,
      job: {
        alias: null,
        nativeId: `past-${serial.next}`,
        seatId: plan.seat.id,
        personaId: plan.seat.personaId,
        persona: persona?.name ?? plan.seat.personaId,
        role: persona?.role ?? null,
        harness: plan.seat.harness,
        type: pick(random, JOB_TYPES),
        label: pick(random, JOB_LABELS),
        kind: chance(random, 0.3) ? 'background' : 'foreground',
        state: 'running',
        startedAt: new Date(start).toISOString(),
        replayable: false,
      },
    });
  }
  return jobs;
}

/**
 * Writes `hours` of past up to a minute before `now` for the fleet in `snapshot`, with no past job still running; the
 * live recorder then records the step to the present as it would any change. Returns how many steps were written.
 */
export function writeDemoHistory(recorder: HistoryRecorder, snapshot: Pick<FleetSnapshot, 'seats' | 'personas'>, now: number, options: { hours?: number; seed?: number; alias?: (job: Job) => string | null } = {}): number {
  const random = createRandom(options.seed ?? 27);
  const from = now - (options.hours ?? 1) * 3_600_000;
  const to = now - STEP_MS;
  const personas = new Map(snapshot.personas.map((persona) => [persona.id, persona]));
  // One agent held another role until a third of the way in, so scrubbing back shows it at its old station.
  const changed = snapshot.personas.find((persona) => persona.role !== undefined && persona.seat);
  const roleChangeAt = from + (to - from) / 3;
  const previousRole = changed?.role === 'researcher' ? 'builder' : 'researcher';
  const personasAt = (at: number): Persona[] =>
    snapshot.personas.map((persona) => (persona === changed && at < roleChangeAt ? { ...persona, role: previousRole } : persona));
  const plans = snapshot.seats.map((seat) => planSeat(random, seat, from, to));
  const serial = { next: 0 };
  const jobs = plans.flatMap((plan) => planJobs(random, plan, personas.get(plan.seat.personaId), to, serial));
  for (const planned of jobs) planned.job.alias = options.alias?.(planned.job) ?? null;

  const current = new Map<string, Seat>(snapshot.seats.map((seat) => [seat.id, { ...seat, activity: activityAt('idle', from), subagents: { running: 0, recent: [] } }]));
  recorder.fleetWhole({ seats: [...current.values()], personas: personasAt(from) }, from);
  const launched = snapshot.seats.at(-1);
  if (launched) {
    const persona = personas.get(launched.personaId);
    if (persona) recorder.launch({ personaId: persona.id, harness: launched.harness, name: persona.name, role: persona.role ?? null }, from + 60_000);
  }
  let steps = 0;
  const cursors = plans.map(() => 0);
  for (let stepEnd = from + STEP_MS; stepEnd <= to; stepEnd += STEP_MS) {
    const set: Seat[] = [];
    plans.forEach((plan, index) => {
      let latest: Activity | null = null;
      while (cursors[index] < plan.changes.length && plan.changes[cursors[index]].at < stepEnd) latest = plan.changes[cursors[index]++].activity;
      if (!latest) return;
      const seat = { ...current.get(plan.seat.id)!, activity: latest };
      current.set(seat.id, seat);
      set.push(seat);
    });
    const personaSet = stepEnd - STEP_MS < roleChangeAt && stepEnd >= roleChangeAt && changed ? [changed] : [];
    recorder.fleetPatch({ seats: set.length ? { set } : undefined, personas: personaSet.length ? { set: personaSet } : undefined }, stepEnd);
    const jobSet: Job[] = [];
    for (const planned of jobs) {
      const start = Date.parse(planned.job.startedAt);
      if (start >= stepEnd - STEP_MS && start < stepEnd) jobSet.push(planned.job.state === 'running' && planned.endAt < stepEnd ? ended(planned) : planned.job);
      else if (planned.endAt >= stepEnd - STEP_MS && planned.endAt < stepEnd) jobSet.push(ended(planned));
    }
    if (jobSet.length) recorder.jobsPatch({ jobs: { set: jobSet } }, stepEnd);
    steps += 1;
  }
  return steps;
}

function ended(planned: JobPlan): Job {
  return { ...planned.job, state: 'ended', endedAt: new Date(planned.endAt).toISOString(), outcome: planned.endAt % 11 === 0 ? 'failed' : 'completed' };
}
