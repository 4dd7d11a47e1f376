/**
 * The jobs board as of a past moment, from the board the page holds: only jobs that had started by then, each in the
 * state it was in then (running when it ended later), ended ones only within their 30 minutes as of then. The page
 * keeps no older board, so a job that ended long before now is not there: the board says so.
 */
import { ENDED_WINDOW_MS, sortJobs, type Job, type JobBoard } from '../../shared/jobs';

/** The board's jobs as of `atMs`; the unlisted counts are today's, so they are left out (unknown then). */
export function jobsAsOf(board: Pick<JobBoard, 'jobs'>, atMs: number): Pick<JobBoard, 'jobs' | 'unlisted'> {
  const jobs: Job[] = [];
  for (const job of board.jobs) {
    const started = Date.parse(job.startedAt);
    if (Number.isNaN(started) || started > atMs) continue;
    const ended = job.endedAt === undefined ? Number.NaN : Date.parse(job.endedAt);
    if (job.state === 'running' || Number.isNaN(ended) || ended > atMs) {
      // Still running then: no end, no outcome, no reminder from later.
      const { endedAt: _endedAt, endedAtEstimated: _estimated, outcome: _outcome, reminder: _reminder, ...then } = job;
      jobs.push({ ...then, state: 'running' });
    } else if (atMs - ended <= ENDED_WINDOW_MS) jobs.push(job);
  }
  return { jobs: sortJobs(jobs, atMs), unlisted: [] };
}
