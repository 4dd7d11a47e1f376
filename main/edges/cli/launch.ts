/** `pixelfleet agents launch | attach | stop`: hire a persona and start its harness in tmux, print how to attach, stop it. */
import path from 'node:path';
import { HarnessSchema } from '../../../shared/schemas';
import { createApp } from '../../setup/app';
import { ServiceError } from '../../kit/errors';
import { attachCommand } from '../../core/launch/launchRules';
import { launch, personaSession, stop } from '../../core/launch/launcher';
import { detectTmux } from '../../core/launch/tmux';
import { TerminalAdapter } from '../../core/terminal/TerminalAdapter';
import { PersonaService } from '../../core/personas/PersonaService';
import { bounded, option, parseArgs, rejectUnknown, UsageError } from '../../setup/args';
import { personaRecord } from './agents';
import type { CliIo } from './io';
import { harnessText, roleText } from '../../../shared/usagePhrases';

/** Usage of the three commands, shown with every usage error. */
export const LAUNCH_USAGE =
  'usage: pixelfleet agents launch --harness claude|codex|opencode --role <role> --cwd <folder> [--name <name>] [--prompt <text>] [--host <remote>] [--json] | attach <persona> | stop <persona>';

function line(text: string): string {
  return `pixelfleet agents: ${text.replace(/\s*\n\s*/g, ' ')}\n`;
}

async function runLaunch(argv: string[], io: CliIo & { home: string }): Promise<number> {
  const args = parseArgs(argv, ['harness', 'role', 'cwd', 'name', 'prompt', 'host']);
  rejectUnknown(args, ['harness', 'role', 'cwd', 'name', 'prompt', 'json', 'host']);
  if (args.positionals.length > 0) throw new UsageError(`launch takes no arguments (got "${args.positionals[0]}").`);
  const harness = HarnessSchema.safeParse(option(args, 'harness'));
  if (!harness.success) throw new UsageError('--harness takes claude, codex or opencode.');
  const role = option(args, 'role');
  const cwd = option(args, 'cwd');
  if (role === undefined) throw new UsageError('--role is needed.');
  if (cwd === undefined) throw new UsageError('--cwd is needed.');
  bounded('--cwd', cwd, 'path');
  const host = option(args, 'host');
  if (host !== undefined) return (await import('./launchRemote')).runRemoteLaunch({ host, harness: harness.data, role, cwd, name: option(args, 'name'), prompt: option(args, 'prompt') }, args.flags.has('json'), io);
  const tmux = detectTmux(io.env);
  if (!tmux.ok) {
    io.stderr(line(tmux.reason));
    return 1;
  }
  const app = await createApp({ home: io.home, mode: 'web', env: io.env, live: false, log: (message) => io.stderr(`${message}\n`) });
  try {
    const result = await launch({ harness: harness.data, role, cwd, name: option(args, 'name'), prompt: option(args, 'prompt') }, { fleet: app.fleet, personas: app.personas, env: io.env });
    const attach = attachCommand(result.tmuxSession, io.env);
    if (args.flags.has('json')) {
      io.stdout(`${JSON.stringify({ persona: personaRecord(result.persona), tmuxSession: result.tmuxSession, attach, seated: result.seated, reason: result.reason, note: result.note }, null, 2)}\n`);
    } else {
      io.stdout(`Hired ${result.persona.name} (${roleText(result.persona.role)}) and started ${harnessText(harness.data)} in tmux session ${result.tmuxSession}.\n${result.note ? `${result.note}\n` : ''}Attach with: ${attach}\n`);
    }
    if (result.reason) io.stderr(line(result.reason));
    return result.seated ? 0 : 1;
  } finally {
    await app.dispose();
  }
}

async function withPersona(who: string | undefined, extra: string | undefined, command: string, io: CliIo & { home: string }) {
  if (!who || extra !== undefined) throw new UsageError(`${command} takes one persona id or name.`);
  bounded('the persona id or name', who, 'id');
  const personas = new PersonaService({ file: path.join(io.home, 'personas.json') });
  try {
    return await personaSession(personas, who, io.env);
  } finally {
    personas.dispose();
  }
}

/** Runs `agents launch|attach|stop …` (argv starts after `agents`). Exit codes: 0 done, 1 refused, 2 usage. */
export async function runLaunchCommand(argv: string[], io: CliIo & { home: string }): Promise<number> {
  const [verb, ...rest] = argv;
  try {
    if (verb === 'launch') return await runLaunch(rest, io);
    const args = parseArgs(rest, []);
    const [who, extra] = args.positionals;
    if (verb === 'attach') {
      rejectUnknown(args, []);
      const { persona, session } = await withPersona(who, extra, 'attach', io);
      const tmux = detectTmux(io.env);
      if (!tmux.ok) throw new ServiceError('unavailable', tmux.reason);
      if (!(await new TerminalAdapter(io.env).sessionExists(session))) throw new ServiceError('not_found', `No tmux session ${session} runs for ${persona.name}.`);
      io.stdout(`${attachCommand(session, io.env)}\n`);
      return 0;
    }
    if (verb === 'stop') {
      rejectUnknown(args, []);
      const { persona, session } = await withPersona(who, extra, 'stop', io);
      const stopped = await stop(persona, session, io.env);
      if (!stopped.ok) throw new ServiceError('not_found', stopped.reason);
      io.stdout(`Stopped ${session}${stopped.killed ? ' (killed after the grace period)' : ''}; ${persona.name} and the journal stay.\n`);
      return 0;
    }
    throw new UsageError(`unknown command "${verb}".`);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(line(`${error.message} ${LAUNCH_USAGE}`));
      return 2;
    }
    io.stderr(line(error instanceof Error ? error.message : String(error)));
    return 1;
  }
}
