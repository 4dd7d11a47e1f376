/**
 * Pure merging of replay pages into one list of keyed lines, oldest first. Keys never change once given, so the
 * replay pane reconciles rows by key: a refresh appends only what is new, an older page prepends, nothing is rebuilt.
 */
import type { ReplayEntry } from '../../shared/schemas';

/** One replayed line with a key that stays the same for as long as the replay is open. */
export interface ReplayLine {
  key: number;
  entry: ReplayEntry;
}

/** The result of merging the newest page: the lines, how many were appended, and whether a gap forced a restart. */
export interface MergeResult {
  lines: ReplayLine[];
  appended: number;
  /** True when the newest page shares nothing with what was shown: the lines restart from that page. */
  restarted: boolean;
}

function same(a: ReplayEntry, b: ReplayEntry): boolean {
  return a.at === b.at && a.role === b.role && a.tool === b.tool && a.text === b.text;
}

/** The next free key after the given lines. */
export function nextKey(lines: readonly ReplayLine[]): number {
  return lines.length === 0 ? 0 : lines[lines.length - 1].key + 1;
}

/**
 * Merges the newest page (the last entries of the child, oldest first) into the lines. The page overlaps the
 * shown tail when the child grew by less than a page: the longest suffix of the lines equal to a prefix of the page.
 */
export function mergeNewest(lines: readonly ReplayLine[], page: readonly ReplayEntry[]): MergeResult {
  if (lines.length === 0) return { lines: page.map((entry, key) => ({ key, entry })), appended: page.length, restarted: false };
  const longest = Math.min(lines.length, page.length);
  for (let overlap = longest; overlap > 0; overlap -= 1) {
    let matches = true;
    for (let index = 0; index < overlap && matches; index += 1) {
      matches = same(lines[lines.length - overlap + index].entry, page[index]);
    }
    if (!matches) continue;
    if (overlap === page.length) return { lines: lines as ReplayLine[], appended: 0, restarted: false };
    let key = nextKey(lines);
    const added = page.slice(overlap).map((entry) => ({ key: key++, entry }));
    return { lines: [...lines, ...added], appended: added.length, restarted: false };
  }
  if (page.length === 0) return { lines: lines as ReplayLine[], appended: 0, restarted: false };
  let key = nextKey(lines);
  return { lines: page.map((entry) => ({ key: key++, entry })), appended: page.length, restarted: true };
}

/** Prepends an older page (oldest first) with keys below the first shown one. */
export function prependOlder(lines: readonly ReplayLine[], page: readonly ReplayEntry[]): ReplayLine[] {
  const first = lines.length === 0 ? 0 : lines[0].key;
  return [...page.map((entry, index) => ({ key: first - page.length + index, entry })), ...lines];
}
