/**
 * A Claude seat's usage (issues 26, 37): context and model from the read window (rule U2), totals from the window
 * when it starts at byte 0, else from the background pass (`partial` until it reaches the end); "with subagents" adds
 * every subagent and compaction file of the session (however many, wherever launched) through the same pass, and
 * each tray entry shows its own file's totals. No I/O here: the ledger answers from memory.
 */
import path from 'node:path';
import type { SubagentEntry, SubagentSummary } from '../../../../shared/schemas';
import type { UsageLedger, LedgerView } from './ledger';
import { USAGE_PARTIAL_REFRESH_MS } from '../../../kit/usage/bounds';
import { seatUsage, subagentUsage } from '../../../kit/usage/seatUsage';
import { mergeTallies, type Tally } from '../../../kit/usage/tally';
import { seatLimits } from '../../../kit/usage/limits';
import type { ClaudeFold } from './journalFold';
import { countSessionOnce, type SessionPart } from './sessionDedup';

/** What the seat's usage was built from, so an unchanged seat reuses its answer. */
export interface ClaudeUsageAnswer {
  signature: string;
  /** The journal's size, the fold's sequence and the ledger's version it was built at (the quick check). */
  quick: string;
  usage: ReturnType<typeof seatUsage>;
  /** The same without how far each pass has read (only whether it is done): what moved besides a pass's progress. */
  shape: string;
  /** When it was built (ms), to space out answers that differ only by a pass's progress. */
  builtAt: number;
  /** The summary it was given (the reader keeps one object while nothing moved) and the one it gave back. */
  summary: SubagentSummary;
  subagents: SubagentSummary;
}

/** The seat's usage and its summary with each located subagent's usage; `previous` is reused when nothing moved. */
export function claudeUsage(
  fold: ClaudeFold,
  journal: string,
  size: number,
  summary: SubagentSummary,
  ledger: UsageLedger,
  previous: ClaudeUsageAnswer | null,
  now: number = Date.now(),
): ClaudeUsageAnswer {
  // Nothing moved (the journal, its fold, anything the ledger knows): the same answer without a lookup.
  const quick = `${size}|${fold.projection.sequence}|${ledger.version}`;
  if (previous && previous.quick === quick && previous.summary === summary) return previous;
  const whole = !fold.windowed;
  const journalView = whole ? null : ledger.lookup(journal, size);
  const sessionId = fold.projection.sessionId ?? path.basename(journal, '.jsonl');
  const folder = path.dirname(journal);
  // Every subagent and compaction file of the session (issue 37), wherever its launch lies in the journal.
  const listed = ledger.sessionFiles(path.join(folder, sessionId, 'subagents'));
  const files = new Map<string, LedgerView | 'missing' | null>((listed ?? []).map((file) => [file, ledger.lookup(file)]));
  // The flat era's agent files beside the journal that name this session, on the tray or not (issue 37).
  const flat = ledger.flatFiles(folder, sessionId);
  for (const file of flat ?? []) if (!files.has(file)) files.set(file, ledger.lookup(file));
  // Each tray entry's own file: one of those, or the flat era's beside the sessions (then counted besides).
  const entryViews = summary.recent.map((entry) => {
    const nativeId = entry.nativeId;
    const agentId = nativeId === null ? null : (fold.projection.calls.get(nativeId)?.agentId ?? agentIdOf(nativeId));
    if (!agentId) return 'missing' as const;
    const nested = path.join(folder, sessionId, 'subagents', `agent-${agentId}.jsonl`);
    if (files.has(nested)) return files.get(nested)!;
    const found = childView(ledger, folder, sessionId, agentId);
    if (found.file !== null && found.file !== nested) files.set(found.file, found.view);
    return found.view;
  });
  const views = [...files.values()];
  // Other sessions' files in the folder that the fleet reads (rule U8 across a resumed session's journals).
  const peers = ledger.peers(folder, new Set([journal, ...files.keys()]));
  const listedKey = `${listed === null ? '-' : listed.length}/${flat === null ? '-' : flat.length}`;
  const signature = `${size}|${fold.projection.sequence}|${viewKey(journalView)}|${listedKey}|${peers.key}|${views.map(viewKey).join(',')}|${entryViews.map(viewKey).join(',')}`;
  if (previous && previous.signature === signature && previous.summary === summary) {
    previous.quick = `${size}|${fold.projection.sequence}|${ledger.version}`;
    return previous;
  }
  // A pass still reading moves its offset every chunk: while nothing else moved, the seat keeps its answer for a
  // while, so a pass over a long journal costs the page an update every few seconds, not one per megabyte.
  const shape = `${size}|${fold.projection.sequence}|${shapeKey(journalView)}|${listedKey}|${peers.key}|${views.map(shapeKey).join(',')}|${entryViews.map(shapeKey).join(',')}`;
  if (previous && previous.shape === shape && previous.summary === summary && now - previous.builtAt < USAGE_PARTIAL_REFRESH_MS) return previous;
  const passed = journalView !== null && journalView !== 'missing' ? journalView : null;
  const done = passed?.done === true;
  // Until the pass is done, the larger of the two lower bounds: the window's totals or the pass's so far.
  const source = whole || !passed || (!done && tokens(passed.fold.main) < tokens(fold.usage.main)) ? fold.usage : passed.fold;
  let childrenPartial = listed === null || flat === null;
  // Rule U8: the session's files together count each message once.
  const parts: SessionPart[] = [{ file: journal, fold: source }];
  for (const [file, view] of files) {
    if (view === 'missing') continue;
    if (view === null || !view.done) childrenPartial = true;
    if (view !== null) parts.push({ file, fold: view.fold });
  }
  ledger.share(folder, parts);
  const counted = countSessionOnce(parts, peers.parts);
  const children: Tally[] = counted.slice(1).map((part) => mergeTallies('estimated', [part.main, part.sidechain]));
  const recent: SubagentEntry[] = summary.recent.map((entry, index) => {
    const view = entryViews[index];
    if (view === 'missing' || view === null) return entry;
    return { ...entry, usage: subagentUsage(mergeTallies('estimated', [view.fold.main, view.fold.sidechain]), !view.done) };
  });
  const inline = source.sidechain.sum.input + source.sidechain.sum.output + source.sidechain.skipped > 0 ? [counted[0].sidechain] : [];
  const usage = seatUsage({
    own: counted[0].main,
    partial: !(whole || done),
    subagents: [...inline, ...children],
    subagentsPartial: childrenPartial,
    contextUsed: fold.usage.contextUsed,
    model: fold.usage.model,
    limits: seatLimits(fold.limit),
  });
  return { signature, shape, builtAt: now, quick: `${size}|${fold.projection.sequence}|${ledger.version}`, usage, summary, subagents: { ...summary, recent } };
}

/** An earlier subagent's native id names its agent (`agent-<id>`). */
function agentIdOf(nativeId: string): string | null {
  return nativeId.startsWith('agent-') ? nativeId.slice(6) : null;
}

/** The child's file: `<session>/subagents/agent-<id>.jsonl` (2.1.2+), else the flat `agent-<id>.jsonl` beside it. */
function childView(ledger: UsageLedger, folder: string, sessionId: string, agentId: string): { file: string | null; view: LedgerView | 'missing' | null } {
  const nestedFile = path.join(folder, sessionId, 'subagents', `agent-${agentId}.jsonl`);
  const nested = ledger.lookup(nestedFile);
  if (nested !== null && nested !== 'missing') return { file: nestedFile, view: nested };
  // Both places are looked up at once, so one pass settles which holds the file.
  const flatFile = path.join(folder, `agent-${agentId}.jsonl`);
  const flat = ledger.lookup(flatFile);
  if (flat !== null && flat !== 'missing') return { file: flatFile, view: flat };
  return { file: null, view: nested === 'missing' && flat === 'missing' ? 'missing' : null };
}

function tokens(tally: Tally): number {
  return tally.sum.input + tally.sum.output + tally.sum.cacheRead + tally.sum.cacheWrite;
}

function shapeKey(view: LedgerView | 'missing' | null): string {
  return view === null ? '-' : view === 'missing' ? 'x' : view.done ? 'done' : 'reading';
}

function viewKey(view: LedgerView | 'missing' | null): string {
  return view === null ? '-' : view === 'missing' ? 'x' : `${view.offset}:${view.done ? 1 : 0}`;
}
