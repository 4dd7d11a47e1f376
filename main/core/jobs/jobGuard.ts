/**
 * Fault isolation on the jobs board (issue 36): a job that would break the contract is left out of the board (and
 * logged once per change), so one bad job never makes the whole board undeliverable to the page.
 */
import { JobSchema, type Job } from '../../../shared/jobs';

let lastLogged = '';
/** Jobs that passed already: the board keeps an unchanged seat's job objects, so each is checked once. */
const passed = new WeakSet<Job>();

/** The jobs that pass the contract (the same array when all do). */
export function guardJobs(jobs: Job[], log?: (message: string) => void): Job[] {
  const bad: string[] = [];
  const kept = jobs.filter((job) => {
    if (passed.has(job)) return true;
    const checked = JobSchema.safeParse(job);
    if (checked.success) passed.add(job);
    if (!checked.success) bad.push(`${String(job.seatId)}|${String(job.nativeId)}: ${checked.error.issues[0]?.path.join('.')} (${checked.error.issues[0]?.message})`);
    return checked.success;
  });
  const line = bad.join('; ');
  if (line && line !== lastLogged) log?.(`pixelfleet: jobs left off the board because they broke the contract: ${line}`);
  lastLogged = line;
  return bad.length === 0 ? jobs : kept;
}
