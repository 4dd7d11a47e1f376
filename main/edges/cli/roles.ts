/**
 * `pixelfleet roles show|edit|export <role>`: role profiles in the app home, and their export into a harness's own
 * agent definition. Exit codes as the rest of the CLI: 0 done, 1 refused or failed (one line on stderr), 2 usage —
 * and 2 when the installed Codex's agent-role format cannot be determined.
 */
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseRole } from '../../../shared/roles';
import { exportRole } from '../../core/roles/exportAgent';
import { formatProfileText, parseProfileText } from '../../core/roles/profileFile';
import { loadProfile, profilesFolder, saveProfile } from '../../core/roles/ProfileStore';
import { fileTimestamp } from '../../kit/fileStore';
import { UsageError, option, parseArgs, rejectUnknown } from '../../setup/args';

/** What the command needs. */
export interface RolesIo {
  home: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** One line of usage. */
export const ROLES_USAGE =
  'usage: pixelfleet roles show <role> [--json] | edit <role> | export <role> --harness claude|opencode|codex [--scope project|user] [--dir PATH] [--dry-run] [--force] [--json]';

const HARNESSES = ['claude', 'opencode', 'codex'] as const;
const SCOPES = ['project', 'user'] as const;

function roleFrom(positionals: string[]): string {
  if (positionals.length === 0) throw new UsageError(`a role is needed. ${ROLES_USAGE}`);
  const parsed = parseRole(positionals.join(' '));
  if (!parsed.ok) throw new UsageError(parsed.reason);
  return parsed.role;
}

function fail(io: RolesIo, message: string, code = 1): number {
  io.stderr(`pixelfleet roles: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  return code;
}

async function show(rest: string[], io: RolesIo): Promise<number> {
  const args = parseArgs(rest, []);
  rejectUnknown(args, ['json']);
  const role = roleFrom(args.positionals);
  const loaded = await loadProfile(io.home, role);
  if (args.flags.has('json')) {
    io.stdout(`${JSON.stringify({ role, source: loaded.source, path: loaded.path, profile: loaded.profile, problem: loaded.problem ?? null }, null, 2)}\n`);
  } else if (loaded.profile) {
    io.stdout(formatProfileText(loaded.profile));
  }
  if (loaded.problem) fail(io, loaded.problem);
  if (!loaded.profile && !args.flags.has('json')) return fail(io, `The role ${role} has no profile yet; write one with \`pixelfleet roles edit ${role}\`.`);
  return 0;
}

function template(role: string): string {
  return `---\ndescription: What the ${role} role is for, in one line.\n# tools: { allow: [read, search, edit, shell, web, agents], deny: [] }\n# models: { claude: sonnet, opencode: provider/model, codex: model }\n# colour: "#8899aa"\n---\n\nWhat an agent holding this role should know and do.\n`;
}

async function edit(rest: string[], io: RolesIo): Promise<number> {
  const args = parseArgs(rest, []);
  rejectUnknown(args, []);
  const role = roleFrom(args.positionals);
  const editor = (io.env.VISUAL || io.env.EDITOR || '').trim();
  if (!editor) return fail(io, 'set $EDITOR (or $VISUAL) to the editor to open the profile with.');
  const loaded = await loadProfile(io.home, role);
  const current = await fs.readFile(loaded.path, 'utf8').catch(() => null);
  const seed = current ?? (loaded.profile ? formatProfileText(loaded.profile) : template(role));
  await fs.mkdir(profilesFolder(io.home), { recursive: true });
  const draft = path.join(profilesFolder(io.home), `.draft-${process.pid}-${path.basename(loaded.path)}`);
  await fs.writeFile(draft, seed, { mode: 0o600 });
  const [command, ...editorArgs] = editor.split(/\s+/);
  const run = spawnSync(command, [...editorArgs, draft], { stdio: 'inherit', env: io.env });
  if (run.error || run.status !== 0) {
    return fail(io, `the editor did not finish cleanly (${run.error?.message ?? `exit ${run.status}`}); your draft is kept at ${draft}.`);
  }
  const edited = await fs.readFile(draft, 'utf8');
  if (edited === seed && current !== null) {
    await fs.rm(draft, { force: true });
    io.stdout(`No change to ${loaded.path}.\n`);
    return 0;
  }
  const parsed = parseProfileText(edited);
  if (!parsed.ok) {
    const kept = `${loaded.path}.rejected-${fileTimestamp(new Date())}`;
    await fs.rename(draft, kept);
    return fail(io, `the profile was not saved: ${parsed.reason} Your text is kept at ${kept}.`);
  }
  const file = await saveProfile(io.home, role, parsed.profile);
  await fs.rm(draft, { force: true });
  io.stdout(`Saved ${file}.\n`);
  return 0;
}

function choice<T extends string>(value: string | undefined, allowed: readonly T[], name: string, fallback?: T): T {
  if (value === undefined) {
    if (fallback !== undefined) return fallback;
    throw new UsageError(`--${name} is needed (${allowed.join(', ')}).`);
  }
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} takes ${allowed.join(', ')} (got "${value}").`);
  return value as T;
}

async function exportCommand(rest: string[], io: RolesIo): Promise<number> {
  const args = parseArgs(rest, ['harness', 'scope', 'dir']);
  rejectUnknown(args, ['harness', 'scope', 'dir', 'dry-run', 'force', 'json']);
  const role = roleFrom(args.positionals);
  const harness = choice(option(args, 'harness'), HARNESSES, 'harness');
  const scope = choice(option(args, 'scope'), SCOPES, 'scope', 'project');
  const dir = option(args, 'dir');
  if (dir !== undefined && scope === 'user') throw new UsageError('--dir is for project scope; user scope writes to the harness\'s own folder.');
  const outcome = await exportRole({
    home: io.home,
    role,
    harness,
    scope,
    projectDir: path.resolve(io.cwd, dir ?? '.'),
    dryRun: args.flags.has('dry-run'),
    force: args.flags.has('force'),
    env: io.env,
  });
  const json = args.flags.has('json');
  if (!outcome.ok) {
    if (json) io.stdout(`${JSON.stringify({ ok: false, code: outcome.code, reason: outcome.reason, path: outcome.path ?? null }, null, 2)}\n`);
    return fail(io, outcome.reason, outcome.code === 'undetermined' ? 2 : 1);
  }
  if (json) {
    io.stdout(`${JSON.stringify({ ok: true, action: outcome.action, path: outcome.path, name: outcome.name, existing: outcome.existing, text: outcome.text }, null, 2)}\n`);
  } else if (outcome.action === 'preview') {
    io.stdout(outcome.text);
  } else {
    io.stdout(outcome.action === 'unchanged' ? `${outcome.path} is already up to date.\n` : `Wrote ${outcome.path} (agent "${outcome.name}").\n`);
  }
  return 0;
}

/** Runs `roles <subcommand> …`; a usage error is one line on stderr and exit 2. */
export async function runRolesCommand(args: string[], io: RolesIo): Promise<number> {
  try {
    return await runSubcommand(args, io);
  } catch (error) {
    if (error instanceof UsageError) return fail(io, `${error.message} Run \`pixelfleet roles help\`.`, 2);
    throw error;
  }
}

async function runSubcommand(args: string[], io: RolesIo): Promise<number> {
  const [subcommand, ...rest] = args;
  switch (subcommand) {
    case 'show':
      return show(rest, io);
    case 'edit':
      return edit(rest, io);
    case 'export':
      return exportCommand(rest, io);
    case undefined:
    case 'help':
    case '--help':
      io.stdout(`${ROLES_USAGE}\n`);
      return subcommand === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown roles command "${subcommand}". ${ROLES_USAGE}`);
  }
}
