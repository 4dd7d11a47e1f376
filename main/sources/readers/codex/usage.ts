/**
 * A Codex seat's usage (issue 26): its own from the parent rollout's fold, each child's from its own rollout, tailed
 * like the parent (a cold read of at most the last 2 MiB, then appended bytes). Codex records running totals in
 * every `token_count`, so the tail gives whole-session totals without a background pass (rule X3).
 */
import type { SubagentEntry } from '../../../../shared/schemas';
import { createCodexUsage, foldCodexUsage, type CodexUsageFold } from './usageFold';
import { seatUsage, subagentUsage, type SeatUsage } from '../../../kit/usage/seatUsage';
import type { Tally } from '../../../kit/usage/tally';
import { seatLimits } from '../../../kit/usage/limits';
import { asObject, parseJson } from '../kit/json';
import { DEFAULT_TAIL, tailReduce, type TailState } from '../tail';

/** One child rollout's usage tail. */
export interface ChildUsageScan {
  tail: TailState | null;
  fold: CodexUsageFold;
}

/** Folds one rollout line into a usage fold (a line that is not JSON is left to the parent's count). */
export function foldCodexUsageLine(fold: CodexUsageFold, line: string): void {
  if (!line.includes('token_count') && !line.includes('turn_context') && !line.includes('session_meta')) return;
  const envelope = asObject(parseJson(line));
  const payload = asObject(envelope?.payload);
  if (envelope && payload) foldCodexUsage(fold, envelope.type, payload, typeof envelope.timestamp === 'string' ? envelope.timestamp : null);
}

/** Reads what a child rollout appended since its last scan; returns the scan and the bytes read. */
export async function scanChildUsage(path: string, scan: ChildUsageScan | undefined): Promise<{ scan: ChildUsageScan; bytes: number }> {
  const known = scan ?? { tail: null, fold: createCodexUsage() };
  const { result, derived } = await tailReduce(path, known.tail, DEFAULT_TAIL, known.fold, createCodexUsage, foldCodexUsageLine);
  return { scan: { tail: result.state, fold: derived }, bytes: result.bytesRead };
}

/** The seat's usage, and its entries with each child's own usage (by the child's rollout path). */
export function codexSeatUsage(own: CodexUsageFold, entries: SubagentEntry[], childPaths: string[], scans: ReadonlyMap<string, ChildUsageScan>): { usage: SeatUsage; entries: SubagentEntry[] } {
  const children: Tally[] = [];
  const withUsage = entries.map((entry, index) => {
    const scan = scans.get(childPaths[index]);
    if (!scan || scan.fold.lastTotal === null) return entry;
    children.push(scan.fold.tally);
    return { ...entry, usage: subagentUsage(scan.fold.tally, false) };
  });
  const usage = seatUsage({
    own: own.tally,
    partial: false,
    subagents: children,
    subagentsPartial: false,
    contextUsed: own.contextUsed,
    window: own.window,
    model: own.model,
    limits: seatLimits(own.limits),
  });
  return { usage, entries: withUsage };
}
