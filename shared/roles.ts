/**
 * The role rules, shared by main and renderer: which strings are roles, how they fold and compare, and the order of
 * the roles list. Pure functions only.
 *
 * Letters are Unicode letters (\p{L}) and digits are Unicode decimal digits (\p{Nd}): owners name roles in their own
 * language ("Diseñadora", "Тестировщик", "レビュー"). Combining marks (\p{M}) count as part of the letter they follow,
 * so scripts that write vowels as marks (Devanagari, Thai) work; a role cannot start with one. Input is normalised to
 * NFC first, so a precomposed "é" and "e" + combining accent are the same role. Length counts code points after NFC.
 */
import type { Persona, RoleCount } from './schemas';

/** The built-in roles, in the order the world and `roles.list` show them. */
export const BUILT_IN_ROLES = ['planner', 'designer', 'builder', 'tester', 'reviewer', 'researcher'] as const;

/** One of the six built-in role names (always lowercase). */
export type BuiltInRole = (typeof BUILT_IN_ROLES)[number];

/** The longest role, in characters (code points after whitespace collapsing). */
export const ROLE_MAX_LENGTH = 24;

/** The outcome of parsing a role: the canonical role, or a sentence naming the rule it broke. */
export type RoleParseResult = { ok: true; role: string } | { ok: false; reason: string };

const FIRST_CHARACTER = /^[\p{L}\p{Nd}]$/u;
const ALLOWED_CHARACTER = /^[\p{L}\p{M}\p{Nd} -]$/u;
const builtInKeys: ReadonlySet<string> = new Set(BUILT_IN_ROLES);

/** Trims, applies NFC and collapses every run of whitespace (tabs and newlines included) to one space. */
export function normaliseRoleText(input: string): string {
  return input.normalize('NFC').trim().replace(/\s+/gu, ' ');
}

/** Shows one character in a reason so that invisible ones stay visible. */
function describeCharacter(character: string): string {
  return /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(character)
    ? `"${character}"`
    : `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Validates an owner-typed role. Built-ins in any casing fold to lowercase; custom roles keep their casing.
 * Rules are checked in a fixed order (empty, length, first character, characters) and the first broken one is named.
 */
export function parseRole(input: string): RoleParseResult {
  if (typeof input !== 'string') return { ok: false, reason: 'A role must be text.' };
  const text = normaliseRoleText(input);
  const characters = Array.from(text);
  if (characters.length === 0) return { ok: false, reason: 'A role needs at least one letter or digit.' };
  if (characters.length > ROLE_MAX_LENGTH) {
    return {
      ok: false,
      reason: `A role is at most ${ROLE_MAX_LENGTH} characters (this one has ${characters.length}).`,
    };
  }
  if (!FIRST_CHARACTER.test(characters[0])) {
    return {
      ok: false,
      reason: `A role starts with a letter or digit (this one starts with ${describeCharacter(characters[0])}).`,
    };
  }
  const refused = characters.find((character) => !ALLOWED_CHARACTER.test(character));
  if (refused !== undefined) {
    return {
      ok: false,
      reason: `A role holds only letters, digits, spaces and hyphens (this one has ${describeCharacter(refused)}).`,
    };
  }
  const key = roleKey(text);
  return { ok: true, role: builtInKeys.has(key) ? key : text };
}

/** The one case-insensitive comparison key of a role: `Sound Designer` and `sound  designer` share a key. */
export function roleKey(role: string): string {
  return normaliseRoleText(role).toLowerCase();
}

/** True when two roles are the same role (same key). */
export function sameRole(first: string, second: string): boolean {
  return roleKey(first) === roleKey(second);
}

/** True when the role is one of the six built-ins, in any casing. */
export function isBuiltInRole(role: string): boolean {
  return builtInKeys.has(roleKey(role));
}

/** The fields of a persona the roles list reads. */
export type RoleHolder = Pick<Persona, 'role' | 'updatedAt'>;

/** Milliseconds of an ISO time, or -Infinity when it does not parse (such a holder never wins the label). */
function timeOf(iso: string): number {
  const value = Date.parse(iso);
  return Number.isNaN(value) ? Number.NEGATIVE_INFINITY : value;
}

/**
 * The `roles.list` order: the six built-ins first, always, in their order with their counts (0 included); then the
 * custom roles personas hold, most held first, ties alphabetical by key. A custom role is labelled with the casing
 * of its most recently updated holder (a tie on time keeps the later holder in the list).
 */
export function rolesList(personas: readonly RoleHolder[]): RoleCount[] {
  const builtInCounts = new Map<string, number>(BUILT_IN_ROLES.map((role) => [role, 0]));
  const custom = new Map<string, { label: string; labelTime: number; count: number }>();
  for (const persona of personas) {
    if (persona.role === undefined) continue;
    const parsed = parseRole(persona.role);
    // A persona whose role does not parse holds no role for placement; the store refuses such records anyway.
    if (!parsed.ok) continue;
    const key = roleKey(parsed.role);
    const builtInCount = builtInCounts.get(key);
    if (builtInCount !== undefined) {
      builtInCounts.set(key, builtInCount + 1);
      continue;
    }
    const time = timeOf(persona.updatedAt);
    const entry = custom.get(key);
    if (entry === undefined) {
      custom.set(key, { label: parsed.role, labelTime: time, count: 1 });
      continue;
    }
    entry.count += 1;
    if (time >= entry.labelTime) {
      entry.label = parsed.role;
      entry.labelTime = time;
    }
  }
  const builtIns: RoleCount[] = BUILT_IN_ROLES.map((role) => ({ role, builtIn: true, count: builtInCounts.get(role)! }));
  const customs = [...custom.entries()]
    .sort(([firstKey, first], [secondKey, second]) =>
      second.count !== first.count ? second.count - first.count : compareKeys(firstKey, secondKey),
    )
    .map(([, entry]): RoleCount => ({ role: entry.label, builtIn: false, count: entry.count }));
  return [...builtIns, ...customs];
}

/** Alphabetical order of keys by code point, so the order is the same on every machine and locale. */
function compareKeys(first: string, second: string): number {
  if (first === second) return 0;
  return first < second ? -1 : 1;
}
