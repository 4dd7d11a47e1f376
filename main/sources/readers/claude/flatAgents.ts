/**
 * The flat subagent files of Claude Code 2.0.24–2.1.1 (issue 37): `agent-<id>.jsonl` beside the session journals in a
 * project folder, each owned by the session its lines name in `sessionId` (the root session, never the agent's own).
 * They count toward their session's "with subagents" usage whether or not its tray lists them. In the background:
 * one listing of the folder's names (again at most every USAGE_RESTAT_MS while a seat of it is looked at), and each
 * new file's head read once (FLAT_HEAD_BYTES) for its owner; at most USAGE_SESSION_FILES files per folder, the first
 * by name.
 */
import { readdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { USAGE_RESTAT_MS, USAGE_SESSION_FILES } from '../../../kit/usage/bounds';
import { openRegular } from '../kit/openRegular';

/** A flat subagent journal's name (the nested `subagents/` ones are SessionFiles' part). */
const FLAT_AGENT = /^agent-[^/\\]+\.jsonl$/;
/** Bytes of a flat file's start read to learn its owner (its first lines name it). */
const FLAT_HEAD_BYTES = 64 * 1024;
/** The owner as it appears on a line, when no whole line fits in the head (a very long first line). */
const SESSION_FIELD = /"sessionId":"([^"\\]{1,200})"/;

interface FlatFolder {
  /** Each flat file's owner (null: none named yet, read again at the next listing). */
  owners: Map<string, string | null>;
  /** The files by owner at the last listing; null before the first listing ended. */
  bySession: Map<string, string[]> | null;
  listedAt: number;
  listing: Promise<void> | null;
}

/** Flat subagent files by the session that owns them, per project folder, learnt in the background. */
export class FlatAgents {
  private readonly folders = new Map<string, FlatFolder>();

  /** `changed` is told the files of a folder when its owners changed. */
  constructor(private readonly changed: (files: readonly string[]) => void) {}

  /** The flat agent files in `folder` owned by `sessionId`; null while the folder's first listing runs. */
  files(folder: string, sessionId: string, now: number = Date.now()): readonly string[] | null {
    let known = this.folders.get(folder);
    if (!known) {
      // The first listing's names at once: a folder without flat files (every session since 2.1.2) is known empty
      // from the seat's first answer; one with them has their owners read in the background.
      const flat = readNames(folder).some((name) => FLAT_AGENT.test(name));
      known = { owners: new Map(), bySession: flat ? null : new Map(), listedAt: flat ? -Infinity : now, listing: null };
      this.folders.set(folder, known);
    }
    if (!known.listing && now - known.listedAt >= USAGE_RESTAT_MS) {
      known.listedAt = now;
      const entry = known;
      known.listing = this.list(folder, entry).finally(() => (entry.listing = null));
    }
    return known.bySession === null ? null : (known.bySession.get(sessionId) ?? []);
  }

  /** Lists again every folder whose last listing is older than USAGE_RESTAT_MS. */
  refresh(now: number = Date.now()): void {
    for (const [folder, known] of this.folders) {
      if (!known.listing && now - known.listedAt >= USAGE_RESTAT_MS) {
        known.listedAt = now;
        known.listing = this.list(folder, known).finally(() => (known.listing = null));
      }
    }
  }

  /** Resolves when no listing runs. */
  async settled(): Promise<void> {
    for (const folder of this.folders.values()) await folder.listing;
  }

  private async list(folder: string, known: FlatFolder): Promise<void> {
    let names: string[];
    try {
      names = await readdir(folder);
    } catch {
      names = [];
    }
    const files = names.filter((name) => FLAT_AGENT.test(name)).sort().slice(0, USAGE_SESSION_FILES).map((name) => path.join(folder, name));
    const owners = new Map<string, string | null>();
    for (const file of files) owners.set(file, known.owners.get(file) ?? (await ownerOf(file)));
    const bySession = new Map<string, string[]>();
    for (const [file, owner] of owners) if (owner !== null) (bySession.get(owner) ?? bySession.set(owner, []).get(owner)!).push(file);
    const before = known.bySession;
    known.owners = owners;
    known.bySession = bySession;
    const same = before !== null && before.size === bySession.size && [...bySession].every(([owner, list]) => before.get(owner)?.join('\n') === list.join('\n'));
    if (!same) this.changed([...owners.keys()].filter((file) => owners.get(file) !== null));
  }
}

function readNames(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

/** The session a flat agent file's lines name, from its head; null when none is named (yet) or it cannot be read. */
async function ownerOf(file: string): Promise<string | null> {
  let text: string;
  try {
    const handle = await openRegular(file);
    try {
      const buffer = Buffer.alloc(FLAT_HEAD_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, FLAT_HEAD_BYTES, 0);
      text = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
  const lines = text.split('\n');
  // The last piece may be a cut line: only whole lines are parsed.
  for (const line of lines.slice(0, -1)) {
    try {
      const record: unknown = JSON.parse(line);
      if (record && typeof record === 'object' && typeof (record as { sessionId?: unknown }).sessionId === 'string') return (record as { sessionId: string }).sessionId;
    } catch {
      // A malformed line names no owner; the next may.
    }
  }
  return SESSION_FIELD.exec(text)?.[1] ?? null;
}
