/** `pixelfleet jobs [--json] [--all]`: the fleet's running subagents (with `--all`, also those ended in the last 30 minutes). */
import { elapsedMs, type Job } from '../../../shared/jobs';
import { withRouter } from './appSession';
import { parseArgs, rejectUnknown } from '../../setup/args';
import type { CliIo } from './io';
import { durationText, harnessText } from '../../../shared/usagePhrases';

/** One job as `jobs --json` prints it (the shape is an interface: keys and order are fixed). */
export interface JobLine {
  alias: string | null;
  nativeId: string | null;
  seatId: string;
  persona: string;
  harness: Job['harness'];
  type: string | null;
  label: string;
  kind: Job['kind'];
  startedAt: string;
  endedAt?: string;
  outcome?: Job['outcome'];
}

/** The CLI shape of a job. */
export function jobLine(job: Job): JobLine {
  return {
    alias: job.alias,
    nativeId: job.nativeId,
    seatId: job.seatId,
    persona: job.persona,
    harness: job.harness,
    type: job.type,
    label: job.label,
    kind: job.kind,
    startedAt: job.startedAt,
    ...(job.endedAt !== undefined ? { endedAt: job.endedAt } : {}),
    ...(job.outcome !== undefined ? { outcome: job.outcome } : {}),
  };
}

/** Runs `jobs`. */
export async function runJobsCommand(argv: string[], io: CliIo & { home: string }): Promise<number> {
  const args = parseArgs(argv, []);
  rejectUnknown(args, ['json', 'all']);
  const all = args.flags.has('all');
  const board = await withRouter(io, (call) => call('jobs.list', { all }));
  const jobs = board.jobs;
  if (args.flags.has('json')) {
    io.stdout(`${JSON.stringify(jobs.map(jobLine), null, 2)}\n`);
    return 0;
  }
  // The board's own instant (main's clock, which a test clock may have moved).
  const now = Date.parse(board.at);
  const lines = jobs.map((job) => {
    const state = job.state === 'running' ? 'running' : `ended${job.outcome ? ` (${job.outcome})` : ''}`;
    return `${(job.alias ?? '—').padEnd(20)} ${durationText(elapsedMs(job, now)).padStart(12)}  ${job.kind.padEnd(10)} ${state.padEnd(20)} ${job.persona} (${harnessText(job.harness)})  ${job.label}\n`;
  });
  const unlisted = board.unlisted.reduce((sum, entry) => sum + entry.running, 0);
  if (jobs.length === 0) lines.push(all ? 'No subagents running or ended in the last 30 minutes.\n' : 'No subagents running.\n');
  if (unlisted > 0) lines.push(`${unlisted} more running subagent(s) are counted but not listed (older than their agent's 8 most recent).\n`);
  io.stdout(lines.join(''));
  return 0;
}
