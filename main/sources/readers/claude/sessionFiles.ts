/**
 * Every subagent file of a Claude session for its whole-session usage (issue 37): the `agent-*.jsonl` files anywhere
 * under `<session>/subagents/` — Agent-tool subagents wherever their launch lies in the journal, compaction agents
 * (`agent-acompact-*`), side questions and workflow steps alike, since each is a billed request. Listed in the
 * background (one recursive listing of the folder's names, the first at once so a session without subagents is whole
 * from its first answer; again at most every USAGE_RESTAT_MS while the seat is looked at), bounded to
 * USAGE_SESSION_FILES files (the first by name when there are more); no file is read here.
 */
import { readdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { USAGE_RESTAT_MS, USAGE_SESSION_FILES } from '../../../kit/usage/bounds';

/** A subagent journal's file name: `agent-<id>.jsonl` (the `.meta.json` sidecars and other files are not usage). */
const AGENT_JOURNAL = /^agent-[^/\\]+\.jsonl$/;

interface Folder {
  /** The journals found at the last listing, sorted; null before the first listing ended. */
  files: readonly string[] | null;
  /** When the last listing began (ms), to space out listings. */
  listedAt: number;
  listing: Promise<void> | null;
}

/** The subagent journals of session folders, listed in the background. */
export class SessionFiles {
  private readonly folders = new Map<string, Folder>();

  /** `changed` is told the files of a folder when its listing differs from the one before. */
  constructor(private readonly changed: (files: readonly string[]) => void) {}

  /** The journals under `folder` (empty when it is not there). */
  files(folder: string, now: number = Date.now()): readonly string[] | null {
    let known = this.folders.get(folder);
    if (!known) {
      // The first listing at once: names only, one folder (no file is opened).
      const files = journals(folder, readNames(folder));
      this.folders.set(folder, (known = { files, listedAt: now, listing: null }));
      this.changed(files);
    }
    if (!known.listing && now - known.listedAt >= USAGE_RESTAT_MS) {
      known.listedAt = now;
      const entry = known;
      known.listing = this.list(folder, entry).finally(() => (entry.listing = null));
    }
    return known.files;
  }

  /** Lists again every folder whose last listing is older than USAGE_RESTAT_MS (a subagent file appears while its
   * parent journal stays still, e.g. a background agent). */
  refresh(now: number = Date.now()): void {
    for (const folder of this.folders.keys()) this.files(folder, now);
  }

  /** Resolves when no listing runs. */
  async settled(): Promise<void> {
    for (const folder of this.folders.values()) await folder.listing;
  }

  private async list(folder: string, known: Folder): Promise<void> {
    let names: string[];
    try {
      names = await readdir(folder, { recursive: true });
    } catch {
      // No subagents folder (yet), or it cannot be read: no subagent files.
      names = [];
    }
    const files = journals(folder, names);
    if (known.files === null || known.files.length !== files.length || known.files.some((file, index) => file !== files[index])) {
      known.files = files;
      this.changed(files);
    }
  }
}

function readNames(folder: string): string[] {
  try {
    return readdirSync(folder, { recursive: true }) as string[];
  } catch {
    return [];
  }
}

/** The subagent journals among a folder's names (relative paths), sorted, at most USAGE_SESSION_FILES. */
function journals(folder: string, names: readonly string[]): string[] {
  const found = names.filter((name) => AGENT_JOURNAL.test(path.basename(name))).sort();
  return found.slice(0, USAGE_SESSION_FILES).map((name) => path.join(folder, name));
}
