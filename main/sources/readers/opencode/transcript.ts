/**
 * Pure replay rules: a child session's part rows → normalised replay entries, each placed by its row. Windows, pages
 * and cursors are the kit's pager (../kit/pager).
 */
import { safeIso } from '../kit/time';
import { z } from 'zod';
import type { ReplayEntry } from '../../../../shared/schemas';
import { withTargets } from '../toolTarget';
import type { PartRow } from './taskCalls';
import { ENTRY_TEXT_BYTES, EXCERPT_BYTES, OPENCODE_ID_CHARS, SUMMARY_BYTES } from '../kit/bounds';
import { capText, oneLine } from '../kit/text';
import { asObject } from '../kit/json';
import type { Placed } from '../kit/pager';


function summary(text: string): string {
  return oneLine(text, SUMMARY_BYTES);
}

/** Pure: a one-line summary of a tool's input — the field that names what it acts on, else its short fields. */
export function summarizeInput(tool: string, input: unknown): string {
  const fields = asObject(input) ?? {};
  const pick = (...names: string[]) => names.map((name) => fields[name]).find((value) => typeof value === 'string');
  if (tool === 'task') {
    const kind = pick('subagent_type');
    const description = pick('description');
    return summary([kind, description].filter(Boolean).join(': '));
  }
  const main = pick('command', 'pattern', 'filePath', 'file_path', 'path', 'url', 'query', 'description');
  if (typeof main === 'string') return summary(main);
  const short = Object.entries(fields)
    .filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value))
    .map(([name, value]) => `${name}=${String(value)}`);
  return summary(short.join(' '));
}

/** Pure: the entries one part contributes (none for bookkeeping parts such as step-start or reasoning). */
export function entriesOfPart(row: PartRow, role: string | null): ReplayEntry[] {
  const data = asObject(row.data);
  if (!data) return [];
  const at = safeIso(row.partTime);
  switch (data.type) {
    case 'text': {
      if (typeof data.text !== 'string' || data.text.trim() === '' || data.ignored === true) return [];
      const speaker = data.synthetic === true ? 'note' : role === 'assistant' ? 'assistant' : 'user';
      return [{ at, role: speaker, text: capText(data.text, ENTRY_TEXT_BYTES) }];
    }
    case 'subtask':
      return [{ at, role: 'note', text: capText(`subtask ${String(data.agent ?? '')}: ${String(data.description ?? '')}`, ENTRY_TEXT_BYTES) }];
    case 'compaction':
      return [{ at, role: 'note', text: 'Earlier conversation compacted.' }];
    case 'tool': {
      const tool = typeof data.tool === 'string' ? data.tool : 'tool';
      const state = asObject(data.state) ?? {};
      const call = withTargets({ at, role: 'tool', tool, text: capText(summarizeInput(tool, state.input), ENTRY_TEXT_BYTES) }, state.input);
      if (state.status === 'completed' && typeof state.output === 'string') {
        return [call, { at, role: 'tool', tool, text: capText(state.output.trim(), EXCERPT_BYTES) }];
      }
      if (state.status === 'error') {
        return [call, { at, role: 'tool', tool, text: capText(`error: ${String(state.error ?? 'failed')}`, EXCERPT_BYTES) }];
      }
      return [call];
    }
    default:
      return [];
  }
}

/**
 * A plain OpenCode id (`msg_…`, `prt_…`, provider call ids): what a position may carry and what a replay's call id
 * must be; a row with another id is skipped, a call id of another shape is refused before any query.
 */
export const PLAIN_ID = z.string().regex(new RegExp(`^[A-Za-z0-9_.:-]{1,${OPENCODE_ID_CHARS}}$`));

/** The place of an entry in a child's history: message time, message id, part id, index in the part. */
export const PART_POSITION = z.tuple([z.number().int().max(Number.MAX_SAFE_INTEGER).min(Number.MIN_SAFE_INTEGER), PLAIN_ID, PLAIN_ID, z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)]);

/** A child transcript position (see PART_POSITION). */
export type PartPosition = z.infer<typeof PART_POSITION>;

/**
 * Pure: a child's entries oldest first, each placed by its row (rows come ordered by message time, message id and
 * part id). A row whose ids are not plain tokens is skipped: its place could not be carried in a cursor.
 */
export function normalizeChild(rows: readonly PartRow[], roles: ReadonlyMap<string, string | null>): Placed<PartPosition>[] {
  const placed: Placed<PartPosition>[] = [];
  for (const row of rows) {
    if (!Number.isSafeInteger(row.messageTime) || !PLAIN_ID.safeParse(row.messageId).success || !PLAIN_ID.safeParse(row.partId).success) continue;
    entriesOfPart(row, roles.get(row.messageId) ?? null).forEach((entry, index) => {
      placed.push({ position: [row.messageTime, row.messageId, row.partId, index], entry });
    });
  }
  return placed;
}
