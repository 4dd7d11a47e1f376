/**
 * Reminders for long background jobs, pure and driven by the clock it is given.
 *
 * Rule R1: a running background job whose parent seat is known raises one reminder once it has run
 *   `backgroundMinutes`, then another every `everyMinutes` after the previous one while it runs. A jump of the
 *   clock past several due times raises one reminder, not a burst.
 * Rule R2: foreground jobs never remind (their parent is working on them); neither does a job whose parent seat
 *   is unknown (it is not on the board at all).
 * Rule R3: a background job that raised a reminder and then ends raises one "finished" notice with its outcome.
 *   A job that leaves the board without an end (its seat closed or became unknown) is forgotten silently.
 * Rule R4: with `on: false` nothing reminds, and nothing is remembered.
 */
import { durationText } from '../../../shared/usagePhrases';
import { jobRowKey, type Job, type JobReminder } from '../../../shared/jobs';

/** The reminder settings (`settings.json` → `reminders`). */
export interface ReminderSettings {
  backgroundMinutes: number;
  everyMinutes: number;
  on: boolean;
}

/** The defaults the issue gives. */
export const DEFAULT_REMINDERS: ReminderSettings = { backgroundMinutes: 10, everyMinutes: 30, on: true };

/**
 * What a reminder hands to the notifier: one event per reminder or finish. `id` is unique per event, so the
 * notifier can drop a repeat; the text is labels only (alias, label, parent's name), never content.
 */
export interface JobNotice {
  id: string;
  kind: 'job-reminder' | 'job-finished';
  seatId: string;
  personaId: string;
  alias: string | null;
  nativeId: string | null;
  title: string;
  body: string;
  at: string;
}

interface Remembered {
  count: number;
  lastAt: number;
  /** Set once the "finished" notice went out (R3: exactly one). */
  finished?: boolean;
}

/** The reminder clock: remembers which jobs reminded and when. */
export class ReminderClock {
  private readonly state = new Map<string, Remembered>();

  constructor(private settings: ReminderSettings = DEFAULT_REMINDERS) {}

  /** Replaces the settings (R4: turning reminders off forgets every reminder). */
  configure(settings: ReminderSettings): void {
    this.settings = settings;
    if (!settings.on) this.state.clear();
  }

  /**
   * Rules R1–R4 at `now` (ms): the notices to send, the jobs with their reminder marks, and when the next reminder
   * falls due (ms, or null when none will).
   */
  evaluate(jobs: readonly Job[], now: number): { notices: JobNotice[]; jobs: Job[]; nextDueAt: number | null } {
    if (!this.settings.on) return { notices: [], jobs: [...jobs], nextDueAt: null };
    const firstMs = this.settings.backgroundMinutes * 60_000;
    const everyMs = this.settings.everyMinutes * 60_000;
    const notices: JobNotice[] = [];
    const seen = new Set<string>();
    let nextDueAt: number | null = null;
    const marked = jobs.map((job): Job => {
      const key = keyOf(job);
      seen.add(key);
      const remembered = this.state.get(key);
      if (job.kind !== 'background') return job;
      if (job.state === 'ended') {
        if (!remembered) return job;
        if (!remembered.finished) {
          this.state.set(key, { ...remembered, finished: true });
          notices.push(notice(job, 'job-finished', now, remembered.count));
        }
        return { ...job, reminder: mark(remembered) };
      }
      const start = Date.parse(job.startedAt);
      if (Number.isNaN(start)) return job;
      const due = remembered ? remembered.lastAt + everyMs : start + firstMs;
      let current = remembered;
      if (now >= due) {
        current = { count: (remembered?.count ?? 0) + 1, lastAt: now };
        this.state.set(key, current);
        notices.push(notice(job, 'job-reminder', now, current.count));
      }
      const nextAt = current ? current.lastAt + everyMs : due;
      nextDueAt = nextDueAt === null ? nextAt : Math.min(nextDueAt, nextAt);
      return current ? { ...job, reminder: mark(current) } : job;
    });
    // R3: a job that left the board without ending is forgotten, with no notice.
    for (const key of [...this.state.keys()]) if (!seen.has(key)) this.state.delete(key);
    return { notices, jobs: marked, nextDueAt };
  }
}

function keyOf(job: Job): string {
  return jobRowKey(job);
}

function mark(remembered: Remembered): JobReminder {
  return { count: remembered.count, lastAt: new Date(remembered.lastAt).toISOString() };
}

function minutes(ms: number): string {
  return durationText(Math.max(0, Math.round(ms / 60_000)) * 60_000);
}

function notice(job: Job, kind: JobNotice['kind'], now: number, count: number): JobNotice {
  const name = job.alias ?? job.label;
  const started = Date.parse(job.startedAt);
  const title = kind === 'job-reminder' ? `${name} is still running` : `${name} finished`;
  const body =
    kind === 'job-reminder'
      ? `${job.persona}'s background ${job.type ?? 'subagent'} "${job.label}" has run ${minutes(now - started)}.`
      : `${job.persona}'s background ${job.type ?? 'subagent'} "${job.label}" ended: ${job.outcome ?? 'outcome unknown'}.`;
  return {
    id: `${kind}:${keyOf(job)}:${count}`,
    kind,
    seatId: job.seatId,
    personaId: job.personaId,
    alias: job.alias,
    nativeId: job.nativeId,
    title,
    body,
    at: new Date(now).toISOString(),
  };
}
