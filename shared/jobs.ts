/**
 * The jobs board: every subagent of the fleet as one job record, derived in main from the same subagent summaries
 * the trays show. Pure rules for the board's order and filters live here so the page and the CLI sort alike.
 */
import { z } from 'zod';
import { HarnessSchema, OutcomeSchema, type ReplayEntry, type ToolTarget } from './schemas';
import { SubagentUsageSchema } from './usage';

/** How long an ended job stays on the board (rule J2), in milliseconds. */
export const ENDED_WINDOW_MS = 30 * 60_000;

/** The reminder state of a background job: how many reminders it raised and when the last one was. */
export const JobReminderSchema = z.object({
  count: z.number().int().positive(),
  lastAt: z.string(),
});
export type JobReminder = z.infer<typeof JobReminderSchema>;

/** One job: a subagent of a seat, with its alias, its parent agent and its times (labels only, never content). */
export const JobSchema = z.object({
  /** `<type>-<n>`, never reused; null when the harness recorded no native id (nothing stable to name). */
  alias: z.string().nullable(),
  nativeId: z.string().nullable(),
  seatId: z.string(),
  personaId: z.string(),
  /** The parent agent's name. */
  persona: z.string(),
  role: z.string().nullable(),
  harness: HarnessSchema,
  /** The subagent type as the harness recorded it (e.g. `Explore`), or null. */
  type: z.string().nullable(),
  label: z.string(),
  /** `unknown` when the harness records nothing that tells whether the parent waited (issue 38). */
  kind: z.enum(['foreground', 'background', 'unknown']),
  state: z.enum(['running', 'ended']),
  startedAt: z.string(),
  endedAt: z.string().optional(),
  endedAtEstimated: z.boolean().optional(),
  outcome: OutcomeSchema.optional(),
  replayable: z.boolean(),
  reminder: JobReminderSchema.optional(),
  /** The job's own token totals, from its subagent entry; absent means unknown (issue 26). */
  usage: SubagentUsageSchema.optional(),
  /** The remote host the job runs on; absent means this machine. */
  host: z.string().optional(),
});
export type Job = z.infer<typeof JobSchema>;

/** Running subagents a seat counts but does not list (its summary lists only the eight most recent). */
export const UnlistedSchema = z.object({
  seatId: z.string(),
  running: z.number().int().positive(),
  /** The seat's harness and parent agent, so the board counts and filters them like listed jobs. */
  harness: HarnessSchema.optional(),
  persona: z.string().optional(),
  role: z.string().nullable().optional(),
  /** The remote host the seat is on; absent means this machine. */
  host: z.string().optional(),
});
export type Unlisted = z.infer<typeof UnlistedSchema>;

/** The board as main sends it: jobs longest-running first, aliases of every listed subagent, and unlisted counts. */
export const JobBoardSchema = z.object({
  jobs: z.array(JobSchema),
  /** Alias by `<seat id>|<native id>` for every subagent the trays list (including those older than the board). */
  aliases: z.record(z.string(), z.string()),
  unlisted: z.array(UnlistedSchema),
  /** The instant the board was computed (main's clock), ISO. */
  at: z.string(),
  /** The fleet snapshot's cursor the board was derived from (so a reader can pin both to one snapshot). */
  cursor: z.number().int().nonnegative().optional(),
  /** Grows by one each time the board's content changes, so `jobs.patched` changes chain onto the board they follow. */
  revision: z.number().int().nonnegative().optional(),
});
export type JobBoard = z.infer<typeof JobBoardSchema>;

/** The key of a subagent in the alias map. */
export function jobKey(seatId: string, nativeId: string): string {
  return `${seatId}|${nativeId}`;
}

/** The stable key of a job on the board: its alias key, else its seat, start and label (no native id recorded). */
export function jobRowKey(job: Pick<Job, 'seatId' | 'nativeId' | 'startedAt' | 'label'>): string {
  return job.nativeId === null ? `${job.seatId}|~${job.startedAt}|${job.label}` : jobKey(job.seatId, job.nativeId);
}

/** Milliseconds a job has run: until it ended, else until `now` (0 when the start does not parse). */
export function elapsedMs(job: Pick<Job, 'startedAt' | 'endedAt'>, now: number): number {
  const start = Date.parse(job.startedAt);
  const end = job.endedAt ? Date.parse(job.endedAt) : now;
  if (Number.isNaN(start) || Number.isNaN(end)) return 0;
  return Math.max(0, end - start);
}

/**
 * Rule J3: running jobs first, then ended ones; within each, the longest-running first (ties: the earlier start,
 * then the alias) so the order never flickers between two refreshes.
 */
export function sortJobs<T extends Pick<Job, 'state' | 'startedAt' | 'endedAt' | 'alias' | 'seatId' | 'nativeId'>>(jobs: readonly T[], now: number): T[] {
  // Each job's elapsed time is worked out once, not at every comparison (a board of hundreds is sorted per change).
  const keyed = jobs.map((job) => ({ job, elapsed: elapsedMs(job, now) }));
  keyed.sort(({ job: left, elapsed: leftElapsed }, { job: right, elapsed: rightElapsed }) => {
    if (left.state !== right.state) return left.state === 'running' ? -1 : 1;
    const byElapsed = rightElapsed - leftElapsed;
    if (byElapsed !== 0) return byElapsed;
    const byStart = left.startedAt.localeCompare(right.startedAt);
    if (byStart !== 0) return byStart;
    return `${left.alias}${left.seatId}${left.nativeId}`.localeCompare(`${right.alias}${right.seatId}${right.nativeId}`);
  });
  return keyed.map((entry) => entry.job);
}

/** The board's filters; absent means "all". */
export interface JobFilter {
  harness?: Job['harness'];
  /** A role key (lowercase), or `''` for jobs whose parent has no role. */
  role?: string;
  state?: Job['state'];
  /** A remote host's name, or `''` for this machine's jobs. */
  host?: string;
}

/** Rule J4: the jobs matching every filter given. Roles compare case-insensitively, as stations do. */
export function filterJobs<T extends Pick<Job, 'harness' | 'role' | 'state'> & { host?: string }>(jobs: readonly T[], filter: JobFilter): T[] {
  return jobs.filter(
    (job) =>
      (filter.host === undefined || (job.host ?? '') === filter.host) &&
      (filter.harness === undefined || job.harness === filter.harness) &&
      (filter.state === undefined || job.state === filter.state) &&
      (filter.role === undefined || (job.role ?? '').toLowerCase() === filter.role),
  );
}

/** Running jobs per harness, for the board's header. */
export function runningByHarness(jobs: readonly Pick<Job, 'harness' | 'state'>[]): Record<Job['harness'], number> {
  const counts: Record<Job['harness'], number> = { claude: 0, codex: 0, opencode: 0 };
  for (const job of jobs) if (job.state === 'running') counts[job.harness] += 1;
  return counts;
}

/** Running jobs per harness including those counted but not listed (rule J5): the board's header. */
export function runningCounts(board: Pick<JobBoard, 'jobs' | 'unlisted'>): Record<Job['harness'], number> {
  const counts = runningByHarness(board.jobs);
  for (const entry of board.unlisted) if (entry.harness) counts[entry.harness] += entry.running;
  return counts;
}

/** The role keys the board's role filter offers (lowercase, sorted; `''` for jobs whose parent has no role). */
export function roleOptions(jobs: readonly Pick<Job, 'role'>[]): string[] {
  return [...new Set(jobs.map((job) => (job.role ?? '').toLowerCase()))].sort();
}

/** What the board shows for a filter at `now`: matching jobs in rule J3 order, and the matching unlisted counts. */
export function boardRows(board: Pick<JobBoard, 'jobs' | 'unlisted'>, filter: JobFilter, now: number): { jobs: Job[]; unlisted: Unlisted[] } {
  const unlisted = board.unlisted.filter(
    (entry) =>
      filter.state !== 'ended' &&
      (filter.host === undefined || (entry.host ?? '') === filter.host) &&
      (filter.harness === undefined || entry.harness === filter.harness) &&
      (filter.role === undefined || (entry.role ?? '').toLowerCase() === filter.role),
  );
  return { jobs: sortJobs(filterJobs(board.jobs, filter), now), unlisted };
}

/** Most file paths a job's drill-in shows. */
export const FILES_TOUCHED_MAX = 8;

/**
 * The files a job touched, most recent first and each once: the targets of its replay's tool calls (entries oldest
 * first, as the replay holds them). Paths only — the targets carry no content.
 */
export function filesTouched(entries: readonly Pick<ReplayEntry, 'targets'>[], max = FILES_TOUCHED_MAX): ToolTarget[] {
  const seen = new Set<string>();
  const files: ToolTarget[] = [];
  for (let index = entries.length - 1; index >= 0 && files.length < max; index -= 1) {
    const targets = entries[index].targets ?? [];
    for (let inner = targets.length - 1; inner >= 0 && files.length < max; inner -= 1) {
      const target = targets[inner];
      if (seen.has(target.path)) continue;
      seen.add(target.path);
      files.push(target);
    }
  }
  return files;
}
