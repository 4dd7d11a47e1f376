/**
 * `pixelfleet agents …`: list personas, set or clear a role, list roles, hire. It shares the persona store file with
 * the desktop app (`<home>/personas.json`), so a change here shows up in the world on its next refresh.
 */
import path from 'node:path';
import type { Persona, RoleCount } from '../../../shared/schemas';
import { shownValue } from '../../../shared/bounds';
import { ServiceError } from '../../kit/errors';
import { bounded } from '../../setup/args';
import { PersonaService } from '../../core/personas/PersonaService';
import { withTerminals } from './terminalList';
import { harnessText, roleText } from '../../../shared/usagePhrases';

/** Where the command writes and which store it uses. */
export type AgentsIo = { home: string; stdout: (text: string) => void; stderr: (text: string) => void; env?: NodeJS.ProcessEnv };

/** One line of usage, shown with every usage error. */
export const AGENTS_USAGE =
  'usage: pixelfleet agents list [--json] | roles [--json] | role <persona id or name> (<role> | --clear) [--json] | hire [--name <name>] [--role <role>] [--json]';

/** A persona as the CLI prints it with `--json`: absent role and seat are null, so every key is always present. */
export type PersonaRecord = Omit<Persona, 'role' | 'seat'> & { role: string | null; seat: Persona['seat'] | null };

/** The stable JSON shape of a persona (key order fixed). */
export function personaRecord(persona: Persona): PersonaRecord {
  return {
    id: persona.id,
    name: persona.name,
    role: persona.role ?? null,
    seat: persona.seat ?? null,
    appearance: persona.appearance,
    createdAt: persona.createdAt,
    updatedAt: persona.updatedAt,
  };
}

class UsageError extends Error {}

type Parsed = { positionals: string[]; flags: Map<string, string | true> };

/** Splits arguments into positionals and flags; `valued` flags take the next argument (or `--flag=value`). */
function parseArguments(args: string[], valued: string[], switches: string[]): Parsed {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let index = 0; index < args.length; index += 1) {
    const argument = args[index];
    if (argument === '--') {
      positionals.push(...args.slice(index + 1));
      break;
    }
    if (!argument.startsWith('--')) {
      positionals.push(argument);
      continue;
    }
    const [flag, inline] = argument.slice(2).split(/=(.*)/s, 2);
    if (flags.has(flag)) throw new UsageError(`--${flag} is given twice`);
    if (switches.includes(flag)) {
      if (inline !== undefined) throw new UsageError(`--${flag} takes no value`);
      flags.set(flag, true);
    } else if (valued.includes(flag)) {
      const value = inline ?? args[index + 1];
      if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new UsageError(`--${flag} needs a value`);
      if (inline === undefined) index += 1;
      flags.set(flag, value);
    } else {
      throw new UsageError(`unknown option --${flag}`);
    }
  }
  return { positionals, flags };
}

/** Left-aligned columns separated by two spaces; widths count characters, not UTF-16 units. */
export function formatTable(header: string[], rows: string[][]): string {
  const width = (text: string) => Array.from(text).length;
  const widths = header.map((title, column) => Math.max(width(title), ...rows.map((row) => width(row[column]))));
  const line = (cells: string[]) =>
    cells.map((cell, column) => (column === cells.length - 1 ? cell : cell + ' '.repeat(widths[column] - width(cell)))).join('  ');
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

function seatText(persona: Persona): string {
  if (!persona.seat) return 'none';
  const { harness, sessionId, cwd } = persona.seat;
  return cwd ? `${harnessText(harness)} ${sessionId} (${cwd})` : `${harnessText(harness)} ${sessionId}`;
}

function personaTable(personas: Persona[]): string {
  return formatTable(
    ['ID', 'NAME', 'ROLE', 'SEAT'],
    personas.map((persona) => [persona.id, persona.name, roleText(persona.role), seatText(persona)]),
  );
}

function rolesTable(roles: RoleCount[]): string {
  return formatTable(['ROLE', 'KIND', 'COUNT'], roles.map((entry) => [roleText(entry.role), entry.builtIn ? 'built-in' : 'custom', String(entry.count)]));
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function noPositionals(parsed: Parsed, command: string): void {
  if (parsed.positionals.length > 0) throw new UsageError(`${command} takes no arguments (got "${shownValue(parsed.positionals[0])}")`);
}

async function runSubcommand(service: PersonaService, subcommand: string, rest: string[], io: AgentsIo): Promise<void> {
  switch (subcommand) {
    case 'list': {
      const parsed = parseArguments(rest, [], ['json']);
      noPositionals(parsed, 'list');
      const personas = await service.list();
      if (parsed.flags.has('json')) io.stdout(json(await withTerminals(personas, io.env ?? {}, personaRecord)));
      else io.stdout(personas.length > 0 ? personaTable(personas) : 'No personas yet. Hire one with: pixelfleet agents hire --name <name>\n');
      return;
    }
    case 'roles': {
      const parsed = parseArguments(rest, [], ['json']);
      noPositionals(parsed, 'roles');
      const roles = await service.rolesList();
      io.stdout(parsed.flags.has('json') ? json(roles) : rolesTable(roles));
      return;
    }
    case 'role': {
      const parsed = parseArguments(rest, [], ['json', 'clear']);
      const [who, ...roleWords] = parsed.positionals;
      const clear = parsed.flags.has('clear');
      if (who === undefined) throw new UsageError('role needs a persona id or name');
      if (clear && roleWords.length > 0) throw new UsageError('role takes either a role or --clear, not both');
      if (!clear && roleWords.length === 0) throw new UsageError('role needs a role, or --clear to remove it');
      bounded('the persona id or name', who, 'id');
      const persona = await service.find(who);
      if (!persona) throw new ServiceError('not_found', `No persona with id or name ${JSON.stringify(shownValue(who))}.`);
      // Unquoted words are one role: `agents role Ada Sound Designer`.
      const updated = await service.setRole(persona.id, clear ? null : roleWords.join(' '));
      if (parsed.flags.has('json')) io.stdout(json(personaRecord(updated)));
      else io.stdout(updated.role ? `${updated.name} (${updated.id}) now holds the role ${roleText(updated.role)}.\n` : `${updated.name} (${updated.id}) holds no role now.\n`);
      return;
    }
    case 'hire': {
      const parsed = parseArguments(rest, ['name', 'role'], ['json']);
      noPositionals(parsed, 'hire');
      const name = parsed.flags.get('name');
      const role = parsed.flags.get('role');
      const persona = await service.hire({
        ...(typeof name === 'string' ? { name } : {}),
        ...(typeof role === 'string' ? { role } : {}),
      });
      io.stdout(parsed.flags.has('json') ? json(personaRecord(persona)) : `Hired ${persona.name}.\n${personaTable([persona])}`);
      return;
    }
    default:
      throw new UsageError(`unknown command "${shownValue(subcommand)}"`);
  }
}

/** One line for stderr, whatever the message holds. */
function oneLine(text: string): string {
  return `pixelfleet agents: ${text.replace(/\s*\n\s*/g, ' ')}\n`;
}

/**
 * Runs `agents <subcommand> …` (`args` may start with "agents"). Exit codes: 0 done, 1 refused input or store
 * trouble (one line on stderr), 2 usage error (one line on stderr).
 */
export async function runAgentsCommand(args: string[], io: AgentsIo): Promise<number> {
  const [subcommand, ...rest] = args[0] === 'agents' ? args.slice(1) : args;
  if (subcommand === undefined) {
    io.stderr(oneLine(`a command is needed. ${AGENTS_USAGE}`));
    return 2;
  }
  if (subcommand === 'help' || subcommand === '--help' || subcommand === '-h') {
    io.stdout(`${AGENTS_USAGE}\n`);
    return 0;
  }
  const service = new PersonaService({ file: path.join(io.home, 'personas.json') });
  try {
    await runSubcommand(service, subcommand, rest, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(oneLine(`${error.message}. ${AGENTS_USAGE}`));
      return 2;
    }
    io.stderr(oneLine(error instanceof Error ? error.message : String(error)));
    return 1;
  } finally {
    // The owner must hear that a store was moved aside even when the command itself went through.
    for (const notice of service.notices()) if (notice.level === 'error') io.stderr(oneLine(notice.message));
    service.dispose();
  }
}
