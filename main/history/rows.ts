/** Transitions to and from their table rows (pure): one insert statement and one row decoder per table. */
import type { Appearance, Harness, NeedsWhy, Outcome, SeatAddress } from '../../shared/schemas';
import type { Params, Row } from './sqlite';
import type { Transition } from './transitions';

/** The insert statement of each transition type. */
export const INSERTS: Record<Transition['t'], string> = {
  seat: 'INSERT INTO seat_event (at, seat, persona, opened, harness, session, home, cwd, path) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  activity: 'INSERT INTO activity (at, seat, persona, state, why, certain, label, since) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  needs: 'INSERT INTO needs_you (at, seat, persona, entered, why, certain, waited_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
  persona: 'INSERT INTO persona_event (at, persona, removed, name, role, previous_role, role_changed, appearance, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  job: 'INSERT INTO job (id, at, ended_at, seat, persona, native_id, key, alias, type, label, background, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  launch: 'INSERT INTO launch (at, persona, harness, name, role) VALUES (?, ?, ?, ?, ?)',
  usage: 'INSERT INTO usage_sample (at, seat, persona, input, output, cache_read, cache_write, cost_usd, context_used, context_fill) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
};

const flag = (value: boolean) => (value ? 1 : 0);

/** Interns a string (seat id, persona id, label) as a small integer of the `name` table. */
export type Intern = (text: string) => number;
/** The string of an interned integer. */
export type Lookup = (id: number) => string;

/** A job's end: the row its start wrote. */
export const JOB_END = 'UPDATE job SET ended_at = ?, outcome = ? WHERE id = ?';

/** The insert parameters of a transition, in its statement's order; ids and labels interned. */
export function insertParams(transition: Transition, id: Intern): Params {
  switch (transition.t) {
    case 'seat': {
      const address = transition.address;
      return [transition.at, id(transition.seat), id(transition.persona), flag(transition.opened), transition.harness, address?.sessionId ?? null, address?.home ?? null, address?.cwd ?? null, address?.path ?? null];
    }
    case 'activity':
      // `since` is kept only when it is not the transition's own time (mostly it is: the record's own time).
      return [transition.at, id(transition.seat), id(transition.persona), transition.state, transition.why, flag(transition.certain), transition.label === null ? null : id(transition.label), transition.since === transition.at ? null : (transition.since ?? -1)];
    case 'needs':
      return [transition.at, id(transition.seat), id(transition.persona), flag(transition.entered), transition.why, flag(transition.certain), transition.waitedMs];
    case 'persona':
      return [transition.at, id(transition.persona), flag(transition.removed), transition.name, transition.role, transition.previousRole, flag(transition.roleChanged), transition.appearance ? JSON.stringify(transition.appearance) : null, transition.createdAt];
    case 'job':
      // The key is kept only when the native id cannot give it back (`<seat>|<native id>`).
      return [transition.row, transition.at, transition.ended ? transition.at : null, id(transition.seat), id(transition.persona), transition.nativeId, transition.nativeId === null ? transition.key : null, transition.alias, transition.type === null ? null : id(transition.type), id(transition.label), flag(transition.background), transition.outcome];
    case 'launch':
      return [transition.at, id(transition.persona), transition.harness, transition.name, transition.role];
    case 'usage':
      return [transition.at, id(transition.seat), id(transition.persona), transition.input, transition.output, transition.cacheRead, transition.cacheWrite, transition.costUsd, transition.contextUsed, transition.contextFill];
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
  job: 'SELECT * FROM job WHERE (at > ? AND at <= ?) OR (ended_at > ? AND ended_at <= ?) ORDER BY id',
  launch: 'SELECT * FROM launch WHERE at > ? AND at <= ? ORDER BY at, id',
  usage: 'SELECT * FROM usage_sample WHERE at > ? AND at <= ? ORDER BY at, id',
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
        state: String(row.state) as 'working',
        why: text(row.why) as NeedsWhy | null,
        certain: num(row.certain) === 1,
        label: row.label === null || row.label === undefined ? null : name(num(row.label)),
        since: row.since === null || row.since === undefined ? num(row.at) : num(row.since) === -1 ? null : num(row.since),
      };
    case 'needs':
      return { t: 'needs', at: num(row.at), seat: seat(), persona: person(), entered: num(row.entered) === 1, why: String(row.why) as NeedsWhy, certain: num(row.certain) === 1, waitedMs: maybeNum(row.waited_ms) };
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

/** The start of a job row (its end, when the row has one, comes from `jobEnd`). */
function jobStart(row: Row, name: Lookup): Transition {
  const nativeId = text(row.native_id);
  const seat = name(num(row.seat));
  return {
    t: 'job',
    at: num(row.at),
    row: num(row.id),
    seat,
    persona: name(num(row.persona)),
    ended: false,
    key: text(row.key) ?? `${seat}|${nativeId}`,
    alias: text(row.alias),
    nativeId,
    type: row.type === null || row.type === undefined ? null : name(num(row.type)),
    label: name(num(row.label)),
    background: num(row.background) === 1,
    outcome: null,
  };
}

/** A job row's transitions within `(from, to]`: its start, its end, or both. */
export function jobRowTransitions(row: Row, name: Lookup, from: number, to: number): Transition[] {
  const start = jobStart(row, name) as Extract<Transition, { t: 'job' }>;
  const out: Transition[] = [];
  if (start.at > from && start.at <= to) out.push(start);
  const ended = row.ended_at === null || row.ended_at === undefined ? null : num(row.ended_at);
  if (ended !== null && ended > from && ended <= to) out.push({ ...start, at: ended, ended: true, outcome: text(row.outcome) as Outcome | null });
  return out;
}

/** Order of types at one instant, so a persona exists before its seat opens and a seat before its activity. */
export const TYPE_ORDER: Record<Transition['t'], number> = { persona: 0, seat: 1, activity: 2, needs: 3, job: 4, launch: 5, usage: 6 };

/** Merges per-table lists (each in time order) into one list ordered by time, then type, then insertion. */
export function mergeByTime(lists: readonly Transition[][]): Transition[] {
  const all = lists.flat();
  // A stable sort keeps insertion order among rows of one type at one instant.
  return all.sort((left, right) => left.at - right.at || TYPE_ORDER[left.t] - TYPE_ORDER[right.t]);
}
