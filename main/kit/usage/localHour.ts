/**
 * Usage hours on the owner's clock: an hour bucket starts at a local whole hour, so "today" (from local midnight) and
 * `--since` windows are whole buckets in every time zone, those a quarter or half an hour off UTC included. Pure.
 */
import { USAGE_HOUR_MS } from './bounds';

/** Every time zone's offset is a whole number of quarter hours: a store may bucket by quarters and fold them into local hours. */
export const QUARTER_HOUR_MS = 15 * 60_000;

/** The start (ms since epoch) of the local hour holding `atMs`, by the zone's offset at that instant (a repeated hour keeps its own start). */
export function localHourStart(atMs: number): number {
  const offsetMs = -new Date(atMs).getTimezoneOffset() * 60_000;
  const local = atMs + offsetMs;
  return local - (((local % USAGE_HOUR_MS) + USAGE_HOUR_MS) % USAGE_HOUR_MS) - offsetMs;
}
