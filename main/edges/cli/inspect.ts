/** `pixelfleet inspect <harness> …` and `pixelfleet replay <harness> …`: one seat, read directly from its files. */
import { HarnessSchema, type Harness, type SeatAddress, type SubagentEntry } from '../../../shared/schemas';
import type { SeatReader } from '../../sources/readers/port';
import { HARNESSES, harnessOf } from '../../sources/readers/registry';
import { activityPhrase, UNKNOWN_ACTIVITY } from '../../../shared/activity';
import { evaluateActivity } from '../../sources/readers/kit/activityBasis';
import { shownValue } from '../../../shared/bounds';
import { bounded, option, parseArgs, rejectUnknown, UsageError } from '../../setup/args';
import type { CliIo } from './io';

/** Every harness's valued flags (each a path), and the replay cursor. */
const HARNESS_FLAGS = [...new Set(Object.values(HARNESSES).flatMap((descriptor) => descriptor.cliFlags))];
const VALUED = [...HARNESS_FLAGS, 'cursor'];

async function openSeat(harness: Harness, target: string, args: ReturnType<typeof parseArgs>, env: NodeJS.ProcessEnv): Promise<{ seat: SeatAddress; reader: SeatReader }> {
  const descriptor = harnessOf(harness);
  // A session is a transcript path or an id, as the harness names it; the flags are paths.
  bounded('the session', target, descriptor.cliTarget);
  const flags: Record<string, string | undefined> = {};
  for (const flag of HARNESS_FLAGS) {
    bounded(`--${flag}`, option(args, flag), 'path');
    if (descriptor.cliFlags.includes(flag)) flags[flag] = option(args, flag);
  }
  const seat = await descriptor.seatFromCliTarget(target, flags, env);
  return { seat, reader: descriptor.readerForSeat(seat) };
}

/** Opens the seat, or says in one line why it cannot (the caller exits 2). */
async function openSeatOrSay(harness: Harness, target: string, args: ReturnType<typeof parseArgs>, io: CliIo): Promise<{ seat: SeatAddress; reader: SeatReader } | null> {
  try {
    return await openSeat(harness, target, args, io.env);
  } catch (error) {
    io.stderr(`pixelfleet: ${(error as Error).message}\n`);
    return null;
  }
}

function harnessNamed(value: string | undefined): Harness {
  const parsed = HarnessSchema.safeParse(value);
  if (!parsed.success) throw new UsageError(`The harness is one of ${Object.keys(HARNESSES).join(', ')}${value ? ` (not "${shownValue(value)}")` : ''}.`);
  return parsed.data;
}

/** `inspect <harness> <target> [--json]`: the seat's subagent summary in the documented JSON shape. */
export async function runInspectCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, VALUED);
  rejectUnknown(args, ['json', ...HARNESS_FLAGS]);
  const [harnessName, target, extra] = args.positionals;
  const harness = harnessNamed(harnessName);
  if (!target || extra) throw new UsageError(`inspect ${harness} takes one ${harnessOf(harness).cliTarget === 'id' ? 'session id' : 'transcript path'}.`);
  const opened = await openSeatOrSay(harness, target, args, io);
  if (!opened) return 2;
  const { seat, reader } = opened;
  try {
    const projection = await reader.project(seat);
    const output = projection.ok
      ? { harness, session: seat.sessionId, activity: evaluateActivity(projection.activity, Date.now(), projection.lastWriteMs), subagents: projection.subagents, read: projection.read }
      : { harness, session: seat.sessionId, activity: UNKNOWN_ACTIVITY, unknownReason: projection.reason, read: { bytes: 0, skippedLines: 0 } };
    if (args.flags.has('json')) {
      io.stdout(`${JSON.stringify(output, null, 2)}\n`);
    } else if (!projection.ok) {
      io.stdout(`${harness} ${seat.sessionId}: subagents unknown — ${projection.reason}\n`);
    } else {
      io.stdout(`${harness} ${seat.sessionId}: ${activityPhrase(output.activity)}\n`);
      io.stdout(`${harness} ${seat.sessionId}: ${projection.subagents.running} running (read ${projection.read.bytes} bytes, ${projection.read.skippedLines} lines skipped)\n`);
      for (const entry of projection.subagents.recent) {
        io.stdout(entryLine(entry, entry.state === 'running' ? 'running' : `${entry.outcome ?? 'ended'} ${entry.endedAt ?? ''}`));
      }
      // Subagents from before the read window whose files are on disk (Claude journals over the cold-read bound).
      for (const entry of projection.subagents.earlier ?? []) io.stdout(entryLine(entry, `earlier, last write ${entry.endedAt ?? ''}`));
    }
    return 0;
  } finally {
    reader.dispose();
  }
}

/** One subagent as a line of `inspect`'s plain output. */
function entryLine(entry: SubagentEntry, state: string): string {
  return `  ${entry.startedAt}  ${state.padEnd(34)} ${entry.kind ?? '-'}  ${entry.label}${entry.replayable ? '  [replayable]' : ''}\n`;
}

/** `replay <harness> <target> <native id> [--cursor C] [--json]`: one page of a subagent's transcript. */
export async function runReplayCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, VALUED);
  rejectUnknown(args, ['json', ...HARNESS_FLAGS, 'cursor']);
  const [harnessName, target, nativeId, extra] = args.positionals;
  const harness = harnessNamed(harnessName);
  if (!target || !nativeId || extra) throw new UsageError(`replay ${harness} takes a session and a native id.`);
  bounded('the native id', nativeId, 'id');
  bounded('--cursor', option(args, 'cursor'), 'cursor');
  const opened = await openSeatOrSay(harness, target, args, io);
  if (!opened) return 2;
  const { seat, reader } = opened;
  try {
    const page = await reader.replay(seat, nativeId, option(args, 'cursor'));
    if (page.status === 'refused') {
      io.stderr(`pixelfleet: replay refused: ${page.reason}\n`);
      return 2;
    }
    if (args.flags.has('json')) {
      io.stdout(`${JSON.stringify(page, null, 2)}\n`);
    } else if (page.status === 'unavailable') {
      io.stdout(`Replay unavailable: ${page.reason}\n`);
    } else {
      for (const entry of page.entries) io.stdout(`[${entry.at ?? '?'}] ${entry.role}${entry.tool ? ` ${entry.tool}` : ''}: ${entry.text}\n`);
      io.stdout(page.nextCursor ? `(older: --cursor ${page.nextCursor})\n` : '(start of the transcript window)\n');
    }
    return 0;
  } finally {
    reader.dispose();
  }
}
