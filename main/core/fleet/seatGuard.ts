/**
 * Fault isolation at the seat boundary (issue 36): a reader's projection is checked against the contract where it
 * joins the fleet. What would break the contract is dropped there and named, so one seat's absurd figure never makes
 * a whole snapshot, a patch, a history write or a remote stream undeliverable.
 *
 * G1. A seat that passes the contract is returned as it is (the same object).
 * G2. A subagent entry whose own usage breaks the contract loses its usage (unknown); an entry that breaks it
 *     otherwise is left out and counted. A summary that still fails (its running count) is dropped: unknown.
 * G3. Usage or drift that breaks the contract is dropped (absent = unknown); activity that does is unknown.
 * G4. Every drop is named in `unknownReason` (field and contract message), so the page and `doctor` can say which.
 * G5. A seat whose own identity still fails (a bug upstream) keeps only what the persona store gave, shown unknown.
 */
import type { z } from 'zod';
import { FleetUsageSchema, type FleetUsage } from '../../../shared/usage';
import { AgentMessageSchema, NoticeSchema, SeatSchema, TeamSchema, WorkItemSchema, type Seat } from '../../../shared/schemas';
import { UNKNOWN_ACTIVITY } from '../../../shared/activity';

/** The longest part of a contract message quoted in a reason, in characters. */
const REASON_DETAIL_MAX = 80;

/** A seat after the guard, with the fields dropped (empty when it passed as it was). */
export interface GuardedSeat {
  seat: Seat;
  dropped: string[];
}

type Issue = z.core.$ZodIssue;

function issueText(issue: Issue): string {
  const path = issue.path.map(String).join('.');
  return `${path} (${issue.message.slice(0, REASON_DETAIL_MAX)})`;
}

function failures(seat: Seat): Issue[] {
  const checked = SeatSchema.safeParse(seat);
  return checked.success ? [] : checked.error.issues;
}

/** Rule G2: the summary with bad entries' usage dropped and bad entries left out; null when it still fails. */
function guardSubagents(summary: NonNullable<Seat['subagents']>, issues: Issue[], dropped: string[]): Seat['subagents'] | null {
  const lists = { recent: [...summary.recent], earlier: summary.earlier ? [...summary.earlier] : undefined };
  const leaveOut = { recent: new Set<number>(), earlier: new Set<number>() };
  for (const issue of issues) {
    const [, list, index, field] = issue.path;
    if ((list !== 'recent' && list !== 'earlier') || typeof index !== 'number') continue;
    const entries = lists[list];
    const entry = entries?.[index];
    if (!entries || !entry) continue;
    if (field === 'usage' && !leaveOut[list].has(index)) {
      const { usage: _usage, ...rest } = entry;
      entries[index] = rest;
    } else leaveOut[list].add(index);
    dropped.push(issueText(issue));
  }
  const left = leaveOut.recent.size + leaveOut.earlier.size;
  const guarded = {
    ...summary,
    recent: lists.recent.filter((_, index) => !leaveOut.recent.has(index)),
    ...(lists.earlier ? { earlier: lists.earlier.filter((_, index) => !leaveOut.earlier.has(index)) } : {}),
  };
  if (left > 0) dropped.push(`${left} subagent ${left === 1 ? 'entry' : 'entries'} left out`);
  return guarded;
}

/** Checks a seat against the contract and drops what breaks it (rules G1–G5). */
export function guardSeat(seat: Seat): GuardedSeat {
  const issues = failures(seat);
  if (issues.length === 0) return { seat, dropped: [] };
  const dropped: string[] = [];
  let guarded: Seat = { ...seat };
  const byPart = new Map<string, Issue[]>();
  for (const issue of issues) {
    const part = String(issue.path[0] ?? '');
    byPart.set(part, [...(byPart.get(part) ?? []), issue]);
  }
  for (const [part, partIssues] of byPart) {
    if (part === 'subagents' && guarded.subagents) {
      const summary = guardSubagents(guarded.subagents, partIssues, dropped);
      if (summary) guarded.subagents = summary;
    } else if (part === 'usage' || part === 'drift') {
      delete guarded[part];
      dropped.push(...partIssues.map(issueText));
    } else if (part === 'activity') {
      guarded.activity = UNKNOWN_ACTIVITY;
      dropped.push(...partIssues.map(issueText));
    }
  }
  // A summary still failing (its running count, its list sizes) is dropped whole: subagents unknown.
  if (failures(guarded).some((issue) => issue.path[0] === 'subagents')) {
    delete guarded.subagents;
    dropped.push('subagents (the summary breaks the contract)');
  }
  const left = failures({ ...guarded, unknownReason: undefined });
  if (left.length > 0) {
    // Rule G5: only the persona store's part is kept.
    dropped.push(...left.map(issueText));
    guarded = { id: String(seat.id), harness: seat.harness, personaId: String(seat.personaId), address: seat.address, activity: UNKNOWN_ACTIVITY };
  }
  const reason = `Part of this seat broke the contract and is not shown: ${dropped.slice(0, 4).join('; ')}${dropped.length > 4 ? ` (and ${dropped.length - 4} more)` : ''}.`;
  guarded.unknownReason = seat.unknownReason ? `${seat.unknownReason} ${reason}` : reason;
  return { seat: guarded, dropped };
}

/** Keeps the entries of a list that pass their schema; how many were left out. */
function keepValid<T>(schema: z.ZodType, list: readonly T[]): { list: T[]; left: number } {
  const kept = list.filter((entry) => schema.safeParse(entry).success);
  return { list: kept.length === list.length ? (list as T[]) : kept, left: list.length - kept.length };
}

/** The fleet-wide parts of a snapshot besides the seats, each checked apart (a bad one is dropped, never all). */
export interface FleetParts {
  usage?: FleetUsage;
  messages?: unknown[];
  teams?: unknown[];
  notices?: unknown[];
  stations?: Array<{ backlog: { items: unknown[] } }>;
}

/** Drops the fleet-wide parts that break the contract; returns what was dropped, by name (for one log line). */
export function guardFleetParts<T extends FleetParts>(body: T): { body: T; dropped: string[] } {
  const dropped: string[] = [];
  const next = { ...body };
  if (next.usage !== undefined && !FleetUsageSchema.safeParse(next.usage).success) {
    delete next.usage;
    dropped.push('usage');
  }
  for (const [key, schema] of [['messages', AgentMessageSchema], ['teams', TeamSchema], ['notices', NoticeSchema]] as const) {
    const list = next[key];
    if (!list) continue;
    const kept = keepValid(schema, list);
    if (kept.left > 0) {
      next[key] = kept.list;
      dropped.push(`${kept.left} of ${key}`);
    }
  }
  if (next.stations) {
    next.stations = next.stations.map((station) => {
      const kept = keepValid(WorkItemSchema, station.backlog.items);
      if (kept.left === 0) return station;
      dropped.push(`${kept.left} backlog items`);
      return { ...station, backlog: { ...station.backlog, items: kept.list } };
    });
  }
  return { body: dropped.length > 0 ? next : body, dropped };
}
