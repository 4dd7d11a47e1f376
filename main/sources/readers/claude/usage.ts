/**
 * A Claude seat's usage (issue 26): context and model from the read window (rule U2), totals from the window when
 * it starts at byte 0, else from the background pass (`partial` until it reaches the end), and each listed
 * subagent's own totals from its file through the same pass. No I/O here: the ledger answers from memory.
 */
import path from 'node:path';
import type { SubagentEntry, SubagentSummary } from '../../../../shared/schemas';
import type { UsageLedger, LedgerView } from './ledger';
import { USAGE_PARTIAL_REFRESH_MS } from '../../../core/usage/bounds';
import { seatUsage, subagentUsage } from '../../../core/usage/seatUsage';
import { mergeTallies, type Tally } from '../../../core/usage/tally';
import { seatLimits } from '../../../core/usage/limits';
import type { ClaudeFold } from './journalFold';

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
  const childViews = summary.recent.map((entry) => {
    const nativeId = entry.nativeId;
    const agentId = nativeId === null ? null : (fold.projection.calls.get(nativeId)?.agentId ?? agentIdOf(nativeId));
    return agentId ? childView(ledger, path.dirname(journal), sessionId, agentId) : 'missing';
  });
  const signature = `${size}|${fold.projection.sequence}|${viewKey(journalView)}|${childViews.map(viewKey).join(',')}`;
  if (previous && previous.signature === signature && previous.summary === summary) {
    previous.quick = `${size}|${fold.projection.sequence}|${ledger.version}`;
    return previous;
  }
  // A pass still reading moves its offset every chunk: while nothing else moved, the seat keeps its answer for a
  // while, so a pass over a long journal costs the page an update every few seconds, not one per megabyte.
  const shape = `${size}|${fold.projection.sequence}|${shapeKey(journalView)}|${childViews.map(shapeKey).join(',')}`;
  if (previous && previous.shape === shape && previous.summary === summary && now - previous.builtAt < USAGE_PARTIAL_REFRESH_MS) return previous;
  const passed = journalView !== null && journalView !== 'missing' ? journalView : null;
  const done = passed?.done === true;
  // Until the pass is done, the larger of the two lower bounds: the window's totals or the pass's so far.
  const source = whole || !passed || (!done && tokens(passed.fold.main) < tokens(fold.usage.main)) ? fold.usage : passed.fold;
  const children: Tally[] = [];
  let childrenPartial = false;
  const recent: SubagentEntry[] = summary.recent.map((entry, index) => {
    const view = childViews[index];
    if (view === 'missing') return entry;
    if (view === null) {
      childrenPartial = true;
      return entry;
    }
    const tally = mergeTallies('estimated', [view.fold.main, view.fold.sidechain]);
    children.push(tally);
    if (!view.done) childrenPartial = true;
    return { ...entry, usage: subagentUsage(tally, !view.done) };
  });
  const inline = source.sidechain.sum.input + source.sidechain.sum.output + source.sidechain.skipped > 0 ? [source.sidechain] : [];
  const usage = seatUsage({
    own: source.main,
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
function childView(ledger: UsageLedger, folder: string, sessionId: string, agentId: string): LedgerView | 'missing' | null {
  const nested = ledger.lookup(path.join(folder, sessionId, 'subagents', `agent-${agentId}.jsonl`));
  if (nested !== null && nested !== 'missing') return nested;
  // Both places are looked up at once, so one pass settles which holds the file.
  const flat = ledger.lookup(path.join(folder, `agent-${agentId}.jsonl`));
  return nested === 'missing' ? flat : flat !== null && flat !== 'missing' ? flat : null;
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
