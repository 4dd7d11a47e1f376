/**
 * `usage --blocks --all-sessions` (issue 41): every journal under the Claude home's projects folder, main sessions and
 * their subagents' files alike, by name and size only (the background pass reads them, for numbers only). Links are
 * not followed; the walk is bounded.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { projectsDir } from './locate';

/** Most journals the walk lists (a larger home is counted in part, and says so). */
const ALL_JOURNALS_MAX = 20_000;
/** Deepest folder level under projects the walk enters (`<project>/<session>/subagents/…`). */
const DEPTH_MAX = 4;

/** The journals of the Claude home, and whether the walk stopped at its bound. */
export async function allJournals(home: string): Promise<{ files: { path: string; size: number }[]; capped: boolean }> {
  const files: { path: string; size: number }[] = [];
  const walk = async (folder: string, depth: number): Promise<boolean> => {
    let entries;
    try {
      entries = await fs.readdir(folder, { withFileTypes: true });
    } catch {
      return true;
    }
    entries.sort((left, right) => left.name.localeCompare(right.name));
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory() && depth < DEPTH_MAX) {
        if (!(await walk(full, depth + 1))) return false;
      } else if (entry.isFile() && entry.name.endsWith('.jsonl')) {
        if (files.length >= ALL_JOURNALS_MAX) return false;
        const info = await fs.stat(full).catch(() => null);
        if (info) files.push({ path: full, size: info.size });
      }
    }
    return true;
  };
  const complete = await walk(projectsDir(home), 0);
  return { files, capped: !complete };
}
