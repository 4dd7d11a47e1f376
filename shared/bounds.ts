/**
 * Length bounds of every string a client may send (the contract's request side), and how an over-long value is
 * shown in an error: never in full, at most 80 characters of it. Pure; zod only.
 */
import { z } from 'zod';
import { ROLE_MAX_LENGTH, normaliseRoleText } from './roles';
import { shownValue } from './shown';

export { shownValue } from './shown';

/** Longest id a request may carry (persona, seat, session, candidate, native subagent ids), in characters. */
export const ID_MAX_LENGTH = 200;
/** Longest path a request may carry (home, cwd, transcript path), in characters. */
export const PATH_MAX_LENGTH = 4096;
/** Longest persona name, in characters (code points after NFC and whitespace collapsing): the persona rule. */
export const NAME_MAX_LENGTH = 48;
/** Longest replay cursor a request may carry (an opaque token main issued), in characters. */
export const REPLAY_CURSOR_MAX_LENGTH = 2000;

/** The length the persona and role rules measure: code points after NFC, trimming and whitespace collapsing. */
export function ruleLength(value: string): number {
  return Array.from(normaliseRoleText(value)).length;
}

/** The refusal of an over-long value: the bound, and the value's start (never all of it). */
function tooLong(what: string, max: number, value: string): string {
  return `is too long (${what} is at most ${max} characters; this one starts "${shownValue(value)}")`;
}

/** A string of at most `max` characters (UTF-16 units, for ids and paths); `min` as zod's. */
export function boundedString(what: string, max: number, min = 0) {
  return z
    .string()
    .min(min)
    .superRefine((value, context) => {
      if (value.length > max) context.addIssue({ code: 'custom', message: tooLong(what, max, value) });
    });
}

/**
 * A string bounded as the persona or role rules count (code points after normalising). The raw text is first held to
 * a few times the bound, so normalising an enormous value never costs more than refusing it.
 */
export function ruleBoundedString(what: string, max: number, min = 0) {
  return z
    .string()
    .min(min)
    .superRefine((value, context) => {
      if (value.length > max * 8 || ruleLength(value) > max) context.addIssue({ code: 'custom', message: tooLong(what, max, value) });
    });
}

/** An id in a request (1–200 characters). */
export const idString = () => boundedString('an id', ID_MAX_LENGTH, 1);
/** A path in a request (≤ 4,096 characters). */
export const pathString = (min = 0) => boundedString('a path', PATH_MAX_LENGTH, min);
/** A persona name in a request (1–48 characters, as the persona rules count). */
export const nameString = () => ruleBoundedString('a name', NAME_MAX_LENGTH, 1);
/** A role (or a label compared with roles) in a request (≤ 24 characters, as the role rules count). */
export const roleString = (min = 0) => ruleBoundedString('a role', ROLE_MAX_LENGTH, min);
/** A replay cursor in a request (≤ 2,000 characters). */
export const cursorString = () => boundedString('a replay cursor', REPLAY_CURSOR_MAX_LENGTH);
