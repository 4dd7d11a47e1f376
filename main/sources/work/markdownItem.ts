/**
 * Pure parsing of one Markdown work item: YAML front matter with `labels:` (a list or a comma string), optional
 * `title:` (else the first heading, else the file name) and `status:`.
 */
import { parse as parseYaml } from 'yaml';
import type { WorkItem } from '../../../shared/schemas';

/** An item, or a sentence saying why the file was skipped. */
export type MarkdownParse = { ok: true; item: WorkItem } | { ok: false; problem: string };

/** The opening fence, then everything up to a closing `---` or `...` line. */
const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m;

/**
 * Parses one file's text. A file without front matter is an item with no labels: it matches no station but
 * still lists. `truncated` says the text is only the file's head, so an unclosed fence may just be cut off.
 */
export function parseMarkdownItem(fileName: string, text: string, url: string, truncated = false): MarkdownParse {
  const source = text.replace(/^\uFEFF/, '');
  const fallbackTitle = fileName.replace(/\.md$/i, '');
  if (!/^---[ \t]*\r?\n/.test(source)) {
    return { ok: true, item: { source: 'markdown', id: fileName, title: firstHeading(source) ?? fallbackTitle, labels: [], status: null, url } };
  }
  const match = FRONT_MATTER.exec(source);
  if (!match || match.index !== 0) {
    const where = truncated ? 'within the first 64 KiB' : 'with a closing --- line';
    return { ok: false, problem: `Markdown: ${fileName}: the front matter is not closed ${where}; the file is skipped.` };
  }
  let data: unknown;
  try {
    data = parseYaml(match[1]);
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { ok: false, problem: `Markdown: ${fileName}: the front matter is not valid YAML (${detail}); the file is skipped.` };
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, problem: `Markdown: ${fileName}: the front matter must be a mapping of keys; the file is skipped.` };
  }
  const fields = data as Record<string, unknown>;
  const labels = parseLabels(fields.labels);
  if (labels === null) {
    return { ok: false, problem: `Markdown: ${fileName}: labels must be a list or a comma-separated string; the file is skipped.` };
  }
  const title = scalarText(fields.title) ?? firstHeading(source.slice(match[0].length)) ?? fallbackTitle;
  return { ok: true, item: { source: 'markdown', id: fileName, title, labels, status: scalarText(fields.status), url } };
}

/** Labels from a YAML list or a comma string; null when the value has another shape. */
export function parseLabels(value: unknown): string[] | null {
  if (value === undefined || value === null) return [];
  const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value];
  const labels: string[] = [];
  for (const part of parts) {
    if (typeof part !== 'string' && typeof part !== 'number' && typeof part !== 'boolean') return null;
    const label = String(part).trim();
    if (label !== '' && !labels.includes(label)) labels.push(label);
  }
  return labels;
}

/** The text of the first ATX heading (`# Title`, any level) outside code fences, or null. */
export function firstHeading(body: string): string | null {
  let inFence = false;
  for (const line of body.split(/\r?\n/)) {
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const heading = /^\s{0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (heading && heading[1].trim() !== '') return heading[1].trim();
  }
  return null;
}

function scalarText(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}
