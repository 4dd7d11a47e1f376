/**
 * Which project folders hold a journal name, from one listing of every project folder reused for a moment: the
 * fleet resolves each stored seat by its session id, and one look-up stat'ed the name in every project folder — at
 * 500 agents, 334 folders for each of 334 Claude seats. The index answers the folders that held the name; a name it
 * does not know is searched the long way (it may be newer than the listing).
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** How long one listing of the project folders answers look-ups (a burst of resolutions in one census). */
const FOLDER_INDEX_REUSE_MS = 1_000;
/** Folders listed at the same time while the index is built. */
const LISTING_BATCH = 16;

interface Index {
  at: number;
  /** Journal file name → the folders (names under the root) that hold it. */
  byName: Map<string, string[]>;
}

const indexes = new Map<string, Promise<Index>>();

async function build(root: string, folders: readonly string[], now: number): Promise<Index> {
  const byName = new Map<string, string[]>();
  for (let start = 0; start < folders.length; start += LISTING_BATCH) {
    const listed = await Promise.all(
      folders.slice(start, start + LISTING_BATCH).map((folder) => readdir(path.join(root, folder)).then((names) => [folder, names] as const, () => [folder, [] as string[]] as const)),
    );
    for (const [folder, names] of listed) {
      for (const name of names) {
        if (!name.endsWith('.jsonl')) continue;
        const holders = byName.get(name);
        if (holders) holders.push(folder);
        else byName.set(name, [folder]);
      }
    }
  }
  return { at: now, byName };
}

/**
 * The folders of `folders` (under `root`) that held `name` at a listing at most FOLDER_INDEX_REUSE_MS old, or null
 * when the listing did not hold it (search every folder then).
 */
export async function foldersHolding(root: string, folders: readonly string[], name: string, now = Date.now()): Promise<string[] | null> {
  // One listing per projects folder (a home): the cache holds as many entries as homes configured.
  let index = indexes.get(root);
  if (!index || now - (await index).at >= FOLDER_INDEX_REUSE_MS) {
    index = build(root, folders, now);
    indexes.set(root, index);
  }
  const holders = (await index).byName.get(name);
  return holders ? holders.filter((folder) => folders.includes(folder)) : null;
}
