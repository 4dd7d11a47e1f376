/** `pixelfleet needs-you [--json]`: the agents waiting for the owner, oldest first, from one fresh census. */
import { elapsedPhrase, needsYouQueue, whyPhrase } from '../../../shared/activity';
import { withRouter } from './appSession';
import { parseArgs, rejectUnknown, UsageError } from '../../setup/args';
import type { CliIo } from './io';
import { harnessText } from '../../../shared/usagePhrases';

/** Runs `needs-you`; exit 0 whether or not anybody waits. */
export async function runNeedsYouCommand(argv: string[], io: CliIo & { home: string }): Promise<number> {
  const args = parseArgs(argv, []);
  rejectUnknown(args, ['json']);
  if (args.positionals.length > 0) throw new UsageError('needs-you takes no arguments.');
  const snapshot = await withRouter(io, (call) => call('fleet.read', { fresh: true }));
  const queue = needsYouQueue(snapshot).map(({ seatId, persona, harness, why, certain, since, label, host }) => ({ seatId, persona, harness, why, certain, since, label, ...(host !== undefined ? { host } : {}) }));
  if (args.flags.has('json')) {
    io.stdout(`${JSON.stringify(queue, null, 2)}\n`);
    return 0;
  }
  if (queue.length === 0) {
    io.stdout('Nobody needs you right now.\n');
    return 0;
  }
  const now = Date.now();
  for (const entry of queue) {
    const waited = elapsedPhrase(entry.since, now);
    io.stdout(`${entry.persona} (${harnessText(entry.harness)}${entry.host ? ` on ${entry.host}` : ''}) ${whyPhrase(entry.why, entry.certain)}${entry.label ? ` — ${entry.label}` : ''}${waited ? `, ${waited}` : ''}  [${entry.seatId}]\n`);
  }
  return 0;
}
