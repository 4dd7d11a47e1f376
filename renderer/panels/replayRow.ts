/**
 * One replayed line as a row that never changes after it is built: a tool call or result folds to one line with
 * its tool name and target (expandable); a long text folds to its first lines (expandable). Expansion lives in the
 * row, so it survives every refresh of the replay around it.
 */
import type { ReplayEntry } from '../../shared/schemas';
import { clockTime, element } from './dom';

/** Characters of a text shown before it is folded. */
export const FOLD_CHARS = 480;
/** Lines of a text shown before it is folded. */
export const FOLD_LINES = 8;
/** Characters of a tool row's one-line summary. */
const SUMMARY_CHARS = 96;

/** Whether a text is long enough to fold. */
export function isLong(text: string): boolean {
  return text.length > FOLD_CHARS || text.split('\n').length > FOLD_LINES;
}

/** The folded form of a long text: its first lines, cut to the fold size. */
export function foldedText(text: string): string {
  const head = text.split('\n').slice(0, FOLD_LINES).join('\n');
  return `${head.length > FOLD_CHARS ? head.slice(0, FOLD_CHARS) : head}…`;
}

/** The one-line summary of a tool row: the first line of its text, cut short. */
export function toolSummary(text: string): string {
  const first = text.split('\n', 1)[0].trim();
  return first.length > SUMMARY_CHARS ? `${first.slice(0, SUMMARY_CHARS - 1)}…` : first;
}

function timeOf(entry: ReplayEntry): HTMLElement | null {
  return entry.at ? element('time', { class: 'line-time', datetime: entry.at }, clockTime(entry.at)) : null;
}

/** Builds the row of one line, keyed for reconciliation. */
export function replayRow(key: number, entry: ReplayEntry): HTMLElement {
  const row = element('div', { class: `line line-${entry.role}`, 'data-line-role': entry.role, 'data-line-key': String(key) });
  if (entry.role === 'tool') {
    const body = element('div', { class: 'line-body', 'data-line-body': true }, entry.text);
    body.hidden = true;
    const toggle = element(
      'button',
      { type: 'button', class: 'line-toggle', 'aria-expanded': 'false', 'data-line-toggle': true },
      element('b', {}, entry.tool ?? 'tool'),
      ` ${toolSummary(entry.text)}`,
    );
    toggle.addEventListener('click', () => {
      body.hidden = !body.hidden;
      toggle.setAttribute('aria-expanded', body.hidden ? 'false' : 'true');
    });
    row.append(element('div', { class: 'line-head' }, toggle, timeOf(entry)), body);
    return row;
  }
  const head = element('div', { class: 'line-head' }, element('b', {}, entry.role), timeOf(entry));
  if (!isLong(entry.text)) {
    row.append(head, element('div', { class: 'line-body', 'data-line-body': true }, entry.text));
    return row;
  }
  const body = element('div', { class: 'line-body', 'data-line-body': true, 'data-folded': true }, foldedText(entry.text));
  const more = element('button', { type: 'button', class: 'line-more', 'aria-expanded': 'false', 'data-line-more': true }, 'Show all');
  more.addEventListener('click', () => {
    const folded = body.hasAttribute('data-folded');
    body.textContent = folded ? entry.text : foldedText(entry.text);
    body.toggleAttribute('data-folded', !folded);
    more.setAttribute('aria-expanded', folded ? 'true' : 'false');
    more.textContent = folded ? 'Fold' : 'Show all';
  });
  row.append(head, body, more);
  return row;
}
