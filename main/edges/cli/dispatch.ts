/**
 * `pixelfleet work-items dispatch | undispatch | done` (issue 40): give a backlog item to a new agent (hired and
 * launched with the item's prompt, optionally in its own git worktree) or to a running one through its terminal; forget
 * a dispatch; mark it done. Each goes through the router like the world's requests. Exit codes: 0 done, 1 refused or
 * launched without a seat (one line on stderr), 2 usage.
 */
import { HarnessSchema } from '../../../shared/schemas';
import { bounded, option, parseArgs, rejectUnknown, UsageError } from '../../setup/args';
import { withRouter } from './appSession';
import type { CliIo } from './io';
import { roleText } from '../../../shared/usagePhrases';

/** Usage of the three commands. */
export const DISPATCH_USAGE =
  'usage: pixelfleet work-items dispatch <item id> --harness claude|codex|opencode (--role R [--name N] | --persona P) --cwd DIR [--worktree] [--host REMOTE] [--json] | undispatch <item id> | done <item id> [--remove-worktree]';

function itemOf(positionals: string[], command: string): string {
  if (positionals.length !== 1) throw new UsageError(`${command} takes one item id. ${DISPATCH_USAGE}`);
  return bounded('the item id', positionals[0], 'id');
}

async function dispatch(argv: string[], io: CliIo & { home: string }): Promise<number> {
  const args = parseArgs(argv, ['harness', 'role', 'name', 'persona', 'cwd', 'host']);
  rejectUnknown(args, ['harness', 'role', 'name', 'persona', 'cwd', 'worktree', 'json', 'host']);
  // --host: the worktree, the launch or the send happen on that remote (`--cwd` a folder there); the record stays here.
  const host = option(args, 'host');
  const itemId = itemOf(args.positionals, 'dispatch');
  const role = bounded('--role', option(args, 'role'), 'role');
  const persona = bounded('--persona', option(args, 'persona'), 'id');
  const name = bounded('--name', option(args, 'name'), 'name');
  const cwd = bounded('--cwd', option(args, 'cwd'), 'path');
  if ((role === undefined) === (persona === undefined)) throw new UsageError(`dispatch takes either --role (a new agent) or --persona (a running one). ${DISPATCH_USAGE}`);
  if (persona !== undefined && name !== undefined) throw new UsageError(`--name is for a new agent (with --role), not with --persona. ${DISPATCH_USAGE}`);
  if (cwd === undefined) throw new UsageError(`--cwd is needed. ${DISPATCH_USAGE}`);
  const harnessText = option(args, 'harness');
  const harness = HarnessSchema.safeParse(harnessText);
  if (role !== undefined && !harness.success) throw new UsageError(`--harness takes claude, codex or opencode. ${DISPATCH_USAGE}`);
  if (persona !== undefined && harnessText !== undefined && !harness.success) throw new UsageError(`--harness takes claude, codex or opencode. ${DISPATCH_USAGE}`);
  const worktree = args.flags.has('worktree');
  const result = await withRouter(io, (call) =>
    call('work.dispatch', {
      itemId,
      cwd,
      ...(worktree ? { worktree } : {}),
      ...(host !== undefined ? { host } : {}),
      ...(role !== undefined ? { role, harness: harness.data!, ...(name !== undefined ? { name } : {}) } : { personaId: persona!, ...(harness.success ? { harness: harness.data } : {}) }),
    }),
  );
  const launch = result.launch;
  if (args.flags.has('json')) {
    io.stdout(`${JSON.stringify({ personaId: result.personaId, persona: result.persona, itemId: result.itemId, cwd: result.cwd, branch: result.branch, worktree: result.worktree }, null, 2)}\n`);
  } else if (launch) {
    const there = host !== undefined ? ` on ${host}` : '';
    io.stdout(`Dispatched ${result.itemId} to ${result.persona} (${roleText(launch.persona.role)}), started in tmux session ${launch.tmuxSession}${there} in ${result.cwd}${result.branch ? ` on branch ${result.branch}` : ''}.\nAttach${host !== undefined ? ` on ${host}` : ''} with: ${launch.attach}\n`);
  } else {
    const there = host !== undefined ? ` on ${host}` : '';
    io.stdout(`Dispatched ${result.itemId} to ${result.persona} through its terminal${there}${result.branch ? `; its worktree is ${result.worktree} on branch ${result.branch}` : ''}.\n`);
  }
  if (launch?.reason) io.stderr(`pixelfleet work-items: ${launch.reason}\n`);
  return launch && !launch.seated ? 1 : 0;
}

/** Runs `work-items dispatch|undispatch|done …` (`argv` starts with the subcommand). */
export async function runDispatchCommand(argv: string[], io: CliIo & { home: string }): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand === 'dispatch') return dispatch(rest, io);
  if (subcommand === 'undispatch') {
    const args = parseArgs(rest, []);
    rejectUnknown(args, []);
    const itemId = itemOf(args.positionals, 'undispatch');
    const { cleared } = await withRouter(io, (call) => call('work.undispatch', { itemId }));
    if (!cleared) {
      io.stderr(`pixelfleet work-items: ${itemId} has no active dispatch; nothing was changed.\n`);
      return 1;
    }
    io.stdout(`Forgot the dispatch of ${itemId}; the agent and any worktree stay.\n`);
    return 0;
  }
  if (subcommand === 'done') {
    const args = parseArgs(rest, []);
    rejectUnknown(args, ['remove-worktree']);
    const itemId = itemOf(args.positionals, 'done');
    const removeWorktree = args.flags.has('remove-worktree');
    const result = await withRouter(io, (call) => call('work.done', { itemId, ...(removeWorktree ? { removeWorktree } : {}) }));
    io.stdout(`Marked ${result.itemId} done${result.worktreeRemoved ? ' and removed its worktree (its branch stays)' : ''}.\n`);
    return 0;
  }
  throw new UsageError(DISPATCH_USAGE);
}
