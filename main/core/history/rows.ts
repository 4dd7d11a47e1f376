/** Transitions to and from their table rows (pure): one insert statement and one row decoder per table. */
import type { Appearance, Harness, NeedsWhy, Outcome, SeatAddress } from '../../../shared/schemas';
import { slugType } from './aliasRules';
import type { Params, Row } from './sqlite';
import type { Transition } from '../../../shared/pastWorld';

/**
 * The number that orders a row among the rows of its instant (tables keyed by time and this number): one more than
 * the largest at the same time, found through the key. Its statement takes the time a second time.
 */
function nextAt(table: string): string {
  return `(SELECT coalesce(max(id), 0) + 1 FROM ${table} WHERE at = ?)`;
}

/** The insert statement of each transition type. */
export const INSERTS: Record<Transition['t'], string> = {
  seat: 'INSERT INTO seat_event (at, seat, persona, opened, harness, session, home, cwd, path) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  activity: `INSERT INTO activity (at, id, seat, persona, state, why, certain, label, since) VALUES (?, ${nextAt('activity')}, ?, ?, ?, ?, ?, ?, ?)`,
  needs: `INSERT INTO needs_you (at, id, seat, persona, entered, why, certain, waited_ms) VALUES (?, ${nextAt('needs_you')}, ?, ?, ?, ?, ?, ?)`,
  persona: 'INSERT INTO persona_event (at, persona, removed, name, role, previous_role, role_changed, appearance, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  job: 'INSERT INTO job (id, at, seat, persona, native_id, key, alias, type, label, background) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  launch: 'INSERT INTO launch (at, persona, harness, name, role) VALUES (?, ?, ?, ?, ?)',
  reply: `INSERT INTO reply_sent (at, id, persona) VALUES (?, ${nextAt('reply_sent')}, ?)`,
  usage: `INSERT INTO usage_sample (at, id, seat, persona, input, output, cache_read, cache_write, cost_usd, context_used, context_fill) VALUES (?, ${nextAt('usage_sample')}, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
};

const flag = (value: boolean) => (value ? 1 : 0);
/** A job's `background` column: 1 background, 0 foreground, 2 not known (issue 38; older rows hold 0 or 1). */
const kindFlag = (value: boolean | null) => (value === null ? 2 : flag(value));

/** Interns a string (seat id, persona id, label) as a small integer of the `name` table. */
export type Intern = (text: string) => number;
/** The string of an interned integer. */
export type Lookup = (id: number) => string;

/**
 * A job's end, beside the row its start wrote (none when that row is not kept). Parameters: job row, time, interned
 * outcome, and the job row again.
 */
export const JOB_END = 'INSERT OR REPLACE INTO job_end (job, at, outcome) SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM job WHERE id = ?)';

/** Ends of jobs in a time window `(from, to]`, each with its job's row (a job's start is selected by `SELECTS.job`). */
export const JOB_ENDS = 'SELECT job.*, e.at AS ended_at, e.outcome AS outcome FROM job_end e JOIN job ON job.id = e.job WHERE e.at > ? AND e.at <= ? ORDER BY e.at, e.job';

/** The insert parameters of a transition, in its statement's order; ids and labels interned. */
export function insertParams(transition: Transition, id: Intern): Params {
  switch (transition.t) {
    case 'seat': {
      const address = transition.address;
      return [transition.at, id(transition.seat), id(transition.persona), flag(transition.opened), transition.harness, address?.sessionId ?? null, address?.home ?? null, address?.cwd ?? null, address?.path ?? null];
    }
    case 'activity':
      // `since` is kept only when it is not the transition's own time (mostly it is: the record's own time).
      return [transition.at, transition.at, id(transition.seat), id(transition.persona), id(transition.state), transition.why === null ? null : id(transition.why), flag(transition.certain), transition.label === null ? null : id(transition.label), transition.since === transition.at ? null : (transition.since ?? -1)];
    case 'needs':
      return [transition.at, transition.at, id(transition.seat), id(transition.persona), flag(transition.entered), id(transition.why), flag(transition.certain), transition.waitedMs];
    case 'persona':
      return [transition.at, id(transition.persona), flag(transition.removed), transition.name, transition.role, transition.previousRole, flag(transition.roleChanged), transition.appearance ? JSON.stringify(transition.appearance) : null, transition.createdAt];
    case 'job':
      // The key is kept only when the native id cannot give it back (`<seat>|<native id>`).
      // A job's start; its end is a `job_end` row (JOB_END).
      return [transition.row, transition.at, id(transition.seat), id(transition.persona), transition.nativeId, transition.nativeId === null ? transition.key : null, storedAlias(transition.alias, transition.type), transition.type === null ? null : id(transition.type), id(transition.label), kindFlag(transition.background)];
    case 'launch':
      return [transition.at, id(transition.persona), transition.harness, transition.name, transition.role];
    case 'reply':
      return [transition.at, transition.at, id(transition.persona)];
    case 'usage':
      return [transition.at, transition.at, id(transition.seat), id(transition.persona), transition.input, transition.output, transition.cacheRead, transition.cacheWrite, transition.costUsd, transition.contextUsed, transition.contextFill];
    default:
      return transition satisfies never;
  }
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number => Number(value);
const maybeNum = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

function appearanceOf(value: unknown): Appearance | null {
  if (typeof value !== 'string') return null;
  try {
    return JSON.parse(value) as Appearance;
  } catch {
    return null;
  }
}

/** The select of each table, for a time window `(from, to]`, in insertion order within a time. */
export const SELECTS = {
  seat: 'SELECT * FROM seat_event WHERE at > ? AND at <= ? ORDER BY at, id',
  activity: 'SELECT * FROM activity WHERE at > ? AND at <= ? ORDER BY at, id',
  needs: 'SELECT * FROM needs_you WHERE at > ? AND at <= ? ORDER BY at, id',
  persona: 'SELECT * FROM persona_event WHERE at > ? AND at <= ? ORDER BY at, id',
  // Jobs that started in the window (their ends: JOB_ENDS).
  job: 'SELECT * FROM job WHERE at > ? AND at <= ? ORDER BY at, id',
  launch: 'SELECT * FROM launch WHERE at > ? AND at <= ? ORDER BY at, id',
  usage: 'SELECT * FROM usage_sample WHERE at > ? AND at <= ? ORDER BY at, id',
  reply: 'SELECT * FROM reply_sent WHERE at > ? AND at <= ? ORDER BY at, id',
} as const satisfies Record<Transition['t'], string>;

/** A row of table `type` back into its transition; `name` turns interned integers back into their strings. */
export function decodeRow(type: Transition['t'], row: Row, name: Lookup): Transition {
  const seat = () => name(num(row.seat));
  const person = () => name(num(row.persona));
  switch (type) {
    case 'seat': {
      const opened = num(row.opened) === 1;
      const harness = text(row.harness) as Harness | null;
      const address: SeatAddress | null =
        opened && harness && text(row.home) && text(row.session)
          ? { harness, home: text(row.home)!, sessionId: text(row.session)!, cwd: text(row.cwd), path: text(row.path) }
          : null;
      return { t: 'seat', at: num(row.at), seat: seat(), persona: person(), opened, harness, address };
    }
    case 'activity':
      return {
        t: 'activity',
        at: num(row.at),
        seat: seat(),
        persona: person(),
        state: name(num(row.state)) as 'working',
        why: row.why === null || row.why === undefined ? null : (name(num(row.why)) as NeedsWhy),
        certain: num(row.certain) === 1,
        label: row.label === null || row.label === undefined ? null : name(num(row.label)),
        since: row.since === null || row.since === undefined ? num(row.at) : num(row.since) === -1 ? null : num(row.since),
      };
    case 'needs':
      return { t: 'needs', at: num(row.at), seat: seat(), persona: person(), entered: num(row.entered) === 1, why: name(num(row.why)) as NeedsWhy, certain: num(row.certain) === 1, waitedMs: maybeNum(row.waited_ms) };
    case 'persona':
      return {
        t: 'persona',
        at: num(row.at),
        persona: person(),
        removed: num(row.removed) === 1,
        name: text(row.name),
        role: text(row.role),
        previousRole: text(row.previous_role),
        roleChanged: num(row.role_changed) === 1,
        appearance: appearanceOf(row.appearance),
        createdAt: text(row.created_at),
      };
    case 'job':
      return jobStart(row, name);
    case 'launch':
      return { t: 'launch', at: num(row.at), persona: person(), harness: String(row.harness) as Harness, name: String(row.name), role: text(row.role) };
    case 'reply':
      return { t: 'reply', at: num(row.at), persona: person() };
    case 'usage':
      return {
        t: 'usage',
        at: num(row.at),
        seat: seat(),
        persona: person(),
        input: num(row.input),
        output: num(row.output),
        cacheRead: num(row.cache_read),
        cacheWrite: num(row.cache_write),
        costUsd: maybeNum(row.cost_usd),
        contextUsed: maybeNum(row.context_used),
        contextFill: maybeNum(row.context_fill),
      };
    default:
      return type satisfies never;
  }
}

/**
 * A job's alias as stored: its number alone when it is `<slug of its type>-<number>` (as aliases are issued), the
 * text otherwise (an alias moved in from an older file may not follow the rule).
 */
function storedAlias(alias: string | null, type: string | null): string | bigint | null {
  if (alias === null) return null;
  const prefix = `${slugType(type)}-`;
  if (!alias.startsWith(prefix)) return alias;
  const digits = alias.slice(prefix.length);
  // A bigint binds as an integer in both drivers (a number would be stored as a real in this untyped column).
  return /^[1-9]\d{0,14}$/.test(digits) ? BigInt(digits) : alias;
}

/** A stored alias back into its text. */
function aliasOf(value: unknown, type: string | null): string | null {
  if (typeof value === 'number' || typeof value === 'bigint') return `${slugType(type)}-${value}`;
  return text(value);
}

/** The start of a job row (its end, when the row has one, comes from `jobEnd`). */
function jobStart(row: Row, name: Lookup): Transition {
  const nativeId = text(row.native_id);
  const seat = name(num(row.seat));
  const type = row.type === null || row.type === undefined ? null : name(num(row.type));
  return {
    t: 'job',
    at: num(row.at),
    row: num(row.id),
    seat,
    persona: name(num(row.persona)),
    ended: false,
    key: text(row.key) ?? `${seat}|${nativeId}`,
    alias: aliasOf(row.alias, type),
    nativeId,
    type,
    label: name(num(row.label)),
    background: num(row.background) === 2 ? null : num(row.background) === 1,
    outcome: null,
  };
}

/** A row of `JOB_ENDS` (a job's end with its start's row) into the end's transition. */
export function jobEnd(row: Row, name: Lookup): Transition {
  const start = jobStart(row, name) as Extract<Transition, { t: 'job' }>;
  const outcome = row.outcome === null || row.outcome === undefined ? null : (name(num(row.outcome)) as Outcome);
  return { ...start, at: num(row.ended_at), ended: true, outcome };
}

/** Order of types at one instant, so a persona exists before its seat opens and a seat before its activity. */
export const TYPE_ORDER: Record<Transition['t'], number> = { persona: 0, seat: 1, activity: 2, needs: 3, job: 4, launch: 5, usage: 6, reply: 7 };

/** Merges per-table lists (each in time order) into one list ordered by time, then type, then insertion. */
export function mergeByTime(lists: readonly Transition[][]): Transition[] {
  const all = lists.flat();
  // A stable sort keeps insertion order among rows of one type at one instant.
  return all.sort((left, right) => left.at - right.at || TYPE_ORDER[left.t] - TYPE_ORDER[right.t]);
}
