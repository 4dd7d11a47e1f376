/** The `pixelfleet` command: routes subcommands; every command returns its exit code. */
// Commands are imported when run, so `--version` and `--help` load almost nothing.
import packageJson from '../../../package.json';
import { shownValue } from '../../../shared/shown';
import { resolveAppHome } from '../../setup/paths';
import { UsageError } from '../../setup/args';
import { CommandFailure } from './appSession';
import type { CliIo } from './io';

const APP_VERSION: string = packageJson.version;

/** The help text. */
export const HELP = `Pixelfleet ${APP_VERSION} — a pixel world for your fleet of coding agents.

Usage: pixelfleet <command> [options]

World
  web [--port N] [--demo] [--agents N] [--new-token]
                                         serve the world in your browser (prints the URL to open)
  demo [--agents N] [--port N]           a simulated fleet in a throwaway home, served like \`web\`

Fleet
  candidates [--json]                    sessions you could open (Claude Code, Codex, OpenCode)
  seats open <candidate id> [--name N] [--role R] [--json]
  seats close <seat id>
  fleet [--json]                         one census of your fleet: seats, personas, stations
  needs-you [--json]                     agents waiting for you (question, plan, approval, turn done…), oldest first
  work-items --label <role> [--json]     the backlog items labelled with a role (and to whom each was dispatched)
  work-items dispatch <item id> --harness claude|codex|opencode (--role R [--name N] | --persona P) --cwd DIR [--worktree] [--json]
                                         give an item to a new agent (hired and launched with its prompt) or to a
                                         running one (typed into its terminal); --worktree: in its own git worktree
  work-items undispatch <item id>        forget an item's dispatch (the agent and worktree stay)
  work-items done <item id> [--remove-worktree]
                                         mark a dispatched item done; remove its worktree when it is clean
  jobs [--json] [--all]                  running subagents of every seat, longest first (--all: also ended in 30 min)
  usage [--json] [--since today|24h|7d]  tokens, context fill and cost per seat (with subagents) and in total
  usage --blocks [--json] [--all-sessions]  5-hour blocks of Claude usage (an estimate), with burn rate and projection
  usage --by day|role|harness|host [--since today|24h|7d] [--json]  spend grouped from the history
  history [--since 2h|ISO] [--until ISO] [--seat ID] [--kind needs-you|jobs|roles|activity] [--json]
                                         recorded transitions, oldest first (default: the last 24 h)
  history --digest [--since 1h] [--until ISO] [--json] what happened while you were away (as the world's panel shows it)
  doctor [--json]                        does each harness still write what the readers know? (exit 0 ok, 1 drift, 2 unreadable)

Remotes (agents on other machines, over ssh)
  remote add <name> <ssh destination> [--command "<remote pixelfleet command>"]
  remote list [--json]
  remote remove <name>
  remote test <name> [--json]            reach it through the host's ssh call: latency, version, homes, tmux (exit 0 reachable, 1 not)
  serve --stdio [--home DIR]            serve this machine's fleet over stdin/stdout (run by a host through ssh)

Agents
  agents list [--json]                   personas with their role and seat
  agents roles [--json]                  roles with their counts, in station order
  agents role <persona id or name> <role> | --clear
  agents hire --name N [--role R] [--json]
  agents launch --harness claude|codex|opencode --role R --cwd DIR [--name N] [--prompt P] [--host REMOTE] [--json]
                                         hire and start the harness in a new tmux session (pf-<name>)
  agents attach <persona>                print the tmux attach command
  agents stop <persona>                  ask the harness to exit, then end its tmux session (deletes nothing)
  agents peek <persona> [--lines N] [--json]
                                         the last N lines (default 40) of its terminal (a tmux pane)
  agents send <persona> <text> [--wait S] [--json]
                                         type one line and press Enter; --wait: until its records show it
  agents keys <persona> <key>...         press Enter Escape Tab Up Down Left Right Space BSpace C-c or one character

Roles
  roles show <role> [--json]             a role's profile (description, charter, tools, models, colour)
  roles edit <role>                      edit the profile in $EDITOR (validated before it is saved)
  roles export <role> --harness claude|opencode|codex [--scope project|user] [--dir PATH] [--dry-run] [--force]
                                         write the role as the harness's own agent definition

Harness readers
  inspect claude <session.jsonl> [--json]
  inspect codex <rollout.jsonl> [--codex-home DIR] [--json]
  inspect opencode <session id> [--db PATH] [--json]
  replay <harness> <session> <native id> [--cursor C] [--codex-home DIR] [--db PATH] [--json]

Options
  --version, --help

Data lives in $PIXELFLEET_HOME (default: $XDG_CONFIG_HOME/pixelfleet or ~/.config/pixelfleet on Linux).
`;

/** Runs one invocation. */
export async function main(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  const [command, ...rest] = argv;
  const home = resolveAppHome(io.env);
  try {
    switch (command) {
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.stdout(HELP);
        return command === undefined ? 2 : 0;
      case '--version':
      case '-v':
      case 'version':
        io.stdout(`${APP_VERSION}\n`);
        return 0;
      case 'web':
        return await (await import('./web')).runWebCommand(rest, { ...io, home, demo: false });
      case 'demo':
        return await (await import('./web')).runWebCommand(rest, { ...io, home, demo: true });
      case 'agents':
        if (['launch', 'attach', 'stop'].includes(rest[0])) return await (await import('./launch')).runLaunchCommand(rest, { ...io, home });
        if (['peek', 'send', 'keys'].includes(rest[0])) return await (await import('./terminal')).runTerminalCommand(rest, { ...io, home });
        return await (await import('./agents')).runAgentsCommand(rest, { home, stdout: io.stdout, stderr: io.stderr, env: io.env });
      case 'work-items':
        if (['dispatch', 'undispatch', 'done'].includes(rest[0])) return await (await import('./dispatch')).runDispatchCommand(rest, { ...io, home });
        return await (await import('./workItems')).runWorkItemsCommand(rest, { home, env: io.env, stdout: { write: io.stdout }, stderr: { write: io.stderr } });
      case 'roles':
        return await (await import('./roles')).runRolesCommand(rest, { home, env: io.env, cwd: process.cwd(), stdout: io.stdout, stderr: io.stderr });
      case 'inspect':
        return await (await import('./inspect')).runInspectCommand(rest, io);
      case 'replay':
        return await (await import('./inspect')).runReplayCommand(rest, io);
      case 'needs-you':
        return await (await import('./needsYou')).runNeedsYouCommand(rest, { ...io, home });
      case 'jobs':
        return await (await import('./jobs')).runJobsCommand(rest, { ...io, home });
      case 'usage':
        return await (await import('./usage')).runUsageCommand(rest, { ...io, home });
      case 'history':
        return await (await import('./history')).runHistoryCommand(rest, { ...io, home });
      case 'serve':
        return await (await import('./serve')).runServeCommand(rest, { ...io, home });
      case 'remote':
        return await (await import('./remote')).runRemoteCommand(rest, { ...io, home });
      case 'doctor':
        return await (await import('./doctor')).runDoctorCommand(rest, { ...io, home });
      case 'candidates':
      case 'seats':
      case 'fleet':
        return await (await import('./fleetCommands')).runFleetCommand(command, rest, { ...io, home });
      default:
        io.stderr(`pixelfleet: unknown command "${shownValue(command)}". Run \`pixelfleet --help\`.\n`);
        return 2;
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`pixelfleet: ${error.message} Run \`pixelfleet --help\`.\n`);
      return 2;
    }
    // A request the app refused (exit 1, as every refusal of the CLI): its message and its contract code.
    if (error instanceof CommandFailure) {
      io.stderr(`pixelfleet: ${error.message} (${error.code})\n`);
      return 1;
    }
    io.stderr(`pixelfleet: ${(error as Error)?.message ?? String(error)}\n`);
    return 1;
  }
}

function defaultIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
  };
}
