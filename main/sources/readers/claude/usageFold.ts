/**
 * Claude Code usage, folded from the same parsed journal lines as subagents and activity (issue 26). Pure.
 *
 * U1. An assistant line's `message.usage` counts once per message: Claude Code writes one line per content block,
 *     each repeating the usage under the same `message.id` and `requestId`. A repeat adds only what grew (a later
 *     block line may carry the final output count), so a message is never counted twice.
 * U2. Context in use = input + cache creation + cache read of the last main-chain assistant message.
 * U3. Sidechain lines (`isSidechain: true`) count toward the subagent, never the parent's own totals or context.
 * U4. `<synthetic>` messages (written locally, no model call) are not usage.
 * U5. Missing, negative, non-numeric or absurd (> 1e12) `input_tokens`/`output_tokens`, or a bad cache figure,
 *     skip the message and count it in `skipped`; absent cache figures count 0 (older builds write none).
 * U6. `cache_creation.ephemeral_1h_input_tokens` is the part of the cache writes kept for one hour, priced at the
 *     1-hour rate (2× input); the rest of `cache_creation_input_tokens` at the 5-minute rate (1.25× input).
 * U8. A message repeated in two files of one session (main journal, subagent, compaction or flat agent file) counts
 *     once for the session: each file remembers what it counted per message (`copies`), and the session keeps the
 *     copy with the most tokens, the first file by path on a tie (sessionDedup.ts).
 */
import { isObject, type Json } from '../kit/json';
import { USAGE_TOKENS_MAX } from '../../../../shared/usage';
import type { UsageLineFacts } from './scanLine';
import { USAGE_FILE_KEYS, USAGE_RECENT_KEYS } from '../../../kit/usage/bounds';
import { addFigures, createTally, optionalFigure, tokenFigure, type Figures, type Tally } from '../../../kit/usage/tally';
import { addMinute } from '../../../kit/usage/tally';
import { MessageCopies } from './messageCopies';

/** What one journal's usage lines gave: its own tally, its inline sidechains' tally, the last context and model. */
export interface ClaudeUsageFold {
  main: Tally;
  sidechain: Tally;
  /** Recently counted messages by `message.id:requestId`, oldest first, with the figures counted (rule U1). */
  recent: Map<string, Figures>;
  /** Tokens in context of the last main-chain assistant message (rule U2), null before one. */
  contextUsed: number | null;
  model: string | null;
  /**
   * What this file counted per message (rule U8), by a hash of `message.id:requestId`, at most USAGE_FILE_KEYS
   * (further messages are counted but not remembered).
   */
  copies: MessageCopies;
}


/** A fresh fold. */
export function createClaudeUsage(): ClaudeUsageFold {
  return { main: createTally('estimated'), sidechain: createTally('estimated'), recent: new Map(), contextUsed: null, model: null, copies: new MessageCopies() };
}

/** The figures of a `message.usage`, or null when malformed (rule U5). */
export function claudeFigures(usage: unknown): Figures | null {
  if (!isObject(usage)) return null;
  const input = tokenFigure(usage.input_tokens);
  const output = tokenFigure(usage.output_tokens);
  const cacheWrite = optionalFigure(usage.cache_creation_input_tokens);
  const cacheRead = optionalFigure(usage.cache_read_input_tokens);
  if (input === null || output === null || cacheWrite === null || cacheRead === null) return null;
  // Rule U6: the 1-hour part of the cache writes, when the record splits them (never more than the writes).
  const split = isObject(usage.cache_creation) ? optionalFigure(usage.cache_creation.ephemeral_1h_input_tokens) : 0;
  if (split === null) return null;
  const figures: Figures = { input, output, cacheRead, cacheWrite, reasoning: null };
  if (split > 0) figures.cacheWrite1h = Math.min(split, cacheWrite);
  return figures;
}

/** The facts usage reads from a parsed line (the same the background pass scans for without a full parse). */
export function usageFacts(record: Json): UsageLineFacts {
  const message = isObject(record.message) ? record.message : null;
  return {
    type: typeof record.type === 'string' ? record.type : null,
    isSidechain: record.isSidechain === true,
    requestId: typeof record.requestId === 'string' ? record.requestId : null,
    timestamp: typeof record.timestamp === 'string' ? record.timestamp : null,
    messageId: message && typeof message.id === 'string' ? message.id : null,
    model: message && typeof message.model === 'string' ? message.model : null,
    usage: message ? message.usage : undefined,
  };
}

/** Folds one parsed journal line; lines that are not assistant messages are ignored. */
export function foldClaudeUsage(fold: ClaudeUsageFold, record: Json): void {
  if (record.type === 'assistant' && isObject(record.message)) foldUsageFacts(fold, usageFacts(record));
}

/** Folds the usage facts of one line (from a parse or the background pass's scan). */
export function foldUsageFacts(fold: ClaudeUsageFold, facts: UsageLineFacts): void {
  if (facts.type !== 'assistant') return;
  const model = facts.model === '' ? null : facts.model;
  if (model === '<synthetic>') return; // rule U4
  const tally = facts.isSidechain ? fold.sidechain : fold.main;
  const key = facts.messageId ? `${facts.messageId}:${facts.requestId ?? ''}` : null;
  const figures = claudeFigures(facts.usage);
  if (figures === null) {
    // A malformed message is skipped once, however many block lines repeat it.
    if (remember(fold, key, ZERO)) tally.skipped += 1;
    return;
  }
  // Checked where summed: a context past the token bound makes the record absurd, skipped for totals and context.
  if (figures.input + figures.cacheWrite + figures.cacheRead > USAGE_TOKENS_MAX) {
    if (remember(fold, key, ZERO)) tally.skipped += 1;
    return;
  }
  const at = facts.timestamp === null ? Number.NaN : Date.parse(facts.timestamp);
  const first = key === null || !fold.recent.has(key);
  const added = countOnce(fold, key, figures);
  // A record skipped for totals (its sum would pass the bound) never feeds the context, nor the 5-hour blocks.
  if (added && !addFigures(tally, added, Number.isNaN(at) ? null : at, model)) return;
  if (added && key !== null) rememberCopy(fold, key, added, Number.isNaN(at) ? null : at, model, facts.isSidechain);
  if (added) addMinute(tally, added, Number.isNaN(at) ? null : at, model, first); // issue 41: the 5-hour blocks
  if (!facts.isSidechain) {
    fold.contextUsed = figures.input + figures.cacheWrite + figures.cacheRead;
    if (model) fold.model = model;
  }
}

/** Rule U8: adds what this line counted to the file's copy of the message. */
function rememberCopy(fold: ClaudeUsageFold, key: string, added: Figures, at: number | null, model: string | null, side: boolean): void {
  const hash = keyHash(key);
  if (fold.copies.has(hash)) fold.copies.add(hash, added);
  else if (fold.copies.size < USAGE_FILE_KEYS) fold.copies.set(hash, { figures: added, at, model, side });
}

/** A message key's 53-bit hash (two FNV-1a-like passes), a number: short enough to keep every message of a file. */
function keyHash(key: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ key.length;
  for (let index = 0; index < key.length; index += 1) {
    const code = key.charCodeAt(index);
    a = Math.imul(a ^ code, 0x01000193) >>> 0;
    b = Math.imul(b ^ code, 0x5bd1e995) >>> 0;
    b ^= b >>> 13;
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) >>> 11);
}

const ZERO: Figures = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: null };

/** Remembers a message key with the figures counted for it; false when it was known already (or has no key). */
function remember(fold: ClaudeUsageFold, key: string | null, figures: Figures): boolean {
  if (key === null) return true;
  if (fold.recent.has(key)) return false;
  fold.recent.set(key, figures);
  if (fold.recent.size > USAGE_RECENT_KEYS) fold.recent.delete(fold.recent.keys().next().value as string);
  return true;
}

/** Rule U1: the figures to add for this line (all of them the first time, what grew on a repeat), or null. */
function countOnce(fold: ClaudeUsageFold, key: string | null, figures: Figures): Figures | null {
  if (key === null) return figures;
  const counted = fold.recent.get(key);
  if (!counted) {
    remember(fold, key, figures);
    return figures;
  }
  const grew: Figures = {
    input: Math.max(0, figures.input - counted.input),
    output: Math.max(0, figures.output - counted.output),
    cacheRead: Math.max(0, figures.cacheRead - counted.cacheRead),
    cacheWrite: Math.max(0, figures.cacheWrite - counted.cacheWrite),
    reasoning: null,
  };
  const hour = Math.max(0, (figures.cacheWrite1h ?? 0) - (counted.cacheWrite1h ?? 0));
  if (hour > 0) grew.cacheWrite1h = Math.min(hour, grew.cacheWrite);
  if (grew.input + grew.output + grew.cacheRead + grew.cacheWrite === 0) return null;
  fold.recent.set(key, {
    input: Math.max(figures.input, counted.input),
    output: Math.max(figures.output, counted.output),
    cacheRead: Math.max(figures.cacheRead, counted.cacheRead),
    cacheWrite: Math.max(figures.cacheWrite, counted.cacheWrite),
    reasoning: null,
    cacheWrite1h: Math.max(figures.cacheWrite1h ?? 0, counted.cacheWrite1h ?? 0),
  });
  return grew;
}
