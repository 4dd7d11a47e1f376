/**
 * The one text cap of the readers. Every cap is in UTF-8 bytes (see ./bounds): what a text costs in memory and on
 * the wire. A cut text ends in an ellipsis whose three bytes count towards the cap, and a character is never split.
 */

const ELLIPSIS = '…';
const ELLIPSIS_BYTES = 3;

/** `text` cut to at most `limitBytes` UTF-8 bytes, the ellipsis included, or `text` itself when it fits. */
export function capText(text: string, limitBytes: number): string {
  // No UTF-16 unit takes more than three UTF-8 bytes, so a short text needs no encoding.
  if (text.length * 3 <= limitBytes) return text;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= limitBytes) return text;
  let end = Math.max(0, limitBytes - ELLIPSIS_BYTES);
  // Step back over UTF-8 continuation bytes so the cut falls on a character boundary.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end -= 1;
  return `${bytes.subarray(0, end).toString('utf8')}${ELLIPSIS}`;
}

/** `text` with its white space folded to single spaces and trimmed, then capped: a one-line summary. */
export function oneLine(text: string, limitBytes: number): string {
  return capText(text.replace(/\s+/g, ' ').trim(), limitBytes);
}
