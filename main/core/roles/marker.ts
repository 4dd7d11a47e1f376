/**
 * The marker Pixelfleet writes into every exported agent definition: a comment line naming the role key and the SHA-256
 * of the rest of the file. It decides whether a file may be replaced.
 *
 * Rule M1: a file without a marker was not written by Pixelfleet (foreign): never replaced without --force.
 * Rule M2: a file whose marker hash differs from the hash of its other lines was edited since: never replaced
 *          without --force.
 * Rule M3: a file whose marker hash matches is Pixelfleet's own, unchanged: it may be replaced.
 */
import { createHash } from 'node:crypto';

/** What a marker says about a file. */
export type MarkerState = { kind: 'foreign' } | { kind: 'edited'; role: string } | { kind: 'ours'; role: string };

const MARKER_LINE = /^# pixelfleet-export role=("(?:[^"\\]|\\.)*") sha256=([0-9a-f]{64})\b.*(?:\r?\n|$)/m;

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The marker line for a file whose other lines are `rest` (the line ends with a newline). */
export function markerLine(role: string, rest: string): string {
  return `# pixelfleet-export role=${JSON.stringify(role)} sha256=${sha256(rest)} (written by Pixelfleet: edit the role's profile and export again)\n`;
}

/** Places the marker line at `index` of `text` (a character offset at the start of a line). */
export function withMarker(role: string, text: string, index: number): string {
  return `${text.slice(0, index)}${markerLine(role, text)}${text.slice(index)}`;
}

/** Reads a file's marker (rules M1–M3). */
export function readMarker(text: string): MarkerState {
  const match = MARKER_LINE.exec(text);
  if (!match) return { kind: 'foreign' };
  let role: string;
  try {
    role = JSON.parse(match[1]) as string;
  } catch {
    return { kind: 'foreign' };
  }
  const rest = text.slice(0, match.index) + text.slice(match.index + match[0].length);
  return sha256(rest) === match[2] ? { kind: 'ours', role } : { kind: 'edited', role };
}
