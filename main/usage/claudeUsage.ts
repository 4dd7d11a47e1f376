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
 */
import { asText, isObject, type Json } from '../readers/kit/json';
import { USAGE_RECENT_KEYS } from './bounds';
import { addFigures, createTally, optionalFigure, tokenFigure, type Figures, type Tally } from './tally';

/** What one journal's usage lines gave: its own tally, its inline sidechains' tally, the last context and model. */
export interface ClaudeUsageFold {
  main: Tally;
  sidechain: Tally;
  /** Recently counted messages by `message.id:requestId`, oldest first, with the figures counted (rule U1). */
  recent: Map<string, Figures>;
  /** Tokens in context of the last main-chain assistant message (rule U2), null before one. */
  contextUsed: number | null;
  model: string | null;
}

/** A fresh fold. */
export function createClaudeUsage(): ClaudeUsageFold {
  return { main: createTally('estimated'), sidechain: createTally('estimated'), recent: new Map(), contextUsed: null, model: null };
}

/** The figures of a `message.usage`, or null when malformed (rule U5). */
export function claudeFigures(usage: unknown): Figures | null {
  if (!isObject(usage)) return null;
  const input = tokenFigure(usage.input_tokens);
  const output = tokenFigure(usage.output_tokens);
  const cacheWrite = optionalFigure(usage.cache_creation_input_tokens);
  const cacheRead = optionalFigure(usage.cache_read_input_tokens);
  if (input === null || output === null || cacheWrite === null || cacheRead === null) return null;
  return { input, output, cacheRead, cacheWrite, reasoning: null };
}

/** Folds one parsed journal line; lines that are not assistant messages are ignored. */
export function foldClaudeUsage(fold: ClaudeUsageFold, record: Json): void {
  if (record.type !== 'assistant' || !isObject(record.message)) return;
  const message = record.message;
  const model = asText(message.model);
  if (model === '<synthetic>') return; // rule U4
  const sidechain = record.isSidechain === true;
  const tally = sidechain ? fold.sidechain : fold.main;
  const figures = claudeFigures(message.usage);
  if (figures === null) {
    // A malformed message is skipped once, however many block lines repeat it.
    if (remember(fold, keyOf(record), ZERO)) tally.skipped += 1;
    return;
  }
  const at = typeof record.timestamp === 'string' ? Date.parse(record.timestamp) : Number.NaN;
  const atMs = Number.isNaN(at) ? null : at;
  const added = countOnce(fold, record, figures);
  if (added) addFigures(tally, added, atMs, model);
  if (!sidechain) {
    fold.contextUsed = figures.input + figures.cacheWrite + figures.cacheRead;
    if (model) fold.model = model;
  }
}

function keyOf(record: Json): string | null {
  const id = isObject(record.message) ? asText(record.message.id) : null;
  return id === null ? null : `${id}:${asText(record.requestId) ?? ''}`;
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
function countOnce(fold: ClaudeUsageFold, record: Json, figures: Figures): Figures | null {
  const key = keyOf(record);
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
  if (grew.input + grew.output + grew.cacheRead + grew.cacheWrite === 0) return null;
  fold.recent.set(key, {
    input: Math.max(figures.input, counted.input),
    output: Math.max(figures.output, counted.output),
    cacheRead: Math.max(figures.cacheRead, counted.cacheRead),
    cacheWrite: Math.max(figures.cacheWrite, counted.cacheWrite),
    reasoning: null,
  });
  return grew;
}
