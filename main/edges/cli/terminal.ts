/**
 * `pixelfleet agents peek | send | keys`: a persona's terminal from the command line (issue 39). Each goes through the
 * router like the world's requests, so the contract's checks and codes hold here too. Exit codes: 0 done, 1 refused
 * (no terminal, text refused, tmux failed; one line on stderr), 2 usage (a key that is not named: nothing is sent).
 */
import { isAllowedKey, NAMED_KEYS, PEEK_DEFAULT_LINES, PEEK_MAX_LINES, SEND_WAIT_MAX_MS, sendTextProblem } from '../../../shared/terminal';
import { bounded, intOption, parseArgs, rejectUnknown, UsageError } from '../../setup/args';
import { withRouter } from './appSession';
import type { CliIo } from './index';

/** Usage of the three commands. */
export const TERMINAL_USAGE = 'usage: pixelfleet agents peek <persona> [--lines N] [--json] | send <persona> <text> [--wait S] [--json] | keys <persona> <key>...';

function personaOf(positionals: string[], command: string): string {
  const who = positionals[0];
  if (who === undefined) throw new UsageError(`${command} needs a persona id or name. ${TERMINAL_USAGE}`);
  return bounded('the persona id or name', who, 'id');
}

async function peek(argv: string[], io: CliIo & { home: string }): Promise<number> {
  const args = parseArgs(argv, ['lines']);
  rejectUnknown(args, ['lines', 'json']);
  if (args.positionals.length !== 1) throw new UsageError(`peek takes one persona. ${TERMINAL_USAGE}`);
  const personaId = personaOf(args.positionals, 'peek');
  const lines = intOption(args, 'lines', PEEK_DEFAULT_LINES, PEEK_MAX_LINES, 1);
  const peeked = await withRouter(io, (call) => call('terminal.peek', { personaId, lines }));
  io.stdout(args.flags.has('json') ? `${JSON.stringify(peeked, null, 2)}\n` : peeked.lines.map((line) => `${line}\n`).join(''));
  return 0;
}

async function send(argv: string[], io: CliIo & { home: string }): Promise<number> {
  const args = parseArgs(argv, ['wait']);
  rejectUnknown(args, ['wait', 'json']);
  const personaId = personaOf(args.positionals, 'send');
  if (args.positionals.length < 2) throw new UsageError(`send needs the text to type. ${TERMINAL_USAGE}`);
  // Unquoted words are one line, as `agents role` takes them.
  const text = args.positionals.slice(1).join(' ');
  const problem = sendTextProblem(text);
  if (problem) {
    io.stderr(`pixelfleet agents: ${problem}\n`);
    return 1;
  }
  const waitSeconds = intOption(args, 'wait', 0, SEND_WAIT_MAX_MS / 1000);
  const result = await withRouter(io, (call) => call('terminal.send', { personaId, text, ...(waitSeconds > 0 ? { waitMs: waitSeconds * 1000 } : {}) }));
  if (args.flags.has('json')) io.stdout(`${JSON.stringify({ delivered: result.delivered, acknowledged: result.acknowledged }, null, 2)}\n`);
  else if (waitSeconds === 0) io.stdout('Sent. (Not waited for: pass --wait S to see the harness take it.)\n');
  else io.stdout(result.acknowledged ? 'Sent, and the harness recorded it.\n' : `Sent, but the harness recorded no new input within ${waitSeconds} s.\n`);
  return 0;
}

async function keys(argv: string[], io: CliIo & { home: string }): Promise<number> {
  // Keys are taken as they are: `--` is not special here, so a key can never be read as an option.
  const [who, ...keyList] = argv;
  if (who === undefined || keyList.length === 0) throw new UsageError(`keys needs a persona and at least one key. ${TERMINAL_USAGE}`);
  const personaId = bounded('the persona id or name', who, 'id');
  const refused = keyList.find((key) => !isAllowedKey(key));
  if (refused !== undefined) throw new UsageError(`"${refused.slice(0, 20)}" is not a key that can be pressed: named keys are ${NAMED_KEYS.join(' ')}, or one printable character. Nothing was sent.`);
  await withRouter(io, (call) => call('terminal.keys', { personaId, keys: keyList }));
  return 0;
}

/** Runs `agents peek|send|keys …` (`argv` starts with the subcommand). */
export async function runTerminalCommand(argv: string[], io: CliIo & { home: string }): Promise<number> {
  const [subcommand, ...rest] = argv;
  switch (subcommand) {
    case 'peek':
      return peek(rest, io);
    case 'send':
      return send(rest, io);
    case 'keys':
      return keys(rest, io);
    default:
      throw new UsageError(TERMINAL_USAGE);
  }
}
