/**
 * The JSON guards every reader uses on what a harness wrote: parsed values are `unknown` until one of these says
 * what they are. A value of another shape is absent (null), never coerced, so drift degrades to "unknown".
 */

/** A parsed JSON object. */
export type Json = Record<string, unknown>;

/** True for a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as a JSON object, or null. */
export function asObject(value: unknown): Json | null {
  return isObject(value) ? value : null;
}

/** The value as a string (possibly empty), or null. */
export function asString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** The value as a non-empty string, or null. */
export function asText(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The value as a finite number, or null. */
export function asNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The parsed text, or undefined when it is not JSON (JSON itself never parses to undefined). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The parsed text as a JSON object, or null when it is not JSON or not an object. */
export function parseObject(text: string): Json | null {
  return asObject(parseJson(text));
}
