/**
 * What the page and the CLI read from the store: the timeline's span (buckets of jobs and needs-you spans), the away
 * digest and the listing of transitions. Folding the rows is pure; the store only hands them over.
 */
import { DIGEST_ENTRIES_MAX, digestTotals, type DigestTotals, HISTORY_BUCKETS_MAX, HISTORY_LIST_MAX, HISTORY_SPANS_MAX, type DigestEntry, type HistoryBucket, type HistoryEvent, type HistoryFilterKind, type NeedsYouSpan } from '../../../shared/history';
import type { HistoryStore } from './store';
import type { NeedsTransition, Transition, WorldState } from '../../../shared/pastWorld';

const iso = (ms: number) => new Date(ms).toISOString();

/** The needs-you spans overlapping `(from, to]`: those open at `from` (from the world then) and those entered after. */
export function needsYouSpans(start: WorldState, rows: readonly NeedsTransition[], to: number): NeedsYouSpan[] {
  const open = new Map<string, NeedsYouSpan>();
  const spans: NeedsYouSpan[] = [];
  for (const seat of start.seats.values()) {
    if (seat.activity.state !== 'needs-you' || !seat.activity.why) continue;
    open.set(seat.id, { seatId: seat.id, personaId: seat.persona, why: seat.activity.why, certain: seat.activity.certain, from: iso(seat.needsSince ?? start.at), to: null });
  }
  for (const row of rows) {
    if (row.at > to) break;
    const current = open.get(row.seat);
    if (row.entered) {
      if (current) spans.push({ ...current, to: iso(row.at) });
      open.set(row.seat, { seatId: row.seat, personaId: row.persona, why: row.why, certain: row.certain, from: iso(row.at), to: null });
    } else if (current) {
      spans.push({ ...current, to: iso(row.at) });
      open.delete(row.seat);
    }
  }
  spans.push(...open.values());
  spans.sort((left, right) => left.from.localeCompare(right.from));
  return spans.slice(-HISTORY_SPANS_MAX);
}

/**
 * Jobs started, ended and running per bucket (counted by SQLite), and seats in needs-you per bucket: those with a
 * needs-you change in it (counted by SQLite) or, where the spans listed reach, those waiting through it.
 */
export function bucketsOf(from: number, bucketMs: number, count: number, runningAtStart: number, counts: BucketCounts, spans: readonly NeedsYouSpan[]): HistoryBucket[] {
  const buckets: HistoryBucket[] = Array.from({ length: count }, (_, index) => ({ at: iso(from + index * bucketMs), started: 0, ended: 0, running: 0, needsYou: 0 }));
  const clampIndex = (index: number) => Math.min(count - 1, Math.max(0, index));
  for (const [index, value] of counts.started) buckets[clampIndex(index)].started += value;
  for (const [index, value] of counts.ended) buckets[clampIndex(index)].ended += value;
  let running = runningAtStart;
  for (const bucket of buckets) {
    running = Math.max(0, running + bucket.started - bucket.ended);
    bucket.running = running;
  }
  const overlapping = new Array<number>(count).fill(0);
  for (const span of spans) {
    const first = clampIndex(Math.floor((Date.parse(span.from) - from) / bucketMs));
    const last = span.to === null ? count - 1 : clampIndex(Math.floor((Date.parse(span.to) - from) / bucketMs));
    for (let index = first; index <= last; index += 1) overlapping[index] += 1;
  }
  for (const [index, value] of counts.needsYou) buckets[clampIndex(index)].needsYou = value;
  buckets.forEach((bucket, index) => (bucket.needsYou = Math.max(bucket.needsYou, overlapping[index])));
  return buckets;
}

/** Per-bucket counts from SQLite: bucket index → jobs started, jobs ended, seats with a needs-you change. */
export interface BucketCounts {
  started: Map<number, number>;
  ended: Map<number, number>;
  needsYou: Map<number, number>;
}

function grouped(store: HistoryStore, sql: string, from: number, bucketMs: number, to: number): Map<number, number> {
  return new Map(store.database.prepare(sql).all(from, bucketMs, from, to).map((row) => [Number(row.b), Number(row.n)]));
}

/**
 * The timeline: span from the oldest state to now, cut into at most `buckets` buckets. Counts are grouped by SQLite;
 * needs-you spans are those of the most recent needs-you changes (at most HISTORY_SPANS_MAX spans).
 */
export function readSpan(store: HistoryStore, now: number, buckets: number) {
  const oldest = store.oldest();
  const from = oldest ?? now;
  const count = Math.max(1, Math.min(HISTORY_BUCKETS_MAX, buckets));
  const bucketMs = Math.max(1000, Math.ceil((now - from) / count));
  const used = Math.max(1, Math.min(count, Math.ceil((now - from) / bucketMs)));
  const counts: BucketCounts = {
    started: grouped(store, 'SELECT CAST((at - ?) / ? AS INTEGER) AS b, count(*) AS n FROM job WHERE at > ? AND at <= ? GROUP BY b', from, bucketMs, now),
    ended: grouped(store, 'SELECT CAST((at - ?) / ? AS INTEGER) AS b, count(*) AS n FROM job_end WHERE at > ? AND at <= ? GROUP BY b', from, bucketMs, now),
    needsYou: grouped(store, 'SELECT CAST((at - ?) / ? AS INTEGER) AS b, count(DISTINCT seat) AS n FROM needs_you WHERE at > ? AND at <= ? GROUP BY b', from, bucketMs, now),
  };
  // The spans of the most recent needs-you changes: from the world just before the oldest of them.
  const oldestNeeded = store.database.prepare('SELECT min(at) AS at FROM (SELECT at FROM needs_you WHERE at > ? AND at <= ? ORDER BY at DESC LIMIT ?)').get(from, now, HISTORY_SPANS_MAX * 2);
  const spansFrom = oldestNeeded?.at === null || oldestNeeded?.at === undefined ? from : Math.max(from, Number(oldestNeeded.at) - 1);
  const needs = store.transitions(spansFrom, now, ['needs']) as NeedsTransition[];
  const spans = needsYouSpans(store.seek(spansFrom).world, needs, now);
  return { from: oldest === null ? null : iso(from), to: iso(now), bucketMs, buckets: bucketsOf(from, bucketMs, used, store.seek(from).world.jobs.size, counts, spans), needsYou: spans };
}

/** Names and roles of personas as the world holds them, else as their last recorded row says. */
function nameOf(world: WorldState, rows: readonly Transition[], personaId: string): { name: string; role: string | null } {
  const persona = world.personas.get(personaId);
  if (persona) return { name: persona.name, role: persona.role };
  for (let index = rows.length - 1; index >= 0; index -= 1) {
    const row = rows[index];
    if (row.t === 'persona' && row.persona === personaId && row.name) return { name: row.name, role: row.role };
  }
  return { name: personaId, role: null };
}

/**
 * The away digest over `(since, until]`: still waiting (longest first), waited (longest first), turns finished (one
 * entry per agent), jobs ended, launches and errors (newest first). `turn-done` and `error` waits count as turns and
 * errors unless the agent still waits.
 */
export function readDigest(store: HistoryStore, since: number, until: number): { entries: DigestEntry[]; more: number; totals: DigestTotals } {
  const start = store.seek(since).world;
  const end = store.seek(until).world;
  const rows = store.transitions(since, until, ['persona', 'needs', 'job', 'launch']);
  const who = (personaId: string) => nameOf(end, rows, personaId);
  const waiting: DigestEntry[] = [];
  for (const seat of end.seats.values()) {
    if (seat.activity.state !== 'needs-you' || !seat.activity.why || seat.needsSince === null) continue;
    if (seat.activity.why === 'turn-done' && seat.needsSince <= since) continue;
    const began = seat.needsSince;
    waiting.push({ kind: 'waiting', personaId: seat.persona, seatId: seat.id, ...who(seat.persona), at: iso(began), why: seat.activity.why, waitedMs: Math.max(0, until - began), harness: seat.harness });
  }
  const spans = needsYouSpans(start, rows.filter((row): row is NeedsTransition => row.t === 'needs'), until).filter((span) => span.to !== null);
  const waited: DigestEntry[] = [];
  const turns = new Map<string, DigestEntry>();
  const errors: DigestEntry[] = [];
  for (const span of spans) {
    const at = span.from;
    const base = { personaId: span.personaId, seatId: span.seatId, ...who(span.personaId), why: span.why };
    if (span.why === 'turn-done') continue;
    if (span.why === 'error') errors.push({ kind: 'error', at, ...base });
    else waited.push({ kind: 'waited', at, ...base, waitedMs: Math.max(0, Date.parse(span.to!) - Math.max(Date.parse(span.from), since)) });
  }
  const jobs: DigestEntry[] = [];
  const launches: DigestEntry[] = [];
  for (const row of rows) {
    if (row.t === 'needs' && row.entered && row.why === 'turn-done') {
      const entry = turns.get(row.persona);
      if (entry) {
        entry.count = (entry.count ?? 0) + 1;
        entry.at = iso(row.at);
      } else turns.set(row.persona, { kind: 'turn-done', personaId: row.persona, seatId: row.seat, ...who(row.persona), at: iso(row.at), count: 1 });
    } else if (row.t === 'job' && row.ended) {
      jobs.push({ kind: 'job-ended', personaId: row.persona, seatId: row.seat, ...who(row.persona), at: iso(row.at), alias: row.alias, type: row.type, label: row.label, ...(row.outcome ? { outcome: row.outcome } : {}) });
    } else if (row.t === 'launch') {
      launches.push({ kind: 'launch', personaId: row.persona, seatId: null, ...who(row.persona), at: iso(row.at), harness: row.harness });
    }
  }
  const newestFirst = (left: DigestEntry, right: DigestEntry) => right.at.localeCompare(left.at);
  const longestFirst = (left: DigestEntry, right: DigestEntry) => (right.waitedMs ?? 0) - (left.waitedMs ?? 0);
  const all = [
    ...waiting.sort(longestFirst),
    ...waited.sort(longestFirst),
    ...[...turns.values()].sort(newestFirst),
    ...jobs.sort(newestFirst),
    ...launches.sort(newestFirst),
    ...errors.sort(newestFirst),
  ];
  return { entries: all.slice(0, DIGEST_ENTRIES_MAX), more: Math.max(0, all.length - DIGEST_ENTRIES_MAX), totals: digestTotals(all) };
}

/** The transition types each `--kind` lists. */
const KIND_TYPES: Record<HistoryFilterKind, Transition['t'][]> = {
  'needs-you': ['needs'],
  jobs: ['job'],
  roles: ['persona'],
  activity: ['activity'],
};

/**
 * One stored transition as the CLI lists it; persona rows that are not role changes are left out. A remote agent's
 * transition (ids `@<host>:…`, recorded from the merged world) names its host (issue 42).
 */
export function eventOf(transition: Transition): HistoryEvent | null {
  const event = eventBody(transition);
  if (!event) return null;
  const host = hostOf(event.seatId) ?? hostOf(event.personaId);
  return host ? { ...event, host } : event;
}

function hostOf(id: string | null): string | null {
  if (!id?.startsWith('@')) return null;
  const colon = id.indexOf(':');
  return colon > 1 ? id.slice(1, colon) : null;
}

function eventBody(transition: Transition): HistoryEvent | null {
  const at = iso(transition.at);
  switch (transition.t) {
    case 'seat':
      return transition.opened
        ? { type: 'seat.opened', at, seatId: transition.seat, personaId: transition.persona, harness: transition.harness ?? 'claude', sessionId: transition.address?.sessionId ?? '' }
        : { type: 'seat.closed', at, seatId: transition.seat, personaId: transition.persona };
    case 'activity':
      return { type: 'activity', at, seatId: transition.seat, personaId: transition.persona, state: transition.state, why: transition.why, certain: transition.certain, label: transition.label };
    case 'needs':
      return transition.entered
        ? { type: 'needs-you.entered', at, seatId: transition.seat, personaId: transition.persona, why: transition.why, certain: transition.certain }
        : { type: 'needs-you.left', at, seatId: transition.seat, personaId: transition.persona, why: transition.why, waitedMs: Math.max(0, transition.waitedMs ?? 0) };
    case 'persona':
      if (!transition.roleChanged) return null;
      return { type: 'role', at, seatId: null, personaId: transition.persona, name: transition.name ?? transition.persona, role: transition.role, previous: transition.previousRole };
    case 'job': {
      const base = { at, seatId: transition.seat, personaId: transition.persona, alias: transition.alias, nativeId: transition.nativeId, jobType: transition.type, label: transition.label, background: transition.background, parent: transition.persona };
      return transition.ended ? { type: 'job.ended', ...base, outcome: transition.outcome } : { type: 'job.started', ...base };
    }
    case 'launch':
      return { type: 'launch', at, seatId: null, personaId: transition.persona, harness: transition.harness, name: transition.name, role: transition.role };
    case 'reply':
      return { type: 'reply.sent', at, seatId: null, personaId: transition.persona };
    case 'usage':
      return { type: 'usage', at, seatId: transition.seat, personaId: transition.persona, input: transition.input, output: transition.output, cacheRead: transition.cacheRead, cacheWrite: transition.cacheWrite, costUsd: transition.costUsd, contextFill: transition.contextFill };
    default:
      return transition satisfies never;
  }
}

/** The transitions of `(since, until]`, oldest first, filtered by seat and kind; at most HISTORY_LIST_MAX. */
export function readList(store: HistoryStore, since: number, until: number, filter: { seat?: string; kind?: HistoryFilterKind }): { events: HistoryEvent[]; more: number } {
  const types = filter.kind ? KIND_TYPES[filter.kind] : undefined;
  const events: HistoryEvent[] = [];
  for (const transition of store.transitions(since, until, types)) {
    if (filter.seat !== undefined && (!('seat' in transition) || transition.seat !== filter.seat)) continue;
    const event = eventOf(transition);
    if (event) events.push(event);
  }
  return { events: events.slice(0, HISTORY_LIST_MAX), more: Math.max(0, events.length - HISTORY_LIST_MAX) };
}
