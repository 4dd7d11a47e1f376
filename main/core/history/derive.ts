/**
 * From the fleet's changes to transitions (pure): a seat record, a persona record or a job compared with the world
 * the recorder holds gives the transitions that happened. Times come from the records where they carry one (the
 * activity's own `since`, a job's start and end), never earlier than the seat's last transition nor later than now.
 */
import type { Job } from '../../../shared/jobs';
import { jobRowKey } from '../../../shared/jobs';
import type { Persona, Seat } from '../../../shared/schemas';
import { HISTORY_LABEL_MAX, HISTORY_USAGE_SAMPLE_MS } from './bounds';
import type { PastJob, PastSeat, Transition, WorldState } from '../../../shared/pastWorld';

/**
 * A transition's time: the record's own time when it lies in [floor, now]; otherwise now (a record time before the
 * seat's last transition, such as a turn's start for a state seen only now, is not when this change happened).
 */
export function clampTime(iso: string | null | undefined, floor: number, now: number): number {
  const parsed = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(parsed) || parsed < floor) return Math.max(floor, now);
  return Math.min(parsed, Math.max(floor, now));
}

const cut = (label: string | undefined | null) => (label == null ? null : label.length > HISTORY_LABEL_MAX ? label.slice(0, HISTORY_LABEL_MAX) : label);

function activityChanged(past: PastSeat, seat: Seat): boolean {
  const now = seat.activity;
  const then = past.activity;
  return now.state !== then.state || (now.why ?? null) !== then.why || now.certain !== then.certain || cut(now.label) !== then.label;
}

/** The transitions of one seat record: opened, activity and needs-you changes. `floor`: no transition before it. */
export function seatTransitions(world: WorldState, seat: Seat, now: number, floor: number): Transition[] {
  const out: Transition[] = [];
  let past = world.seats.get(seat.id);
  let seatFloor = Math.max(floor, past?.lastAt ?? floor);
  if (!past) {
    out.push({ t: 'seat', at: now, seat: seat.id, persona: seat.personaId, opened: true, harness: seat.harness, address: seat.address });
    seatFloor = now;
    past = undefined;
  }
  if (past && !activityChanged(past, seat)) return out;
  const at = clampTime(seat.activity.since, seatFloor, now);
  const why = seat.activity.why ?? null;
  const wasNeeds = past?.activity.state === 'needs-you' ? past.activity.why : null;
  const isNeeds = seat.activity.state === 'needs-you' ? why : null;
  if (past && wasNeeds && wasNeeds !== isNeeds) {
    const waited = past.needsSince === null ? null : Math.max(0, at - past.needsSince);
    out.push({ t: 'needs', at, seat: seat.id, persona: seat.personaId, entered: false, why: wasNeeds, certain: past.activity.certain, waitedMs: waited });
  }
  out.push({
    t: 'activity',
    at,
    seat: seat.id,
    persona: seat.personaId,
    state: seat.activity.state,
    why,
    certain: seat.activity.certain,
    label: cut(seat.activity.label),
    since: seat.activity.since ? Date.parse(seat.activity.since) || null : null,
  });
  if (isNeeds && isNeeds !== wasNeeds) out.push({ t: 'needs', at, seat: seat.id, persona: seat.personaId, entered: true, why: isNeeds, certain: seat.activity.certain, waitedMs: null });
  return out;
}

/** A seat that is gone: it closes (a wait it was in ends). */
export function seatClosed(world: WorldState, seatId: string, now: number): Transition[] {
  const past = world.seats.get(seatId);
  if (!past) return [];
  const out: Transition[] = [];
  const at = Math.max(now, past.lastAt);
  if (past.activity.state === 'needs-you' && past.activity.why) {
    out.push({ t: 'needs', at, seat: seatId, persona: past.persona, entered: false, why: past.activity.why, certain: past.activity.certain, waitedMs: past.needsSince === null ? null : at - past.needsSince });
  }
  out.push({ t: 'seat', at, seat: seatId, persona: past.persona, opened: false, harness: null, address: null });
  return out;
}

/** The transition of a persona record when its name, role or look changed (or it is new). */
export function personaTransitions(world: WorldState, persona: Persona, now: number): Transition[] {
  const past = world.personas.get(persona.id);
  const role = persona.role ?? null;
  const appearance = persona.appearance;
  if (
    past &&
    past.name === persona.name &&
    past.role === role &&
    past.appearance.body === appearance.body &&
    past.appearance.hair === appearance.hair &&
    past.appearance.palette === appearance.palette &&
    past.appearance.accessory === appearance.accessory
  )
    return [];
  const roleChanged = past !== undefined && past.role !== role;
  return [{ t: 'persona', at: now, persona: persona.id, removed: false, name: persona.name, role, previousRole: past?.role ?? null, roleChanged, appearance, createdAt: persona.createdAt }];
}

/** A persona that is gone. */
export function personaRemoved(world: WorldState, personaId: string, now: number): Transition[] {
  const past = world.personas.get(personaId);
  if (!past) return [];
  return [{ t: 'persona', at: now, persona: personaId, removed: true, name: past.name, role: past.role, previousRole: past.role, roleChanged: false, appearance: null, createdAt: null }];
}

function jobFields(job: Job) {
  return {
    seat: job.seatId,
    persona: job.personaId,
    key: jobRowKey(job),
    alias: job.alias,
    nativeId: job.nativeId,
    type: job.type,
    label: cut(job.label) ?? '',
    background: job.kind === 'unknown' ? null : job.kind === 'background',
  };
}

/**
 * The transitions of one job on the board: started when new (and ended too when it is already over), ended when it
 * was running. `known` says whether the recorder has seen its start (a job ended before recording began is not
 * listed as started, but its end is).
 */
export function jobTransitions(world: WorldState, job: Job, now: number, floor: number, known: (key: string) => boolean, newRow: () => number): Transition[] {
  const fields = jobFields(job);
  const running = world.jobs.get(fields.key);
  const out: Transition[] = [];
  if (!running && !known(fields.key)) {
    const at = clampTime(job.startedAt, floor, now);
    const row = newRow();
    out.push({ t: 'job', at, row, ended: false, outcome: null, ...fields });
    if (job.state === 'ended') out.push({ t: 'job', at: clampTime(job.endedAt, at, now), row, ended: true, outcome: job.outcome ?? null, ...fields });
    return out;
  }
  if (running && job.state === 'ended') out.push({ t: 'job', at: clampTime(job.endedAt, Math.max(floor, running.startedAt), now), row: running.row, ended: true, outcome: job.outcome ?? null, ...fields });
  return out;
}

/** A running job gone from the board (its seat closed): it ended, how unknown. */
export function jobGone(job: PastJob, now: number): Transition {
  return { t: 'job', at: Math.max(now, job.startedAt), row: job.row, ended: true, outcome: null, key: job.key, seat: job.seat, persona: job.persona, alias: job.alias, nativeId: job.nativeId, type: job.type, label: job.label, background: job.background };
}

/** A usage sample of a seat when its usage is present and the last sample is a minute old (or there is none). */
export function usageSample(seat: Seat, now: number, lastSample: number | undefined): Transition | null {
  const usage = seat.usage;
  if (!usage) return null;
  if (lastSample !== undefined && now - lastSample < HISTORY_USAGE_SAMPLE_MS) return null;
  return {
    t: 'usage',
    at: now,
    seat: seat.id,
    persona: seat.personaId,
    input: usage.totals.input,
    output: usage.totals.output,
    cacheRead: usage.totals.cacheRead,
    cacheWrite: usage.totals.cacheWrite,
    costUsd: usage.cost?.usd ?? null,
    contextUsed: usage.context?.used ?? null,
    contextFill: usage.context?.fill ?? null,
  };
}
