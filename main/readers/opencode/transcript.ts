/**
 * Pure replay rules: a child session's part rows → normalised replay entries, the 500-entry window, pages of 50
 * newest first, and cursors bound to (seat session, call id, child session).
 */
import type { ReplayEntry } from '../../../shared/schemas';
import { withTargets } from '../toolTarget';
import type { PartRow } from './taskCalls';
import { ENTRY_TEXT_BYTES, EXCERPT_BYTES, REPLAY_PAGE_ENTRIES, REPLAY_WINDOW_ENTRIES, SUMMARY_BYTES } from '../kit/bounds';
import { capText, oneLine } from '../kit/text';
import { asObject, type Json } from '../kit/json';


/** A replay entry with its place in the child's history (message time, message id, part id, index in the part). */
export interface PlacedEntry {
  place: [number, string, string, number];
  entry: ReplayEntry;
}

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
  const at = new Date(row.partTime).toISOString();
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

/** Pure: the child's window of entries, oldest first, at most `REPLAY_WINDOW_ENTRIES` (the newest are kept). */
export function normalizeChild(rows: readonly PartRow[], roles: ReadonlyMap<string, string | null>): PlacedEntry[] {
  const placed: PlacedEntry[] = [];
  for (const row of rows) {
    entriesOfPart(row, roles.get(row.messageId) ?? null).forEach((entry, index) => {
      placed.push({ place: [row.messageTime, row.messageId, row.partId, index], entry });
    });
  }
  return placed.slice(-REPLAY_WINDOW_ENTRIES);
}

/** What a cursor is bound to: a replay of one call's child, from one seat. */
export interface CursorBinding {
  session: string;
  callId: string;
  child: string;
}

const CURSOR_PREFIX = 'oc1.';

/** Pure: a cursor that continues before `place`, for this binding only. */
export function encodeCursor(binding: CursorBinding, place: PlacedEntry['place']): string {
  const body = JSON.stringify({ s: binding.session, c: binding.callId, k: binding.child, p: place });
  return CURSOR_PREFIX + Buffer.from(body, 'utf8').toString('base64url');
}

/** Pure: the place a cursor continues before, or the reason it is refused (malformed or issued for another child). */
export function decodeCursor(
  cursor: string,
  binding: CursorBinding,
): { ok: true; place: PlacedEntry['place'] } | { ok: false; reason: string } {
  const malformed = { ok: false as const, reason: 'The replay cursor is not one this reader issued.' };
  if (!cursor.startsWith(CURSOR_PREFIX)) return malformed;
  let body: Json | null;
  try {
    body = asObject(JSON.parse(Buffer.from(cursor.slice(CURSOR_PREFIX.length), 'base64url').toString('utf8')));
  } catch {
    return malformed;
  }
  const place = body?.p;
  if (
    !body ||
    !Array.isArray(place) ||
    place.length !== 4 ||
    typeof place[0] !== 'number' ||
    typeof place[1] !== 'string' ||
    typeof place[2] !== 'string' ||
    typeof place[3] !== 'number'
  ) {
    return malformed;
  }
  if (body.s !== binding.session || body.c !== binding.callId || body.k !== binding.child) {
    return { ok: false, reason: "The replay cursor belongs to another subagent's transcript." };
  }
  return { ok: true, place: place as PlacedEntry['place'] };
}

function before(a: PlacedEntry['place'], b: PlacedEntry['place']): boolean {
  for (let index = 0; index < 4; index += 1) {
    if (a[index] < b[index]) return true;
    if (a[index] > b[index]) return false;
  }
  return false;
}

/** Pure: one page (oldest first within the page) ending just before `place`, or the newest page without one. */
export function pageOf(
  window: readonly PlacedEntry[],
  binding: CursorBinding,
  place?: PlacedEntry['place'],
): { entries: ReplayEntry[]; nextCursor: string | null } {
  const eligible = place ? window.filter((item) => before(item.place, place)) : window;
  const page = eligible.slice(-REPLAY_PAGE_ENTRIES);
  const more = eligible.length > page.length;
  return {
    entries: page.map((item) => item.entry),
    nextCursor: more && page.length > 0 ? encodeCursor(binding, page[0].place) : null,
  };
}
