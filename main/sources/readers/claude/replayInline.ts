/**
 * Rule 13 of RULES.md: replay of a Claude Code 1.0.x subagent, whose conversation was written inline in the parent
 * journal as one block of `isSidechain: true` lines just before the call's result. The block is the one located by
 * the reducer (its root's content equals the call's prompt exactly); before each read the root is checked again,
 * and the block ends at the first line that is not part of that sidechain. Stores nothing.
 */
import type { ReplayResult } from '../port';
import { digestOf } from './parseLine';
import { REPLAY_REASONS } from './reasons';
import type { CallRecord } from './projectionState';
import { pagerSpec, readLinesBetween, windowRange, type ReplayTarget } from './replay';
import { entriesOfLine } from './replayEntries';
import { replayPage, type LinePosition, type Placed } from '../kit/pager';
import { parseObject, type Json } from '../kit/json';

/** What an inline replay needs: the parent journal, its session id, and a call with a located sidechain. */
export interface InlineTarget extends Omit<ReplayTarget, 'call'> {
  call: Pick<CallRecord, 'nativeId' | 'promptDigest'> & { sidechain: NonNullable<CallRecord['sidechain']> };
}

/** One page of an inline sidechain, or why it cannot be shown. */
export async function replayInline(target: InlineTarget, cursor?: string): Promise<ReplayResult> {
  return replayPage(pagerSpec(target), cursor, async (request) => {
    const { rootOffset, endOffset } = target.call.sidechain;
    const journal = target.parentJournal;
    // The root first: the journal may have been rewritten since the reducer saw it.
    const head = await readLinesBetween(journal, { lower: rootOffset, upper: Math.min(endOffset, rootOffset + request.maxBytes), maxBytes: request.maxBytes });
    const [root] = head.lines;
    if (!root || root.offset !== rootOffset || !isRootOf(parseObject(root.text), target)) return { status: 'refused', reason: REPLAY_REASONS.inlineChanged };

    const { source, lines } = await readLinesBetween(journal, windowRange(request, rootOffset, endOffset));
    const entries: Placed<LinePosition>[] = [];
    const toolNames = new Map<string, string>();
    for (const { offset, text } of lines) {
      const record = parseObject(text);
      if (!record) continue; // a bad line is skipped, never fatal
      if (offset !== rootOffset && !continuesSidechain(record)) break;
      if ('sessionId' in record && record.sessionId !== target.sessionId) return { status: 'refused', reason: REPLAY_REASONS.mismatch };
      entriesOfLine(record, toolNames).forEach((entry, block) => entries.push({ position: [offset, block], entry }));
    }
    return { status: 'read', entries, running: false, source };
  });
}

/** The located root: an inline sidechain root of this session whose content is still the call's prompt. */
function isRootOf(record: Json | null, target: InlineTarget): boolean {
  if (!record || record.type !== 'user' || record.isSidechain !== true || record.parentUuid !== null || 'agentId' in record) return false;
  if ('sessionId' in record && record.sessionId !== target.sessionId) return false;
  const message = typeof record.message === 'object' && record.message !== null ? (record.message as Json) : {};
  return typeof message.content === 'string' && digestOf(message.content) === target.call.promptDigest;
}

/** A line of the same block: a sidechain line that is not the root of another sidechain and names no agent file. */
function continuesSidechain(record: Json): boolean {
  return record.isSidechain === true && record.parentUuid !== null && !('agentId' in record);
}
