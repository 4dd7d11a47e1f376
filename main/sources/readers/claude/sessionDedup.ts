/**
 * Rule U8 (issue 37): a message repeated in two files of one Claude session — the main journal and a subagent or
 * compaction file, a flat agent file, or any two of them — counts once for the session, as the usage analyser the
 * issue compares with counts it (ccusage 20.0.24, found by running it on journals written for the purpose): of the
 * copies of a message (same `message.id` + `requestId`), a main-chain copy (`isSidechain` false) is kept over a
 * sidechain one; among those, the one with the most tokens (input + output + cache writes + cache reads); on a tie,
 * the one in the first file by path. Every other copy is taken back out of its file's tally. Pure; the files' folds are never changed (a tally that loses a copy is copied first).
 */
import { copyTally, subtractFigures, type Tally } from '../../../kit/usage/tally';
import type { ClaudeUsageFold } from './usageFold';
import type { MessageCopy } from './messageCopies';

/** One file of a session: its path (the tie's order) and its fold. */
export interface SessionPart {
  file: string;
  fold: ClaudeUsageFold;
}

/** A file's tallies once the session counts each message once. */
export interface CountedPart {
  main: Tally;
  sidechain: Tally;
}

/**
 * Each part's tallies with the copies the session does not count taken out (in the order given). `peers` are the
 * files of other sessions in the same project folder that the fleet reads (a resumed session's earlier journal, which
 * a resume copies messages from): a message whose kept copy lies there counts in that session, not in this one.
 */
export function countSessionOnce(parts: readonly SessionPart[], peers: readonly SessionPart[] = []): CountedPart[] {
  const all = [...parts, ...peers];
  const order = all.map((_, index) => index).sort((a, b) => byPath(all[a].file, all[b].file) || a - b);
  const kept = new Map<number, { part: number; tokens: number; side: boolean }>();
  let copies = 0;
  const ownHashes = new Set<number>();
  for (const part of parts) for (const hash of part.fold.copies.keys()) ownHashes.add(hash);
  for (const index of order) {
    const held = all[index].fold.copies;
    // A peer's messages matter only where a file of this session holds them too (looked up from the smaller side).
    const hashes = index < parts.length ? held.keys() : held.size < ownHashes.size ? [...held.keys()].filter((hash) => ownHashes.has(hash)) : [...ownHashes].filter((hash) => held.has(hash));
    for (const hash of hashes) {
      const copy = held.get(hash)!;
      copies += 1;
      const tokens = tokensOf(copy);
      const best = kept.get(hash);
      if (!best || (best.side && !copy.side) || (best.side === copy.side && tokens > best.tokens)) kept.set(hash, { part: index, tokens, side: copy.side });
    }
  }
  // No message in two files (the common case): the folds' own tallies, nothing copied.
  if (copies === kept.size) return parts.map((part) => ({ main: part.fold.main, sidechain: part.fold.sidechain }));
  return parts.map((part, index) => {
    let main = part.fold.main;
    let sidechain = part.fold.sidechain;
    for (const [hash, copy] of part.fold.copies) {
      if (kept.get(hash)?.part === index) continue;
      if (copy.side) {
        if (sidechain === part.fold.sidechain) sidechain = copyTally(sidechain);
        subtractFigures(sidechain, copy.figures, copy.at, copy.model);
      } else {
        if (main === part.fold.main) main = copyTally(main);
        subtractFigures(main, copy.figures, copy.at, copy.model);
      }
    }
    return { main, sidechain };
  });
}

function tokensOf(copy: MessageCopy): number {
  return copy.figures.input + copy.figures.output + copy.figures.cacheRead + copy.figures.cacheWrite;
}

/** Paths in code-unit order (the same on every platform, unlike a locale's). */
function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
