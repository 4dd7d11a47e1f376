/** How a client's value appears in an error message: never in full, at most 80 characters of it. No dependencies. */

/** Most characters of a client's value an error message repeats. */
export const SHOWN_MAX_LENGTH = 80;

/** A client's value as an error may show it: at most 80 characters, cut with an ellipsis. */
export function shownValue(value: string): string {
  return value.length > SHOWN_MAX_LENGTH ? `${value.slice(0, SHOWN_MAX_LENGTH - 1)}…` : value;
}
