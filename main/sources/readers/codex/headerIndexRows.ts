/** What the Codex header index holds once decoded, whichever version wrote it (./headerIndexCodec, ./headerIndexV1). */
import type { HeaderRead } from './header';

/** A header read worth keeping: a header, or a first line known to be too long or not a header (never incomplete). */
export type IndexedRead = Exclude<HeaderRead, { kind: 'incomplete' }>;

/** One indexed rollout: the size and mtime its line 1 was read at, and what line 1 said. */
export interface IndexedHeader {
  size: number;
  mtimeMs: number;
  read: IndexedRead;
}

/**
 * Indexed rollouts in walk order: each path under the home's `sessions/` folder (`YYYY/MM/DD/rollout-*.jsonl`, in
 * this platform's separators, so a walked path ends with it) and its entry, at the same place in both lists.
 */
export interface IndexedRollouts {
  paths: string[];
  entries: IndexedHeader[];
}

/** What each version's decoder gives: the home and its rollouts (paths `/`-separated, as in the file), or where it is wrong. */
export type IndexRows = ({ kind: 'rows'; codexHome: string } & IndexedRollouts) | { kind: 'invalid'; where: string; what: string };
