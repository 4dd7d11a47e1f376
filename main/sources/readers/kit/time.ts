/**
 * Record times checked where they are read (issue 36): a time outside a plausible range is unknown, never a date in
 * 1970 or 9999 and never "Invalid time value". The range is fixed so pure folds stay pure; the fleet also checks
 * `since` against its own clock (activityBasis).
 */

/** Earliest plausible record time, ms since epoch (2000-01-01). */
export const PLAUSIBLE_FROM_MS = Date.UTC(2000, 0, 1);
/** Latest plausible record time, ms since epoch (2200-01-01). */
export const PLAUSIBLE_TO_MS = Date.UTC(2200, 0, 1);

/** A time in ms when it is a finite number inside the plausible range, else null (unknown). */
export function plausibleMs(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= PLAUSIBLE_FROM_MS && value <= PLAUSIBLE_TO_MS ? value : null;
}

/** A recorded ISO time kept only when it parses to a plausible time (garbage and year 9999 are unknown). */
export function plausibleIso(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  return plausibleMs(Date.parse(value)) === null ? null : value;
}

/** Largest time a JavaScript date holds, ms (past it `toISOString` throws "Invalid time value"). */
const DATE_MAX_MS = 8.64e15;

/** The ISO text of any time a date can hold, else null: for record times whose range the tests choose freely. */
export function safeIso(value: unknown): string | null {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= DATE_MAX_MS ? new Date(value).toISOString() : null;
}
