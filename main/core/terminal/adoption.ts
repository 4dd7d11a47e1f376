/**
 * Which tmux pane holds a persona's harness. Nothing is matched on names; each harness by the session's own identity:
 *
 * 1. Launched: the session carries the persona's id in `@pixelfleet_persona`; its pane is the one whose process tree
 *    holds a harness process (else its first pane).
 * 2. Claude Code: `--session-id <id>`, `--resume <id>` (`-r`) in argv names the session. Otherwise its runtime
 *    registry `<Claude home>/sessions/<pid>.json` ({ pid, sessionId, cwd, startedAt }) gives the folder and start; the
 *    registry goes stale after `/clear` and `--continue`, so the session is the journal written from that folder since
 *    `startedAt` (the newest one). When another Claude process without an id in argv runs in the same folder, only a
 *    registry whose session was written since its start tells them apart; otherwise the match is uncertain.
 * 3. Codex: its session id in argv, or its rollout among the open files of its process tree.
 * 4. OpenCode: `--session <id>` (`-s`) in argv; otherwise its working folder is the session's folder in the store and
 *    the session is the folder's most recently updated root session there; two OpenCode processes in that folder are
 *    uncertain.
 * An agent with no match says so; an uncertain one says which panes could be it.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Harness, Persona, SeatAddress } from '../../../shared/schemas';
import type { TerminalRef } from '../../../shared/terminal';
import { harnessOf, processTree, type ProcessInfo, type ProcessTable } from './processes';

/** One tmux pane as listed. */
export interface Pane {
  /** `<session>:<window>.<pane>`. */
  target: string;
  /** tmux's `%N` id, stable while the pane lives. */
  paneId: string;
  session: string;
  pid: number;
  /** The session's `@pixelfleet_persona`, or ''. */
  persona: string;
}

/** A harness process found in a pane. */
interface Found {
  pane: Pane;
  process: ProcessInfo;
  harness: Harness;
}

/** A persona's pane, or why there is none. */
export type PaneMatch = { ok: true; pane: Pane; terminal: TerminalRef; harness: Harness | null } | { ok: false; reason: string; uncertain: boolean };

/** What matching reads besides tmux and the process table. */
export interface AdoptionContext {
  claudeHome: string;
  /** The most recently updated root OpenCode session of a folder in the store at `db`, or null. */
  openCodeLatest(db: string, folder: string): Promise<string | null>;
}

/** The value after a flag (`--flag v` or `--flag=v`) in an argument vector. */
export function flagValue(argv: readonly string[], names: readonly string[]): string | null {
  for (let index = 0; index < argv.length; index += 1) {
    const word = argv[index];
    if (names.includes(word) && index + 1 < argv.length) return argv[index + 1];
    for (const name of names) if (name.startsWith('--') && word.startsWith(`${name}=`)) return word.slice(name.length + 1);
  }
  return null;
}

/** The folder Claude Code keeps a working folder's journals in. */
export function claudeProjectFolder(claudeHome: string, cwd: string): string {
  return path.join(claudeHome, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
}

interface ClaudeRegistry {
  sessionId: string | null;
  cwd: string | null;
  startedAt: number | null;
}

async function claudeRegistry(claudeHome: string, pid: number): Promise<ClaudeRegistry | null> {
  try {
    const value = JSON.parse(await readFile(path.join(claudeHome, 'sessions', `${pid}.json`), 'utf8')) as Record<string, unknown>;
    const started = typeof value.startedAt === 'number' ? value.startedAt : typeof value.startedAt === 'string' ? Date.parse(value.startedAt) : Number.NaN;
    return { sessionId: typeof value.sessionId === 'string' ? value.sessionId : null, cwd: typeof value.cwd === 'string' ? value.cwd : null, startedAt: Number.isFinite(started) ? started : null };
  } catch {
    return null;
  }
}

/** Journals of a folder written since `since`, newest first (session ids). */
async function journalsSince(folder: string, since: number): Promise<string[]> {
  const names = (await readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith('.jsonl') && !name.startsWith('agent-'));
  const stats = await Promise.all(names.map(async (name) => ({ id: name.slice(0, -'.jsonl'.length), mtime: (await stat(path.join(folder, name)).catch(() => null))?.mtimeMs ?? -1 })));
  return stats
    .filter((entry) => entry.mtime >= since)
    .sort((a, b) => b.mtime - a.mtime)
    .map((entry) => entry.id);
}

/** Claude Code's session of a process, `uncertain` when a shared folder hides it, or null (rule 2). */
async function claudeSessionOf(found: Found, all: readonly Found[], table: ProcessTable, context: AdoptionContext): Promise<{ id: string } | { uncertain: true } | null> {
  const named = flagValue(found.process.argv, ['--session-id', '--resume', '-r']);
  if (named) return { id: named };
  const registry = await claudeRegistry(context.claudeHome, found.process.pid);
  const cwd = registry?.cwd ?? (await table.cwd(found.process.pid));
  if (!cwd) return null;
  const since = registry?.startedAt ?? found.process.startedAt ?? 0;
  // Allow the second the start is rounded to.
  const written = await journalsSince(claudeProjectFolder(context.claudeHome, cwd), since - 1000);
  const sharing: Found[] = [];
  for (const other of all) {
    if (other === found || other.harness !== 'claude' || flagValue(other.process.argv, ['--session-id', '--resume', '-r'])) continue;
    const otherCwd = (await claudeRegistry(context.claudeHome, other.process.pid))?.cwd ?? (await table.cwd(other.process.pid));
    if (otherCwd === cwd) sharing.push(other);
  }
  if (sharing.length === 0) return written[0] ? { id: written[0] } : registry?.sessionId ? { id: registry.sessionId } : null;
  if (registry?.sessionId && written.includes(registry.sessionId)) return { id: registry.sessionId };
  return { uncertain: true };
}

/** Codex's session: argv, else its rollout among the tree's open files (rule 3). */
async function codexHolds(found: Found, seat: SeatAddress, table: ProcessTable): Promise<boolean> {
  const tree = processTree(table, found.process.pid);
  if (tree.some((info) => info.argv.includes(seat.sessionId))) return true;
  if (!seat.path) return false;
  for (const info of tree) if ((await table.openFiles(info.pid)).includes(seat.path)) return true;
  return false;
}

/** OpenCode's session: argv, else folder and store (rule 4); `uncertain` when two share the folder. */
async function openCodeHolds(found: Found, seat: SeatAddress, all: readonly Found[], table: ProcessTable, context: AdoptionContext): Promise<boolean | 'uncertain'> {
  const named = flagValue(found.process.argv, ['--session', '-s']);
  if (named) return named === seat.sessionId;
  if (!seat.cwd) return false;
  const folderOf = async (entry: Found) => (await table.cwd(entry.process.pid)) ?? entry.process.argv.slice(1).find((word) => path.isAbsolute(word)) ?? null;
  if ((await folderOf(found)) !== seat.cwd) return false;
  if ((await context.openCodeLatest(seat.home, seat.cwd)) !== seat.sessionId) return false;
  for (const other of all) if (other !== found && other.harness === 'opencode' && !flagValue(other.process.argv, ['--session', '-s']) && (await folderOf(other)) === seat.cwd) return 'uncertain';
  return true;
}

/** The harness processes of each pane's tree (the outermost one per tree: a wrapper and its child are one harness). */
function harnessProcesses(panes: readonly Pane[], table: ProcessTable): Found[] {
  const found: Found[] = [];
  for (const pane of panes) {
    const seen = new Set<Harness>();
    for (const info of processTree(table, pane.pid)) {
      const harness = harnessOf(info);
      if (!harness || seen.has(harness)) continue;
      seen.add(harness);
      found.push({ pane, process: info, harness });
    }
  }
  return found;
}

/** Matches every persona to its pane in one pass over the panes and the process table. */
export async function matchPanes(personas: readonly Persona[], panes: readonly Pane[], table: ProcessTable, context: AdoptionContext): Promise<Map<string, PaneMatch>> {
  const found = harnessProcesses(panes, table);
  const result = new Map<string, PaneMatch>();
  const claudeSessions = new Map<Found, Awaited<ReturnType<typeof claudeSessionOf>>>();
  for (const entry of found) if (entry.harness === 'claude') claudeSessions.set(entry, await claudeSessionOf(entry, found, table, context));

  for (const persona of personas) {
    // Rule 1: launched by Pixelfleet.
    const launchedPanes = panes.filter((pane) => pane.persona === persona.id);
    if (launchedPanes.length > 0) {
      const withHarness = found.find((entry) => launchedPanes.includes(entry.pane));
      const pane = withHarness?.pane ?? launchedPanes[0];
      result.set(persona.id, { ok: true, pane, harness: withHarness?.harness ?? persona.seat?.harness ?? null, terminal: { kind: 'tmux', target: pane.target, launched: true } });
      continue;
    }
    const seat = persona.seat;
    if (!seat) {
      result.set(persona.id, { ok: false, reason: 'It has no seat, so no session to look for in tmux.', uncertain: false });
      continue;
    }
    const holders: Found[] = [];
    let uncertain = false;
    for (const entry of found) {
      if (entry.harness !== seat.harness || entry.pane.persona !== '') continue;
      if (entry.harness === 'claude') {
        const session = claudeSessions.get(entry);
        if (session && 'id' in session && session.id === seat.sessionId) holders.push(entry);
        else if (session && 'uncertain' in session && seat.cwd && (await journalsSince(claudeProjectFolder(context.claudeHome, seat.cwd), 0)).includes(seat.sessionId)) {
          const cwd = (await claudeRegistry(context.claudeHome, entry.process.pid))?.cwd ?? (await table.cwd(entry.process.pid));
          if (cwd === seat.cwd) uncertain = true;
        }
      } else if (entry.harness === 'codex') {
        if (await codexHolds(entry, seat, table)) holders.push(entry);
      } else {
        const holds = await openCodeHolds(entry, seat, found, table, context);
        if (holds === true) holders.push(entry);
        else if (holds === 'uncertain') uncertain = true;
      }
    }
    if (holders.length === 1 && !uncertain) {
      const pane = holders[0].pane;
      result.set(persona.id, { ok: true, pane, harness: seat.harness, terminal: { kind: 'tmux', target: pane.target, launched: false } });
    } else if (holders.length > 1 || uncertain) {
      result.set(persona.id, { ok: false, reason: `Uncertain: more than one tmux pane runs ${seat.harness} in ${seat.cwd ?? 'its folder'} and nothing tells them apart.`, uncertain: true });
    } else {
      result.set(persona.id, { ok: false, reason: `No tmux pane runs its ${seat.harness} session ${seat.sessionId}.`, uncertain: false });
    }
  }
  return result;
}
