/**
 * Role profiles in the app home: `roles/<role key>.md`, read on demand, written atomically (temp file, fsync,
 * rename). A file that does not parse is reported and the role goes on without it (its built-in default, if any).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isBuiltInRole, roleKey, type BuiltInRole } from '../../../shared/roles';
import type { RoleProfile } from '../../../shared/roleProfile';
import { commitTemp, discardTemp, writeTemp } from '../../kit/fileStore';
import { DEFAULT_PROFILES } from './defaults';
import { formatProfileText, parseProfileText } from './profileFile';

/** Bytes of a profile file read at most; a longer file is refused, not cut. */
export const PROFILE_FILE_MAX_BYTES = 64 * 1024;

/** A role's profile as the app sees it. `problem` says why the owner's file is not used. */
export interface LoadedProfile {
  role: string;
  path: string;
  source: 'file' | 'default' | 'none';
  profile: RoleProfile | null;
  problem?: string;
}

/** The folder of the profiles in an app home. */
export function profilesFolder(home: string): string {
  return path.join(home, 'roles');
}

/** The file of one role's profile; the role must parse (its key names the file). */
export function profilePath(home: string, role: string): string {
  return path.join(profilesFolder(home), `${roleKey(role)}.md`);
}

function fallback(role: string): Pick<LoadedProfile, 'source' | 'profile'> {
  return isBuiltInRole(role) ? { source: 'default', profile: DEFAULT_PROFILES[roleKey(role) as BuiltInRole] } : { source: 'none', profile: null };
}

/** Reads one role's profile: the owner's file when it parses, else the built-in default (or none), with the reason. */
export async function loadProfile(home: string, role: string): Promise<LoadedProfile> {
  const file = profilePath(home, role);
  let text: string;
  try {
    const stats = await fs.stat(file);
    if (!stats.isFile()) return { role, path: file, ...fallback(role), problem: `${file} is not a regular file.` };
    if (stats.size > PROFILE_FILE_MAX_BYTES) {
      return { role, path: file, ...fallback(role), problem: `${file} is larger than ${PROFILE_FILE_MAX_BYTES / 1024} KiB and is not used.` };
    }
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { role, path: file, ...fallback(role) };
    return { role, path: file, ...fallback(role), problem: `${file} cannot be read (${(error as Error).message}).` };
  }
  const parsed = parseProfileText(text);
  if (!parsed.ok) return { role, path: file, ...fallback(role), problem: `The profile ${file} is not used: ${parsed.reason}` };
  return { role, path: file, source: 'file', profile: parsed.profile };
}

/** Writes one role's profile atomically; returns the file written. */
export async function saveProfile(home: string, role: string, profile: RoleProfile): Promise<string> {
  const file = profilePath(home, role);
  await writeTextAtomically(file, formatProfileText(profile));
  return file;
}

/** Writes a text file atomically: a temp file beside it, flushed, then renamed over it. */
export async function writeTextAtomically(file: string, text: string): Promise<void> {
  const temp = await writeTemp(file, text);
  try {
    await commitTemp(temp, file);
  } catch (error) {
    await discardTemp(temp);
    throw error;
  }
}
