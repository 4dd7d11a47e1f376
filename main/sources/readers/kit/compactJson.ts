/**
 * Compact JSON for one-line summaries, with bounded work (issue 36): nesting past COMPACT_DEPTH is written `…`, and
 * the walk stops once `maxChars` are written, so a tool input nested 10,000 deep or megabytes wide costs little and
 * never overflows the stack.
 */

/** Deepest nesting written out; deeper values are `…`. */
export const COMPACT_DEPTH = 16;

/** JSON text of `value`, at most about `maxChars` characters (the caller cuts it to its exact bound). */
export function compactJson(value: unknown, maxChars: number): string {
  let out = '';
  const write = (text: string) => {
    out += text;
    return out.length < maxChars;
  };
  const walk = (node: unknown, depth: number): boolean => {
    if (node === null || typeof node !== 'object') return write(JSON.stringify(node) ?? 'null');
    if (depth >= COMPACT_DEPTH) return write('…');
    const array = Array.isArray(node);
    if (!write(array ? '[' : '{')) return false;
    let first = true;
    for (const [key, item] of array ? node.entries() : Object.entries(node)) {
      if (!first && !write(',')) return false;
      first = false;
      if (!array && !write(`${JSON.stringify(String(key).slice(0, maxChars))}:`)) return false;
      if (!walk(item, depth + 1)) return false;
    }
    return write(array ? ']' : '}');
  };
  walk(value, 0);
  return out;
}
