/**
 * Where Claude Code keeps a session's journal and its subagents' journals. Ids are checked as plain tokens
 * before they are ever joined into a path (rule 10).
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SeatAddress } from '../../../../shared/schemas';

/** A plain id that is safe in a file name: letters, digits, `_` and `-` only (rule 10). */
export function isPlainToken(value: string): boolean {
  return /^[A-Za-z0-9_-]+$/.test(value);
}

/** A session file stem: a plain token, optionally with dots (never only dots, never a separator). */
export function isSessionStem(value: string): boolean {
  return /^[A-Za-z0-9_.-]+$/.test(value) && !/^\.+$/.test(value);
}

/** Claude Code's project folder name for a working folder: every character outside `[A-Za-z0-9]` becomes `-`. */
export function escapeCwd(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

/** Names longer than this are cut and get a hash suffix that differs between builds, so they are matched by prefix. */
const ESCAPED_NAME_LIMIT = 200;

/** The projects folder under a Claude home (`CLAUDE_CONFIG_DIR`). */
export function projectsDir(home: string): string {
  return path.join(home, 'projects');
}

/**
 * The journal path of a seat: its recorded path, else `<home>/projects/<escaped cwd>/<sessionId>.jsonl`, else a
 * search of `<home>/projects/*` by file name (directory listings only). Null when not found or the id is unsafe.
 */
export async function locateJournal(seat: SeatAddress): Promise<string | null> {
  if (seat.path) return seat.path;
  if (!isSessionStem(seat.sessionId)) return null;
  const root = projectsDir(seat.home);
  const fileName = `${seat.sessionId}.jsonl`;
  let folders: string[];
  if (seat.cwd) {
    const escaped = escapeCwd(seat.cwd);
    if (escaped.length <= ESCAPED_NAME_LIMIT) {
      const direct = path.join(root, escaped, fileName);
      if (await isFile(direct)) return direct;
    }
    const prefix = escaped.length > ESCAPED_NAME_LIMIT ? `${escaped.slice(0, ESCAPED_NAME_LIMIT)}-` : escaped;
    folders = (await listFolders(root)).filter((name) => name === escaped || name.startsWith(prefix));
  } else {
    folders = await listFolders(root);
  }
  for (const folder of folders) {
    const candidate = path.join(root, folder, fileName);
    if (await isFile(candidate)) return candidate;
  }
  return null;
}

/**
 * The two places a child journal may live (rule 10): `<sessionId>/subagents/agent-<id>.jsonl` beside the parent
 * (2.1.2+), then the older flat `agent-<id>.jsonl` in the same project folder. Null for unsafe ids.
 */
export function childJournalCandidates(parentJournal: string, sessionId: string, agentId: string): string[] | null {
  if (!isPlainToken(agentId) || !isPlainToken(sessionId)) return null;
  const folder = path.dirname(parentJournal);
  const fileName = `agent-${agentId}.jsonl`;
  return [path.join(folder, sessionId, 'subagents', fileName), path.join(folder, fileName)];
}

/**
 * The seat address of a journal named on the command line: home is the folder above `projects/` when the file
 * lies in `<home>/projects/<folder>/`, else the file's own folder; the session id is the file name stem.
 */
export async function seatFromCliTarget(target: string): Promise<SeatAddress> {
  const absolute = path.resolve(target);
  const folder = path.dirname(absolute);
  const above = path.dirname(folder);
  const home = path.basename(above) === 'projects' ? path.dirname(above) : folder;
  const sessionId = path.basename(absolute).replace(/\.jsonl$/, '');
  return { harness: 'claude', home, sessionId, cwd: null, path: absolute };
}

async function listFolders(root: string): Promise<string[]> {
  try {
    const entries = await readdir(root, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch {
    return [];
  }
}

async function isFile(candidate: string): Promise<boolean> {
  try {
    return (await stat(candidate)).isFile();
  } catch {
    return false;
  }
}
