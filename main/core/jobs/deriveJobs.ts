/**
 * Jobs from the fleet snapshot, pure: the same subagent summaries the trays show, with no read of their own.
 *
 * Rule J1: every running subagent of every seat whose subagents are known is a job; a seat shown as "?" has none.
 * Rule J2: an ended subagent stays on the board for 30 minutes after it ended (its start when no end is recorded).
 * Rule J3 (order) and J4 (filters) are in shared/jobs.ts.
 * Rule J5: a seat may count more running subagents than its summary lists (it lists the eight most recent); those
 *   are reported per seat as `unlisted`, never invented.
 */
import { ENDED_WINDOW_MS, jobKey, sortJobs, type Job, type Unlisted } from '../../../shared/jobs';
import type { FleetSnapshot, Persona, Seat, SubagentEntry } from '../../../shared/schemas';
import type { AliasRequest } from './aliasPort';

/** The alias requests of every listed subagent with a native id (the tray's entries get aliases too). */
export function aliasRequestsOf(seats: readonly Seat[]): AliasRequest[] {
  const requests: AliasRequest[] = [];
  for (const seat of seats) {
    for (const entry of listedEntries(seat)) {
      if (entry.nativeId !== null) requests.push({ key: jobKey(seat.id, entry.nativeId), type: entry.kind });
    }
  }
  return requests;
}

/** The entries a seat's summary lists: recent ones, and earlier ones where the reader lists them. */
function listedEntries(seat: Seat): SubagentEntry[] {
  const summary = seat.subagents as (Seat['subagents'] & { earlier?: SubagentEntry[] }) | undefined;
  if (!summary) return [];
  return [...summary.recent, ...(summary.earlier ?? [])];
}

/** A seat's listed entries as jobs, before rule J2's window: kept while the seat, its persona and aliases are the same. */
interface SeatJobs {
  seat: Seat;
  persona: Persona | undefined;
  /** Each job with the time rule J2 measures from (NaN when unknown: the job never shows once ended). */
  jobs: { job: Job; endMs: number }[];
  runningListed: number;
}

/**
 * What one derivation keeps for the next, by seat id: an unchanged seat (the census keeps its object) gives the same
 * job objects again, so the board's comparison, check and changes cost nothing for it.
 */
export class JobMemo {
  seats = new Map<string, SeatJobs>();
}

/** The board's jobs (rules J1–J3) and the running subagents counted but not listed (rule J5). */
export function deriveJobs(
  snapshot: Pick<FleetSnapshot, 'seats' | 'personas'>,
  aliases: ReadonlyMap<string, string>,
  now: number,
  memo?: JobMemo,
): { jobs: Job[]; unlisted: Unlisted[] } {
  const personas = new Map(snapshot.personas.map((persona) => [persona.id, persona]));
  const jobs: Job[] = [];
  const unlisted: Unlisted[] = [];
  const kept = new Map<string, SeatJobs>();
  for (const seat of snapshot.seats) {
    if (!seat.subagents) continue;
    const persona = personas.get(seat.personaId);
    const known = memo?.seats.get(seat.id);
    const seatJobs = known && known.seat === seat && known.persona === persona && sameAliases(known, aliases) ? known : seatJobsOf(seat, persona, aliases);
    kept.set(seat.id, seatJobs);
    for (const { job, endMs } of seatJobs.jobs) {
      if (job.state === 'running' || (!Number.isNaN(endMs) && now - endMs <= ENDED_WINDOW_MS)) jobs.push(job);
    }
    const missing = seat.subagents.running - seatJobs.runningListed;
    if (missing > 0) unlisted.push({ seatId: seat.id, running: missing, harness: seat.harness, persona: persona?.name ?? seat.personaId, role: persona?.role ?? null });
  }
  if (memo) memo.seats = kept;
  return { jobs: sortJobs(jobs, now), unlisted };
}

/** True when every kept job's alias is still the one the aliases give. */
function sameAliases(known: SeatJobs, aliases: ReadonlyMap<string, string>): boolean {
  for (const { job } of known.jobs) {
    const alias = job.nativeId === null ? null : (aliases.get(jobKey(job.seatId, job.nativeId)) ?? null);
    if (alias !== job.alias) return false;
  }
  return true;
}

/** A seat's listed recent entries as jobs (the first entry of each native id), each with the end rule J2 counts from. */
function seatJobsOf(seat: Seat, persona: Persona | undefined, aliases: ReadonlyMap<string, string>): SeatJobs {
  const jobs: SeatJobs['jobs'] = [];
  let runningListed = 0;
  const seen = new Set<string>();
  for (const entry of seat.subagents!.recent) {
    if (entry.nativeId !== null) {
      if (seen.has(entry.nativeId)) continue;
      seen.add(entry.nativeId);
    }
    if (entry.state === 'running') runningListed += 1;
    const job: Job = {
      alias: entry.nativeId === null ? null : (aliases.get(jobKey(seat.id, entry.nativeId)) ?? null),
      nativeId: entry.nativeId,
      seatId: seat.id,
      personaId: seat.personaId,
      persona: persona?.name ?? seat.personaId,
      role: persona?.role ?? null,
      harness: seat.harness,
      type: entry.kind,
      label: entry.label,
      kind: entry.background === null ? 'unknown' : entry.background ? 'background' : 'foreground',
      state: entry.state,
      startedAt: entry.startedAt,
      ...(entry.endedAt !== undefined ? { endedAt: entry.endedAt } : {}),
      ...(entry.endedAtEstimated ? { endedAtEstimated: true } : {}),
      ...(entry.outcome !== undefined ? { outcome: entry.outcome } : {}),
      ...(entry.usage !== undefined ? { usage: entry.usage } : {}),
      replayable: entry.replayable && entry.nativeId !== null,
    };
    jobs.push({ job, endMs: entry.state === 'running' ? Number.NaN : endOf(entry) });
  }
  return { seat, persona, jobs, runningListed };
}

/** Rule J2's end: the recorded end, else the start (NaN when neither parses). */
function endOf(entry: SubagentEntry): number {
  return Date.parse(entry.endedAt ?? entry.startedAt);
}
