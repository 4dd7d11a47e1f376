/**
 * The timeline's playback clock, pure: from a moment of the past, the shown time runs `speed` times as fast as the
 * wall clock until it reaches the end of the span (then the world returns to live). No timers here; the store steps it.
 */

/** How many times faster than the wall clock the past plays. */
export type PlaybackSpeed = 60 | 600;

/** The speeds the bar offers, slowest first. */
export const PLAYBACK_SPEEDS: readonly PlaybackSpeed[] = [60, 600];

/** Wall-clock milliseconds between two steps of playback (each step asks main for one moment). */
export const PLAYBACK_STEP_MS = 250;

/** A running playback: the shown time `fromMs` at wall time `wallMs`, advancing `speed` times as fast. */
export interface Playback {
  speed: PlaybackSpeed;
  fromMs: number;
  wallMs: number;
}

/** Starts playing at `atMs` (a past moment) at wall time `wallMs`. */
export function startPlayback(atMs: number, speed: PlaybackSpeed, wallMs: number): Playback {
  return { speed, fromMs: atMs, wallMs };
}

/** The shown time at wall time `wallMs`, and whether it reached `endMs` (the present: playback is over). */
export function playbackAt(playback: Playback, wallMs: number, endMs: number): { atMs: number; ended: boolean } {
  const atMs = playback.fromMs + Math.max(0, wallMs - playback.wallMs) * playback.speed;
  return atMs >= endMs ? { atMs: endMs, ended: true } : { atMs: Math.round(atMs), ended: false };
}

/** The same playback at another speed, continuing from where it is now (no jump in the shown time). */
export function changeSpeed(playback: Playback, speed: PlaybackSpeed, wallMs: number, endMs: number): Playback {
  return startPlayback(playbackAt(playback, wallMs, endMs).atMs, speed, wallMs);
}
