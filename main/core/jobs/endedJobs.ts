/**
 * Rule J2b: an ended job stays on the board for its 30 minutes even after its seat's summary stops listing it. A
 * summary lists only the eight most recent subagents, so on a busy seat a job that ended two minutes ago is pushed
 * out by newer ones; the board remembers the ended jobs it showed, and keeps them until their window closes, their
 * seat goes (or becomes unknown, rule J1), or the summary lists them again (the listed entry wins).
 */
import { ENDED_WINDOW_MS, jobRowKey, sortJobs, type Job } from '../../../shared/jobs';
import type { Seat } from '../../../shared/schemas';

/** The ended jobs the board showed, by row key. */
export class EndedJobs {
  private readonly kept = new Map<string, Job>();

  /** The jobs derived now, with the remembered ended ones no longer listed, in the board's order. */
  merge(derived: readonly Job[], seats: readonly Pick<Seat, 'id' | 'subagents'>[], now: number): Job[] {
    const known = new Set(seats.filter((seat) => seat.subagents).map((seat) => seat.id));
    const listed = new Set(derived.map(jobRowKey));
    for (const [key, job] of this.kept) {
      if (listed.has(key) || !known.has(job.seatId) || !withinWindow(job, now)) this.kept.delete(key);
    }
    for (const job of derived) if (job.state !== 'running' && withinWindow(job, now)) this.kept.set(jobRowKey(job), job);
    const remembered = [...this.kept.entries()].filter(([key]) => !listed.has(key)).map(([, job]) => job);
    return remembered.length === 0 ? [...derived] : sortJobs([...derived, ...remembered], now);
  }
}

function withinWindow(job: Job, now: number): boolean {
  const end = Date.parse(job.endedAt ?? job.startedAt);
  return !Number.isNaN(end) && now - end <= ENDED_WINDOW_MS;
}
