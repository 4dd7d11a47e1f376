/**
 * Discovery of Claude Code sessions the owner could open: a bounded walk of `<home>/projects/*\/*.jsonl` that
 * looks at names, sizes and modification times, and at the first lines of each listed journal only for the working
 * folder they record (header lines; rule "addressed seats only": no transcript content is read or kept).
 */
import { lstat, readdir } from 'node:fs/promises';
import { openRegular } from '../kit/openRegular';
import path from 'node:path';
import type { Candidate } from '../../../../shared/schemas';
import { isSessionStem, projectsDir } from './locate';
import { foldersHolding } from './folderIndex';
import { CLAUDE_CWD_CACHE, CLAUDE_CWD_HEAD_BYTES, CLAUDE_DISCOVER_FILES, CLAUDE_DISCOVER_FOLDERS } from '../kit/bounds';

/** Bounds of one discovery walk. */
export interface DiscoverBounds {
  /** Project folders listed at most. */
  maxFolders: number;
  /** Journal files stat-ed at most, across all folders. */
  maxFiles: number;
}

/** Default walk bounds: enough for a busy machine, small enough to stay a few milliseconds. */
export const DEFAULT_DISCOVER_BOUNDS: DiscoverBounds = { maxFolders: CLAUDE_DISCOVER_FOLDERS, maxFiles: CLAUDE_DISCOVER_FILES };

/**
 * Candidate sessions under `home`, newest first. `cwdHint` (and the seat's `cwd`) is the working folder the journal's
 * first lines record, or null: the project folder's name is a lossy escape of it (every character outside
 * `[A-Za-z0-9]` became `-`) and is never decoded into a path.
 */
export async function discoverSessions(home: string, limit: number, bounds: DiscoverBounds = DEFAULT_DISCOVER_BOUNDS): Promise<Candidate[]> {
  const root = projectsDir(home);
  const folders = await projectFolders(root, bounds);
  const found: Candidate[] = [];
  let budget = bounds.maxFiles;
  for (const folder of folders) {
    if (budget <= 0) break;
    let names: string[];
    try {
      names = await readdir(path.join(root, folder));
    } catch {
      continue;
    }
    // agent-*.jsonl are subagent journals (flat era, Warmup and helper agents), never sessions of their own.
    const journals = names.filter((name) => name.endsWith('.jsonl') && !name.startsWith('agent-')).slice(0, budget);
    budget -= journals.length;
    for (const name of journals) {
      const journal = path.join(root, folder, name);
      try {
        // lstat: a link planted in the projects folder is not followed (Claude Code writes plain files only).
        const info = await lstat(journal);
        if (!info.isFile()) continue;
        found.push(candidateOf(home, name.slice(0, -'.jsonl'.length), journal, info));
      } catch {
        // Deleted between listing and stat: Claude Code prunes old sessions at startup.
      }
    }
  }
  found.sort((a, b) => (a.lastActivity < b.lastActivity ? 1 : a.lastActivity > b.lastActivity ? -1 : 0));
  // Only the listed sessions' first lines are read (and remembered once found).
  return Promise.all(found.slice(0, limit).map(withRecordedCwd));
}

/** The candidate with the working folder its journal records, as the hint and in the seat's address. */
async function withRecordedCwd(candidate: Candidate): Promise<Candidate> {
  const cwd = candidate.seat.path ? await recordedCwd(candidate.seat.path) : null;
  return { ...candidate, cwdHint: cwd, seat: { ...candidate.seat, cwd } };
}

/**
 * The candidate discovery would list for one session id, looked up by name under `<home>/projects/*` (a listing of
 * the project folders and one stat per folder, within the walk's folder bound but without its file cap or the
 * listing limit). When several folders hold the id, the newest journal wins, as in the listing. Null when the id is
 * not a plain file stem, names a subagent journal, or is not found.
 */
export async function findSession(home: string, sessionId: string, bounds: DiscoverBounds = DEFAULT_DISCOVER_BOUNDS): Promise<Candidate | null> {
  if (!isSessionStem(sessionId) || sessionId.startsWith('agent-')) return null;
  const root = projectsDir(home);
  const folders = await projectFolders(root, bounds);
  // The folders a recent listing saw the journal in; every folder when it did not (a session newer than the listing).
  const holders = await foldersHolding(root, folders, `${sessionId}.jsonl`);
  let newest = holders ? await newestIn(home, root, holders, sessionId) : null;
  // Gone from where the listing saw it, or not listed yet: every folder is looked at.
  if (!newest) newest = await newestIn(home, root, folders, sessionId);
  // Its recorded working folder is the project path the lobby and the card show (the folder name is a lossy escape).
  return newest && withRecordedCwd(newest);
}

/** The newest journal named after the session among `folders`, or null. */
async function newestIn(home: string, root: string, folders: readonly string[], sessionId: string): Promise<Candidate | null> {
  let newest: Candidate | null = null;
  for (const folder of folders) {
    const journal = path.join(root, folder, `${sessionId}.jsonl`);
    try {
      const info = await lstat(journal);
      if (!info.isFile()) continue;
      const found = candidateOf(home, sessionId, journal, info);
      if (!newest || found.lastActivity > newest.lastActivity) newest = found;
    } catch {
      // Not in this folder.
    }
  }
  return newest;
}

const cwdCache = new Map<string, string>();

/** The `cwd` the journal's first lines record (bounded to its first 64 KiB), or null when none does. */
export async function recordedCwd(journal: string): Promise<string | null> {
  const cached = cwdCache.get(journal);
  if (cached) return cached;
  let found: string | null;
  try {
    const handle = await openRegular(journal);
    try {
      const buffer = Buffer.alloc(CLAUDE_CWD_HEAD_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, CLAUDE_CWD_HEAD_BYTES, 0);
      found = cwdFromHead(buffer.subarray(0, bytesRead).toString('utf8'));
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
  // Only a found folder is remembered: a journal that records none yet may record one on its next line.
  if (found !== null) {
    if (cwdCache.size >= CLAUDE_CWD_CACHE) cwdCache.delete(cwdCache.keys().next().value as string);
    cwdCache.set(journal, found);
  }
  return found;
}

/**
 * The working folder the first whole lines of a journal record (`cwd` of the first line that has an absolute one), or
 * null. Pure; the last piece of the head may be cut off, so only whole lines count, and a malformed line is skipped.
 */
export function cwdFromHead(head: string): string | null {
  const lines = head.split('\n');
  for (const line of lines.slice(0, -1)) {
    if (!line.includes('"cwd"')) continue;
    try {
      const cwd = (JSON.parse(line) as { cwd?: unknown } | null)?.cwd;
      // An absolute folder only (POSIX, or a Windows drive path).
      if (typeof cwd === 'string' && (cwd.startsWith('/') || /^[A-Za-z]:[\\/]/.test(cwd))) return cwd;
    } catch {
      // A malformed line: look at the next.
    }
  }
  return null;
}

/** The project folders a walk looks at (sorted, within the folder bound); none when the projects folder is missing. */
async function projectFolders(root: string, bounds: DiscoverBounds): Promise<string[]> {
  try {
    const entries = await readdir(root, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort().slice(0, bounds.maxFolders);
  } catch {
    return [];
  }
}

/** A found session before its journal's first lines are read (`withRecordedCwd` fills in its folder). */
function candidateOf(home: string, sessionId: string, journal: string, info: { mtimeMs: number; size: number }): Candidate {
  return {
    id: `claude:${sessionId}`,
    harness: 'claude',
    seat: { harness: 'claude', home, sessionId, cwd: null, path: journal },
    cwdHint: null,
    lastActivity: new Date(info.mtimeMs).toISOString(),
    size: info.size,
  };
}
