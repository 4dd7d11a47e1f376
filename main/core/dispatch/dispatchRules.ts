/**
 * Pure rules of dispatch (issue 40):
 *
 * 1. An item's slug is its title lower-cased, every run outside [a-z0-9] one `-`, trimmed, at most 48 characters; an
 *    empty slug falls back to the id's, then to `item`. Its branch is `pf/<slug>`: always a valid git ref name.
 * 2. The prompt is the item's title, its link, and for a Markdown item its body (the text after the front matter), the
 *    body at most 8 KiB of UTF-8, cut after a whole line with a note saying where the rest is.
 * 3. Typed into a running agent's terminal, the prompt is one line (line breaks become spaces) of at most 4 KiB, the
 *    terminal's own bound, cut with a note.
 * 4. Item text is only ever one argument of an argument vector or text typed into a pane; it never reaches a shell.
 */
import { SEND_MAX_BYTES } from '../../../shared/terminal';

/** Most bytes of a Markdown body a prompt carries (rule 2). */
export const PROMPT_BODY_MAX_BYTES = 8 * 1024;
/** Longest slug (rule 1). */
const SLUG_MAX = 48;
/** The branch prefix of a dispatch's worktree (rule 1). */
const BRANCH_PREFIX = 'pf/';

function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
}

/** The item's slug (rule 1). */
export function itemSlug(item: { id: string; title: string }): string {
  return slugOf(item.title) || slugOf(item.id) || 'item';
}

/** The branch of an item's worktree (rule 1). */
export function itemBranch(item: { id: string; title: string }): string {
  return `${BRANCH_PREFIX}${itemSlug(item)}`;
}

/** The text of a Markdown file after its front matter, trimmed. */
export function markdownBody(text: string): string {
  const source = text.replace(/^\uFEFF/, '');
  const match = /^---[ \t]*\r?\n[\s\S]*?^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m.exec(source);
  return (match && match.index === 0 ? source.slice(match[0].length) : source).trim();
}

/** Cuts `text` to at most `maxBytes` of UTF-8 after a whole line; `cut` says whether anything was left out. */
export function cutAtLine(text: string, maxBytes: number): { text: string; cut: boolean } {
  const encoder = new TextEncoder();
  if (encoder.encode(text).length <= maxBytes) return { text, cut: false };
  const lines = text.split('\n');
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    const size = encoder.encode(line).length + 1;
    if (bytes + size > maxBytes) break;
    kept.push(line);
    bytes += size;
  }
  return { text: kept.join('\n').trimEnd(), cut: true };
}

/** The prompt of an item (rule 2); `body` is a Markdown item's full body, `file` where it lives. */
export function itemPrompt(item: { title: string; url: string }, body?: { text: string; file: string }): string {
  const parts = [item.title, item.url];
  if (body && body.text !== '') {
    const cut = cutAtLine(body.text, PROMPT_BODY_MAX_BYTES);
    parts.push('', cut.text);
    if (cut.cut) parts.push('', `[The item is longer: its body was cut at 8 KiB. Read the rest in ${body.file}.]`);
  }
  return parts.join('\n');
}

/** The sentence added to a prompt typed into a running agent when the item has its own worktree. */
export function worktreeNote(worktree: string, branch: string): string {
  return `Work in the git worktree ${worktree} (branch ${branch}).`;
}

/** The prompt as one line for a terminal (rule 3): line breaks become spaces, at most 4 KiB, cut with a note. */
export function oneLinePrompt(prompt: string): string {
  const line = Array.from(prompt, (char) => (isControl(char) ? ' ' : char)).join('').replace(/ {2,}/g, ' ').trim();
  const encoder = new TextEncoder();
  if (encoder.encode(line).length <= SEND_MAX_BYTES) return line;
  const note = ' […cut: the item is longer]';
  const room = SEND_MAX_BYTES - encoder.encode(note).length;
  let kept = '';
  let bytes = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    if (bytes + size > room) break;
    kept += char;
    bytes += size;
  }
  return kept.trimEnd() + note;
}

/** C0, DEL and C1 controls: what a terminal send refuses. */
function isControl(char: string): boolean {
  const code = char.codePointAt(0)!;
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}
