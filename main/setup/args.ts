/** A small argument parser for the pixelfleet command: positionals, `--flag`, `--key value` and `--key=value`. */
import { cursorString, idString, nameString, pathString, roleString, shownValue } from '../../shared/bounds';
import { ServiceError } from '../kit/errors';

/** Parsed arguments. */
export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string | true>;
}

/** Thrown for a usage error (exit 2, one line). */
export class UsageError extends Error {}

/** Splits argv; `valued` names the options that take a value. */
export function parseArgs(argv: string[], valued: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === '--') {
      positionals.push(...argv.slice(index + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '--') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    if (eq > 0) {
      flags.set(name, arg.slice(eq + 1));
    } else if (valued.includes(name)) {
      const value = argv[index + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value.`);
      flags.set(name, value);
      index++;
    } else {
      flags.set(name, true);
    }
  }
  return { positionals, flags };
}

/** A string option, or undefined. */
export function option(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags.get(name);
  return typeof value === 'string' ? value : undefined;
}

/** A whole-number option from `min` to `max`, with a default. */
export function intOption(args: ParsedArgs, name: string, fallback: number, max = 100_000, min = 0): number {
  const value = option(args, name);
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) throw new UsageError(`--${name} takes a whole number from ${min} to ${max}.`);
  return number;
}

/** Refuses flags the command does not know (a typo should not pass silently). */
export function rejectUnknown(args: ParsedArgs, known: readonly string[]): void {
  for (const name of args.flags.keys()) {
    if (!known.includes(name)) throw new UsageError(`Unknown option --${shownValue(name)}.`);
  }
}

/** The contract's bound for each kind of command-line value (the same bounds as a request over the transports). */
const ARGUMENT_BOUNDS = { id: idString, path: pathString, name: nameString, role: roleString, cursor: cursorString } as const;

/**
 * Holds a command-line value to the contract's bound for its kind. An over-long value is refused (exit 1) naming the
 * argument and showing at most 80 characters of it; absent passes through.
 */
export function bounded<T extends string | undefined>(argument: string, value: T, kind: keyof typeof ARGUMENT_BOUNDS): T {
  if (value === undefined) return value;
  const result = ARGUMENT_BOUNDS[kind]().safeParse(value);
  if (!result.success) throw new ServiceError('invalid_request', `${argument} ${result.error.issues[0].message}.`);
  return value;
}
