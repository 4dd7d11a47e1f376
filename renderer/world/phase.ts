/**
 * Sprite phase groups: characters keep their sprite cadence in two groups half a sprite frame apart (by id), so a
 * floor of typists does not flip in lockstep, and each of the world's looping frames (20 a second, see frameLoop.ts)
 * brings half of them up to date: a frame's changed regions are half as many.
 */

/** Groups the characters' sprite loops are spread over. */
export const PHASE_GROUPS = 2;

/** The phase group of a character, stable for its id. */
export function phaseGroup(id: string): number {
  let hash = 0;
  for (let index = 0; index < id.length; index += 1) hash = (hash * 31 + id.charCodeAt(index)) | 0;
  return (hash >>> 0) % PHASE_GROUPS;
}

/** Each group's sprite frame at `clockMs`, written into `out` (kept by the caller: the ticker allocates nothing). */
export function phaseFrames(clockMs: number, frameMs: number, out: number[]): number[] {
  for (let group = 0; group < PHASE_GROUPS; group += 1) out[group] = Math.floor((clockMs + (group * frameMs) / PHASE_GROUPS) / frameMs);
  return out;
}
