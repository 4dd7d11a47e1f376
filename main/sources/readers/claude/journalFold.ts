/**
 * What one Claude seat derives from its journal since the last cold read, and the one step that folds a line into
 * it: each line is parsed once, and the same parsed object feeds the subagent projection, the activity projection
 * and the messages between sessions. Pure; the reader hands `createFold` and `foldLine` to the shared `tailReduce`,
 * whose cold-read reset starts a fresh fold before the first line of a cold read (rule 8).
 */
import { keepRecent, mayHoldMessage, messageFactsOf, type SessionMessageFact } from '../../teams/sessionMessages';
import { createCensus, noteFields, noteInnerKind, noteKind, noteVersion, type RecordCensus } from '../kit/census';
import { isObject, type Json } from '../kit/json';
import { CLAUDE_KNOWN, lineKind } from './known';
import { eventOf, parseRecord } from './parseLine';
import type { ClaudeProjectionState } from './projectionState';
import { applyEvent, createProjectionState } from './reducer';
import { createClaudeUsage, foldClaudeUsage, type ClaudeUsageFold } from './usageFold';
import { createLimitFold, foldClaudeLimit, type LimitFold } from '../../../kit/usage/limits';

/** A seat's fold: reset as a whole by a cold read, so nothing derived from an earlier file survives it. */
export interface ClaudeFold {
  projection: ClaudeProjectionState;
  /** Messages to and from other sessions, the most recent kept (rule SM5); a new array whenever one is added. */
  messages: SessionMessageFact[];
  /** True when the cold read started inside the journal, over the cold-read bound (rules 8, 12). */
  windowed: boolean;
  /** Token usage of the read window (issue 26), folded from the same parsed lines. */
  usage: ClaudeUsageFold;
  /** The record census of the lines read (issue 29): unknown kinds and fields by name, the versions stated. */
  census: RecordCensus;
  /** A usage limit Claude Code said was reached (issue 41, rule L4), from the same parsed lines. */
  limit: LimitFold;
}

/** A fresh fold for a read whose window starts at byte `windowStart` (0 = the whole journal). */
export function createFold(windowStart = 0): ClaudeFold {
  return { projection: createProjectionState(), messages: [], windowed: windowStart > 0, usage: createClaudeUsage(), census: createCensus(), limit: createLimitFold() };
}

/** Folds one journal line (without its newline) that starts at byte `offset` of the journal. */
export function foldLine(fold: ClaudeFold, line: string, offset: number): void {
  const record = parseRecord(line);
  if (record === null) return;
  if (record !== 'invalid') countRecord(fold.census, record);
  const event = eventOf(record);
  if (event) applyEvent(fold.projection, event, offset);
  if (record !== 'invalid') foldClaudeUsage(fold.usage, record);
  if (record !== 'invalid') foldClaudeLimit(fold.limit, record);
  if (record === 'invalid' || !mayHoldMessage(line)) return;
  const facts = messageFactsOf(record);
  if (facts.length > 0) fold.messages = keepRecent([...fold.messages, ...facts]);
}

/** The census of one parsed line: its version, its kind, its unknown top-level fields and content block kinds. */
function countRecord(census: RecordCensus, record: Json): void {
  noteVersion(census, record.version);
  noteKind(census, CLAUDE_KNOWN, lineKind(record.type));
  noteFields(census, CLAUDE_KNOWN, record);
  const message = record.message;
  if (!isObject(message) || !Array.isArray(message.content)) return;
  for (const block of message.content) {
    if (isObject(block) && typeof block.type === 'string') noteInnerKind(census, CLAUDE_KNOWN, `block:${block.type}`);
  }
}
