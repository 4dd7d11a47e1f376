/**
 * The transitions the history store records, the world state they fold into, and that world drawn as a fleet
 * snapshot. Pure, and shared: the recorder derives transitions from the fleet's changes and applies them to its live
 * state with `applyTransition`, a seek applies the same stored transitions onto a saved state, and the page folds a
 * window of them itself to answer a press on the timeline without a round trip — so a past moment is what the
 * recorder saw, by construction, wherever it is worked out.
 */
import { rolesList } from './roles';
import type { Activity, Appearance, FleetSnapshot, Harness, NeedsWhy, Outcome, Persona, Seat, SeatAddress, Station, SubagentEntry } from './schemas';
import type { Usage } from './usage';

/** The recent jobs a past seat lists (the tray's bound). */
export const HISTORY_RECENT_JOBS = 8;
/** How far back a past moment looks for a seat's latest usage sample, in milliseconds (older: usage unknown). */
export const HISTORY_PAST_USAGE_LOOKBACK_MS = 24 * 3_600_000;

/** A seat opened (with its address) or closed. */
export interface SeatTransition {
  t: 'seat';
  at: number;
  seat: string;
  persona: string;
  opened: boolean;
  harness: Harness | null;
  address: SeatAddress | null;
}
/** A seat's activity changed (state, why, certainty or label). */
export interface ActivityTransition {
  t: 'activity';
  at: number;
  seat: string;
  persona: string;
  state: Activity['state'];
  why: NeedsWhy | null;
  certain: boolean;
  label: string | null;
  since: number | null;
}
/** A seat entered needs-you, or left it after `waitedMs`. */
export interface NeedsTransition {
  t: 'needs';
  at: number;
  seat: string;
  persona: string;
  entered: boolean;
  why: NeedsWhy;
  certain: boolean;
  waitedMs: number | null;
}
/** A persona appeared, changed (name, role, look) or went; `roleChanged` marks a role change. */
export interface PersonaTransition {
  t: 'persona';
  at: number;
  persona: string;
  removed: boolean;
  name: string | null;
  role: string | null;
  previousRole: string | null;
  roleChanged: boolean;
  appearance: Appearance | null;
  createdAt: string | null;
}
/** A job (subagent) started or ended. `key` is the jobs board's row key; `row` the one store row both share. */
export interface JobTransition {
  t: 'job';
  at: number;
  row: number;
  seat: string;
  persona: string;
  ended: boolean;
  key: string;
  alias: string | null;
  nativeId: string | null;
  type: string | null;
  label: string;
  /** null: the harness recorded nothing that tells (issue 38). */
  background: boolean | null;
  outcome: Outcome | null;
}
/** An agent launched from Pixelfleet. */
export interface LaunchTransition {
  t: 'launch';
  at: number;
  persona: string;
  harness: Harness;
  name: string;
  role: string | null;
}
/** A reply sent to an agent's terminal: who and when, never the text (issue 39). */
export interface ReplyTransition {
  t: 'reply';
  at: number;
  persona: string;
}
/** A seat's usage, sampled at most once a minute. */
export interface UsageTransition {
  t: 'usage';
  at: number;
  seat: string;
  persona: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  costUsd: number | null;
  contextUsed: number | null;
  contextFill: number | null;
}

/** Any recorded transition. */
export type Transition = SeatTransition | ActivityTransition | NeedsTransition | PersonaTransition | JobTransition | LaunchTransition | UsageTransition | ReplyTransition;

/** The transitions that change what the world draws (a seek replays only these). */
export type WorldTransition = SeatTransition | ActivityTransition | PersonaTransition | JobTransition;

/** A seat as the world was: its address, activity and when it entered needs-you. */
export interface PastSeat {
  id: string;
  persona: string;
  harness: Harness;
  address: SeatAddress;
  activity: { state: Activity['state']; why: NeedsWhy | null; certain: boolean; label: string | null; since: number | null };
  /** When the current needs-you began (null when not in needs-you). */
  needsSince: number | null;
  /** The last transition's time (a later transition of the seat never goes before it). */
  lastAt: number;
}
/** A persona as it was. */
export interface PastPersona {
  id: string;
  name: string;
  role: string | null;
  appearance: Appearance;
  createdAt: string;
  updatedAt: number;
}
/** A running job as it was. */
export interface PastJob {
  key: string;
  /** The job's row in the store (its end updates it). */
  row: number;
  seat: string;
  persona: string;
  alias: string | null;
  nativeId: string | null;
  type: string | null;
  label: string;
  background: boolean | null;
  startedAt: number;
}
/** The world at one moment: what a seek gives and what the recorder holds live. */
export interface WorldState {
  at: number;
  seats: Map<string, PastSeat>;
  personas: Map<string, PastPersona>;
  jobs: Map<string, PastJob>;
}

/** An empty world at `at`. */
export function emptyWorld(at: number): WorldState {
  return { at, seats: new Map(), personas: new Map(), jobs: new Map() };
}

const DEFAULT_APPEARANCE: Appearance = { body: 0, hair: 0, palette: 0, accessory: 0 };

/** Folds one transition into the world (in place). Needs-you, launch and usage rows change nothing drawn. */
export function applyTransition(world: WorldState, transition: Transition): void {
  if (transition.at > world.at) world.at = transition.at;
  switch (transition.t) {
    case 'seat': {
      if (!transition.opened) {
        world.seats.delete(transition.seat);
        for (const [key, job] of world.jobs) if (job.seat === transition.seat) world.jobs.delete(key);
        return;
      }
      if (!transition.address || !transition.harness) return;
      world.seats.set(transition.seat, {
        id: transition.seat,
        persona: transition.persona,
        harness: transition.harness,
        address: transition.address,
        activity: { state: 'unknown', why: null, certain: false, label: null, since: null },
        needsSince: null,
        lastAt: transition.at,
      });
      return;
    }
    case 'activity': {
      const seat = world.seats.get(transition.seat);
      if (!seat) return;
      const entering = transition.state === 'needs-you' && (seat.activity.state !== 'needs-you' || seat.activity.why !== transition.why);
      if (entering) seat.needsSince = transition.at;
      else if (transition.state !== 'needs-you') seat.needsSince = null;
      seat.activity = { state: transition.state, why: transition.why, certain: transition.certain, label: transition.label, since: transition.since };
      seat.lastAt = transition.at;
      return;
    }
    case 'persona': {
      if (transition.removed) {
        world.personas.delete(transition.persona);
        return;
      }
      const before = world.personas.get(transition.persona);
      world.personas.set(transition.persona, {
        id: transition.persona,
        name: transition.name ?? before?.name ?? transition.persona,
        role: transition.role,
        appearance: transition.appearance ?? before?.appearance ?? DEFAULT_APPEARANCE,
        createdAt: transition.createdAt ?? before?.createdAt ?? new Date(transition.at).toISOString(),
        updatedAt: transition.at,
      });
      return;
    }
    case 'job': {
      if (transition.ended) {
        world.jobs.delete(transition.key);
        return;
      }
      world.jobs.set(transition.key, {
        key: transition.key,
        row: transition.row,
        seat: transition.seat,
        persona: transition.persona,
        alias: transition.alias,
        nativeId: transition.nativeId,
        type: transition.type,
        label: transition.label,
        background: transition.background,
        startedAt: transition.at,
      });
      return;
    }
    case 'needs':
    case 'launch':
    case 'usage':
    case 'reply':
      return;
    default:
      transition satisfies never;
  }
}

/** The world as JSON for a stored snapshot. */
export function encodeWorld(world: WorldState): string {
  return JSON.stringify({ v: 1, at: world.at, seats: [...world.seats.values()], personas: [...world.personas.values()], jobs: [...world.jobs.values()] });
}

/** A stored snapshot back into a world, or null when it is not one this build wrote. */
export function decodeWorld(text: string): WorldState | null {
  try {
    const value = JSON.parse(text) as { v?: unknown; at?: unknown; seats?: PastSeat[]; personas?: PastPersona[]; jobs?: PastJob[] };
    if (value.v !== 1 || typeof value.at !== 'number' || !Array.isArray(value.seats) || !Array.isArray(value.personas) || !Array.isArray(value.jobs)) return null;
    return {
      at: value.at,
      seats: new Map(value.seats.map((seat) => [seat.id, seat])),
      personas: new Map(value.personas.map((persona) => [persona.id, persona])),
      jobs: new Map(value.jobs.map((job) => [job.key, job])),
    };
  } catch {
    return null;
  }
}

/** A deep enough copy of a world that applying transitions to it leaves the original alone. */
export function cloneWorld(world: WorldState): WorldState {
  return {
    at: world.at,
    seats: new Map([...world.seats].map(([id, seat]) => [id, { ...seat, activity: { ...seat.activity } }])),
    personas: new Map([...world.personas].map(([id, persona]) => [id, { ...persona }])),
    jobs: new Map(world.jobs),
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

function entryOf(job: PastJob): SubagentEntry {
  return {
    nativeId: job.nativeId,
    label: job.label,
    kind: job.type,
    background: job.background,
    state: 'running',
    startedAt: iso(job.startedAt),
    replayable: false,
    replayNote: 'A past moment: open the tray in Live to replay.',
  };
}

/** The fleet snapshot of a world: cursor 0, backlogs empty (they are not recorded), the jobs running then as subagents. */
export function worldSnapshot(world: WorldState): FleetSnapshot {
  const jobsBySeat = new Map<string, PastJob[]>();
  for (const job of world.jobs.values()) {
    const list = jobsBySeat.get(job.seat);
    if (list) list.push(job);
    else jobsBySeat.set(job.seat, [job]);
  }
  const seats: Seat[] = [];
  const seatOfPersona = new Map<string, Seat>();
  for (const past of world.seats.values()) {
    const running = (jobsBySeat.get(past.id) ?? []).sort((left, right) => right.startedAt - left.startedAt);
    const activity = past.activity;
    const seat: Seat = {
      id: past.id,
      harness: past.harness,
      personaId: past.persona,
      address: past.address,
      activity: {
        state: activity.state,
        ...(activity.state === 'needs-you' && activity.why ? { why: activity.why } : {}),
        certain: activity.certain,
        since: activity.since === null ? null : iso(activity.since),
        ...(activity.label !== null ? { label: activity.label } : {}),
      },
      subagents: { running: running.length, recent: running.slice(0, HISTORY_RECENT_JOBS).map(entryOf) },
    };
    // A needs-you state recorded without its reason cannot be drawn as needs-you: shown unknown instead.
    if (seat.activity.state === 'needs-you' && seat.activity.why === undefined) seat.activity = { state: 'unknown', certain: false, since: seat.activity.since };
    seats.push(seat);
    seatOfPersona.set(past.persona, seat);
  }
  const personas: Persona[] = [...world.personas.values()].map((past) => {
    const seat = seatOfPersona.get(past.id);
    return {
      id: past.id,
      name: past.name,
      appearance: past.appearance,
      ...(past.role !== null ? { role: past.role } : {}),
      ...(seat ? { seat: seat.address } : {}),
      createdAt: past.createdAt,
      updatedAt: iso(past.updatedAt),
    };
  });
  // A seat whose persona was not recorded is left out: the world places characters by persona.
  const known = new Set(personas.map((persona) => persona.id));
  const stations: Station[] = rolesList(personas).map((entry) => ({ ...entry, backlog: { items: [] } }));
  return { cursor: 0, seats: seats.filter((seat) => known.has(seat.personaId)), personas, stations };
}

/**
 * A usage sample as the store keeps it: when, its row id (the later of two at one instant wins) and its figures (null:
 * not a number in the store; a count reads it as 0, a figure as unknown).
 */
export interface UsageSample {
  at: number;
  id: number;
  input: number | null;
  output: number | null;
  cacheRead: number | null;
  cacheWrite: number | null;
  costUsd: number | null;
  contextUsed: number | null;
  contextFill: number | null;
}

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0);
const figure = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null);

/** A sample as a seat's usage: its own totals and cost as recorded then (OpenCode records its cost, the others are priced). */
function usageOfSample(sample: UsageSample, harness: Harness): Usage {
  const used = figure(sample.contextUsed);
  const fill = figure(sample.contextFill);
  const usd = figure(sample.costUsd);
  const context = used === null ? null : { used: Math.round(used), window: fill !== null && fill > 0 ? Math.round(used / fill) : null, fill: fill !== null && fill <= 10 ? fill : null };
  return {
    context,
    totals: { input: count(sample.input), output: count(sample.output), cacheRead: count(sample.cacheRead), cacheWrite: count(sample.cacheWrite) },
    partial: false,
    ...(usd === null ? {} : { cost: { usd, estimated: harness !== 'opencode' } }),
    recordedAt: new Date(Number(sample.at)).toISOString(),
  };
}

/** How many of `list` (oldest first by `at`) lie at or before `ms`: one binary search for transitions, worlds and samples. */
export function countAtOrBefore(list: readonly { at: number }[], ms: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle].at <= ms) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The sample a seat shows at `at` (ms): the latest of `samples` (oldest first) at or before it, within the look-back. */
export function sampleAt(samples: readonly UsageSample[], at: number): UsageSample | null {
  const count = countAtOrBefore(samples, at);
  const sample = count > 0 ? samples[count - 1] : null;
  return sample && sample.at > at - HISTORY_PAST_USAGE_LOOKBACK_MS ? sample : null;
}

/**
 * A past moment's seats, each with the usage of the sample `sampleOf` gives it (none: the seat keeps no usage). The
 * host's seek and the page's fold both attach usage through this, so their moments match here by construction.
 */
export function withSampleUsage(seats: readonly Seat[], sampleOf: (seatId: string) => UsageSample | null | undefined): Seat[] {
  return seats.map((seat) => {
    const sample = sampleOf(seat.id);
    return sample ? { ...seat, usage: usageOfSample(sample, seat.harness) } : seat;
  });
}
