/**
 * The remotes an app home lists (`remotes.json`): a name, an ssh destination and the pixelfleet command to run there.
 * Written like the persona store (temp file, fsync, rename); a file that does not parse is reported, never overwritten.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { ServiceError } from '../../kit/errors';
import { commitTemp, discardTemp, readStoreFile, writeTemp } from '../../kit/fileStore';
import { MAX_REMOTES } from './bounds';

/** The pixelfleet command run on a remote when `--command` is not given. */
export const DEFAULT_REMOTE_COMMAND = 'pixelfleet';

/** A remote's name: lower-case letters, digits and hyphens, 1–24 characters, starting with a letter or digit. */
export const RemoteNameSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,23}$/, 'a remote name is 1–24 lower-case letters, digits or hyphens, starting with a letter or digit');
/** An ssh destination (`host`, `user@host`, `ssh://user@host:port`): never starting with `-`, no spaces or controls. */
export const DestinationSchema = z
  .string()
  .max(255)
  .regex(/^[^\s-]\S*$/, 'an ssh destination has no spaces and does not start with "-"')
  .refine((value) => !hasControl(value), 'an ssh destination has no control characters');
/** The remote pixelfleet command: one line, at most 512 characters. */
export const RemoteCommandSchema = z.string().min(1).max(512).refine((value) => !hasControl(value), 'the remote command is one line without control characters');

function hasControl(value: string): boolean {
  for (const char of value) if (char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f) return true;
  return false;
}

/** One remote. */
export const RemoteSchema = z.object({ name: RemoteNameSchema, destination: DestinationSchema, command: RemoteCommandSchema });
export type Remote = z.infer<typeof RemoteSchema>;

const RemotesFileSchema = z.object({ version: z.literal(1), remotes: z.array(RemoteSchema).max(MAX_REMOTES) });

/** The remotes file of an app home. */
export function remotesFile(home: string): string {
  return join(home, 'remotes.json');
}

/** The remotes listed in the home (none when the file is missing); a file that does not parse is an error value. */
export async function readRemotes(home: string): Promise<{ ok: true; remotes: Remote[] } | { ok: false; reason: string }> {
  const file = remotesFile(home);
  const read = await readStoreFile(file);
  if (read.kind === 'missing') return { ok: true, remotes: [] };
  if (read.kind === 'failed') return { ok: false, reason: `${file} cannot be read (${read.reason})` };
  let json: unknown;
  try {
    json = JSON.parse(read.text);
  } catch {
    return { ok: false, reason: `${file} is not JSON; fix it or remove it (it is left as it is)` };
  }
  const parsed = RemotesFileSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: `${file} does not list remotes as expected (${parsed.error.issues[0].path.join('.')}: ${parsed.error.issues[0].message}); fix it or remove it` };
  return { ok: true, remotes: parsed.data.remotes };
}

async function writeRemotes(home: string, remotes: Remote[]): Promise<void> {
  const file = remotesFile(home);
  const temp = await writeTemp(file, `${JSON.stringify({ version: 1, remotes }, null, 2)}\n`);
  try {
    await commitTemp(temp, file);
  } catch (error) {
    await discardTemp(temp);
    throw error;
  }
}

async function current(home: string): Promise<Remote[]> {
  const read = await readRemotes(home);
  if (!read.ok) throw new ServiceError('unavailable', read.reason);
  return read.remotes;
}

/** Adds a remote; a taken name or a bad field is refused and nothing changes. */
export async function addRemote(home: string, input: { name: string; destination: string; command?: string }): Promise<Remote> {
  const parsed = RemoteSchema.safeParse({ ...input, command: input.command ?? DEFAULT_REMOTE_COMMAND });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ServiceError('invalid_request', `${issue.path.join('.')}: ${issue.message}.`);
  }
  const remotes = await current(home);
  if (remotes.some((remote) => remote.name === parsed.data.name)) throw new ServiceError('invalid_request', `A remote named ${parsed.data.name} exists already; remove it first.`);
  if (remotes.length >= MAX_REMOTES) throw new ServiceError('invalid_request', `A home lists at most ${MAX_REMOTES} remotes.`);
  await writeRemotes(home, [...remotes, parsed.data]);
  return parsed.data;
}

/** Removes a remote by name; false when none has that name. */
export async function removeRemote(home: string, name: string): Promise<boolean> {
  const remotes = await current(home);
  const kept = remotes.filter((remote) => remote.name !== name);
  if (kept.length === remotes.length) return false;
  await writeRemotes(home, kept);
  return true;
}
