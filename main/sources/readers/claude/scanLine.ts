/**
 * A fast reader of the few facts Claude usage needs from one journal line, for the background pass: a structural
 * scan that jumps over strings (most of a line) and parses only the small `message.usage` object. It gives the same
 * facts as `JSON.parse` for well-formed lines (a test holds it over every fixture and a generated journal) and
 * returns null when the line is not well formed, so the caller falls back to the full parse. Pure.
 */

/** What usage reads from a line: top-level `type`, `isSidechain`, `requestId`, `timestamp`; `message.id`, `.model`, `.usage`. */
export interface UsageLineFacts {
  type: string | null;
  isSidechain: boolean;
  requestId: string | null;
  timestamp: string | null;
  messageId: string | null;
  model: string | null;
  /** The parsed `message.usage` value; undefined when the message has none. */
  usage: unknown;
}

const QUOTE = 34;
const BACKSLASH = 92;

/** The index of the quote that closes the string opening at `start`, or -1. */
function stringEnd(line: string, start: number): number {
  let at = line.indexOf('"', start + 1);
  while (at >= 0) {
    let slashes = 0;
    for (let back = at - 1; line.charCodeAt(back) === BACKSLASH; back -= 1) slashes += 1;
    if (slashes % 2 === 0) return at;
    at = line.indexOf('"', at + 1);
  }
  return -1;
}

function text(line: string, start: number, end: number): string {
  const raw = line.slice(start + 1, end);
  return raw.includes('\\') ? (JSON.parse(line.slice(start, end + 1)) as string) : raw;
}

function skipSpace(line: string, at: number): number {
  let index = at;
  while (index < line.length) {
    const code = line.charCodeAt(index);
    if (code !== 32 && code !== 9 && code !== 13 && code !== 10) break;
    index += 1;
  }
  return index;
}

/** The end (exclusive) of the object or array opening at `start`, or -1. */
function valueEnd(line: string, start: number): number {
  let depth = 0;
  for (let index = start; index < line.length; index += 1) {
    const code = line.charCodeAt(index);
    if (code === QUOTE) {
      index = stringEnd(line, index);
      if (index < 0) return -1;
    } else if (code === 123 || code === 91) depth += 1;
    else if (code === 125 || code === 93) {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

/** The end (exclusive) of any JSON value starting at `start`, or -1. */
function primitiveOrValueEnd(line: string, start: number): number {
  const code = line.charCodeAt(start);
  if (code === 123 || code === 91) return valueEnd(line, start);
  if (code === QUOTE) {
    const end = stringEnd(line, start);
    return end < 0 ? -1 : end + 1;
  }
  let stop = start;
  while (stop < line.length && ',}] \t\r\n'.indexOf(line[stop]) < 0) stop += 1;
  return stop > start ? stop : -1;
}

/** The facts of a line, or null when it is not a well-formed JSON object (the caller then parses it in full). */
export function scanUsageLine(line: string): UsageLineFacts | null {
  const facts: UsageLineFacts = { type: null, isSidechain: false, requestId: null, timestamp: null, messageId: null, model: null, usage: undefined };
  let index = skipSpace(line, 0);
  if (line.charCodeAt(index) !== 123) return null;
  let depth = 0;
  let messageDepth = -1;
  let key: string | null = null;
  /** The key a value at this depth belongs to: only depth 1 (top) and the message object matter. */
  let keyDepth = -1;
  try {
    while (index < line.length) {
      const code = line.charCodeAt(index);
      if (code === QUOTE) {
        const end = stringEnd(line, index);
        if (end < 0) return null;
        const after = skipSpace(line, end + 1);
        if (line.charCodeAt(after) === 58) {
          // A key: only keys of the top level and of the message object are kept.
          key = depth === 1 || depth === messageDepth ? text(line, index, end) : null;
          keyDepth = depth;
          index = after + 1;
          if (key === 'usage' && depth === messageDepth) {
            // The one value parsed: the usage object (or whatever stands there, for the fold to judge).
            const start = skipSpace(line, index);
            const close = primitiveOrValueEnd(line, start);
            if (close < 0) return null;
            facts.usage = JSON.parse(line.slice(start, close));
            index = close;
            key = null;
          }
          continue;
        }
        if (key !== null && keyDepth === depth) {
          const value = text(line, index, end);
          if (depth === 1) {
            if (key === 'type') facts.type = value;
            else if (key === 'requestId') facts.requestId = value;
            else if (key === 'timestamp') facts.timestamp = value;
          } else if (depth === messageDepth) {
            if (key === 'id') facts.messageId = value;
            else if (key === 'model') facts.model = value;
          }
        }
        key = null;
        index = end + 1;
        continue;
      }
      if (code === 123 || code === 91) {
        depth += 1;
        if (code === 123 && depth === 2 && key === 'message' && keyDepth === 1) messageDepth = 2;
        key = null;
      } else if (code === 125 || code === 93) {
        if (depth === messageDepth) messageDepth = -1;
        depth -= 1;
        if (depth === 0) return skipSpace(line, index + 1) === line.length ? facts : null;
      } else if (code === 116 && key === 'isSidechain' && depth === 1 && keyDepth === 1) {
        facts.isSidechain = line.startsWith('true', index);
      }
      index += 1;
    }
  } catch {
    return null;
  }
  return null;
}
