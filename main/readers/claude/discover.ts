/**
 * Discovery of Claude Code sessions the owner could open: a bounded walk of `<home>/projects/*\/*.jsonl` that
 * looks only at names, sizes and modification times. It never opens a journal (rule "addressed seats only").
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Candidate } from '../../../shared/schemas';
import { isSessionStem, projectsDir } from './locate';

/** Bounds of one discovery walk. */
export interface DiscoverBounds {
  /** Project folders listed at most. */
  maxFolders: number;
  /** Journal files stat-ed at most, across all folders. */
  maxFiles: number;
}

/** Default walk bounds: enough for a busy machine, small enough to stay a few milliseconds. */
export const DEFAULT_DISCOVER_BOUNDS: DiscoverBounds = { maxFolders: 2000, maxFiles: 10000 };

/**
 * Candidate sessions under `home`, newest first. `cwdHint` is the project folder name, which is lossy (every
 * character outside `[A-Za-z0-9]` became `-`): it is a hint for the owner, never decoded into a path.
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
        const info = await stat(journal);
        if (!info.isFile()) continue;
        found.push(candidateOf(home, folder, name.slice(0, -'.jsonl'.length), journal, info));
      } catch {
        // Deleted between listing and stat: Claude Code prunes old sessions at startup.
      }
    }
  }
  found.sort((a, b) => (a.lastActivity < b.lastActivity ? 1 : a.lastActivity > b.lastActivity ? -1 : 0));
  return found.slice(0, limit);
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
  let newest: Candidate | null = null;
  for (const folder of folders) {
    const journal = path.join(root, folder, `${sessionId}.jsonl`);
    try {
      const info = await stat(journal);
      if (!info.isFile()) continue;
      const found = candidateOf(home, folder, sessionId, journal, info);
      if (!newest || found.lastActivity > newest.lastActivity) newest = found;
    } catch {
      // Not in this folder.
    }
  }
  return newest;
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

function candidateOf(home: string, folder: string, sessionId: string, journal: string, info: { mtimeMs: number; size: number }): Candidate {
  return {
    id: `claude:${sessionId}`,
    harness: 'claude',
    seat: { harness: 'claude', home, sessionId, cwd: null, path: journal },
    cwdHint: folder,
    lastActivity: new Date(info.mtimeMs).toISOString(),
    size: info.size,
  };
}
