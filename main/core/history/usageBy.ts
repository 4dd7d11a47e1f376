/**
 * `usage --by day|role|harness|host` (issue 41): spend grouped from the history's usage samples. Each seat's samples
 * are running totals of its own session; what a seat spent between two samples is their difference, put on the day,
 * the role its persona held, its harness and its host at the later sample. So a role's row counts the time each
 * agent held it.
 *
 * H1. A seat's first sample ever has no baseline: what it shows was spent before history saw the seat; it is not
 *     put anywhere and its group is partial. A window's first sample has the seat's last sample before the window as
 *     its baseline.
 * H2. Totals that went down (a session replaced, a pass that recounted) start a new baseline; the group is partial.
 * H3. A difference with tokens but no known cost on either side makes its group's cost unknown (null, never 0).
 * H4. A history that starts after the window's start makes every row partial.
 */
import type { UsageByKey, UsageByRow } from '../../../shared/pace';
import type { HistoryStore } from './store';

/** One usage sample with its ids as text. */
export interface SampleRow {
  at: number;
  seat: string;
  persona: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  costUsd: number | null;
}

/** What grouping needs besides the samples: each seat's harness and each persona's roles over time. */
export interface SampleContext {
  harnessOf: (seat: string) => string | null;
  /** The role the persona held at `at`, null when it had none or it is not known. */
  roleAt: (persona: string, at: number) => string | null;
  /** The local day of a time (YYYY-MM-DD). */
  dayOf: (at: number) => string;
}

interface Group {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  usd: number;
  costKnown: boolean;
  estimated: boolean;
  partial: boolean;
}

/** The host part of a seat id: `@host:…` for a remote seat, else "local". */
export function hostOf(seat: string): string {
  const colon = seat.indexOf(':');
  return seat.startsWith('@') && colon > 1 ? seat.slice(1, colon) : 'local';
}

/** Groups the window's samples (`baselines`: each seat's last sample before the window). Pure. */
export function groupSamples(by: UsageByKey, baselines: readonly SampleRow[], samples: readonly SampleRow[], context: SampleContext, historyCoversWindow: boolean): UsageByRow[] {
  const last = new Map(baselines.map((row) => [row.seat, row]));
  const groups = new Map<string, Group>();
  const keyOf = (row: SampleRow): string => {
    switch (by) {
      case 'day':
        return context.dayOf(row.at);
      case 'role':
        return context.roleAt(row.persona, row.at) ?? '(no role)';
      case 'harness':
        return context.harnessOf(row.seat) ?? '?';
      case 'host':
        return hostOf(row.seat);
      default:
        return by satisfies never;
    }
  };
  const group = (key: string): Group => {
    let found = groups.get(key);
    if (!found) groups.set(key, (found = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, usd: 0, costKnown: true, estimated: false, partial: !historyCoversWindow }));
    return found;
  };
  for (const row of samples) {
    const before = last.get(row.seat);
    last.set(row.seat, row);
    const into = group(keyOf(row));
    const tokens = row.input + row.output + row.cacheRead + row.cacheWrite;
    if (!before) {
      if (tokens > 0) into.partial = true; // rule H1
      continue;
    }
    const delta = { input: row.input - before.input, output: row.output - before.output, cacheRead: row.cacheRead - before.cacheRead, cacheWrite: row.cacheWrite - before.cacheWrite };
    if (delta.input < 0 || delta.output < 0 || delta.cacheRead < 0 || delta.cacheWrite < 0) {
      into.partial = true; // rule H2
      continue;
    }
    into.input += delta.input;
    into.output += delta.output;
    into.cacheRead += delta.cacheRead;
    into.cacheWrite += delta.cacheWrite;
    const spent = delta.input + delta.output + delta.cacheRead + delta.cacheWrite;
    if (spent === 0) continue;
    if (row.costUsd === null || before.costUsd === null) into.costKnown = false; // rule H3
    else into.usd += Math.max(0, row.costUsd - before.costUsd);
    // OpenCode records its cost; the others are priced from the dated table.
    if (context.harnessOf(row.seat) !== 'opencode') into.estimated = true;
  }
  const rows = [...groups.entries()].map(([key, sum]): UsageByRow => ({
    key,
    totals: { input: sum.input, output: sum.output, cacheRead: sum.cacheRead, cacheWrite: sum.cacheWrite },
    cost: sum.costKnown ? { usd: Math.round(sum.usd * 1e6) / 1e6, estimated: sum.estimated } : null,
    partial: sum.partial,
  }));
  const size = (row: UsageByRow) => row.totals.input + row.totals.output + row.totals.cacheRead + row.totals.cacheWrite;
  return by === 'day' ? rows.sort((left, right) => left.key.localeCompare(right.key)) : rows.sort((left, right) => size(right) - size(left) || left.key.localeCompare(right.key));
}

/** The local day (YYYY-MM-DD) of a time. */
export function localDay(at: number): string {
  const day = new Date(at);
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
}

const SAMPLE_COLUMNS = 's.at AS at, seat.text AS seat, persona.text AS persona, s.input AS input, s.output AS output, s.cache_read AS cacheRead, s.cache_write AS cacheWrite, s.cost_usd AS costUsd';
const SAMPLE_JOIN = 'JOIN name seat ON seat.id = s.seat JOIN name persona ON persona.id = s.persona';

/** Reads the samples of `(from, to]` with their baselines and context from the store, and groups them. */
export function usageBy(store: HistoryStore, by: UsageByKey, from: number, to: number): UsageByRow[] {
  const database = store.database;
  const toRow = (row: Record<string, unknown>): SampleRow => ({
    at: Number(row.at),
    seat: String(row.seat),
    persona: String(row.persona),
    input: Number(row.input),
    output: Number(row.output),
    cacheRead: Number(row.cacheRead),
    cacheWrite: Number(row.cacheWrite),
    costUsd: row.costUsd === null || row.costUsd === undefined ? null : Number(row.costUsd),
  });
  const samples = database.prepare(`SELECT ${SAMPLE_COLUMNS} FROM usage_sample s ${SAMPLE_JOIN} WHERE s.at > ? AND s.at <= ? ORDER BY s.at, s.id`).all(from, to).map(toRow);
  const baselines = database
    .prepare(`SELECT ${SAMPLE_COLUMNS} FROM usage_sample s ${SAMPLE_JOIN} WHERE s.at = (SELECT max(b.at) FROM usage_sample b WHERE b.seat = s.seat AND b.at <= ?) ORDER BY s.at, s.id`)
    .all(from)
    .map(toRow);
  const harnesses = new Map<string, string>();
  for (const row of database.prepare('SELECT seat.text AS seat, e.harness AS harness FROM seat_event e JOIN name seat ON seat.id = e.seat WHERE e.harness IS NOT NULL ORDER BY e.at').all()) harnesses.set(String(row.seat), String(row.harness));
  const roles = new Map<string, { at: number; role: string | null; previous: string | null }[]>();
  for (const row of database.prepare('SELECT p.at AS at, persona.text AS persona, p.role AS role, p.previous_role AS previous FROM persona_event p JOIN name persona ON persona.id = p.persona WHERE p.removed = 0 AND p.at <= ? ORDER BY p.at').all(to)) {
    const list = roles.get(String(row.persona)) ?? [];
    list.push({ at: Number(row.at), role: row.role === null ? null : String(row.role), previous: row.previous === null ? null : String(row.previous) });
    roles.set(String(row.persona), list);
  }
  const roleAt = (persona: string, at: number): string | null => {
    const list = roles.get(persona);
    if (!list || list.length === 0) return null;
    let held: string | null = list[0].at <= at ? list[0].role : list[0].previous;
    for (const event of list) if (event.at <= at) held = event.role;
    return held;
  };
  const oldest = store.oldest();
  return groupSamples(by, baselines, samples, { harnessOf: (seat) => harnesses.get(seat) ?? null, roleAt, dayOf: localDay }, oldest !== null && oldest <= from);
}
