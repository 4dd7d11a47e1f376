/**
 * Pure reading and writing of a role profile file (`roles/<role key>.md`): YAML front matter with the fields, the
 * Markdown body as the charter.
 *
 * Rule P1: the file opens with a `---` line and the front matter closes with a `---` line.
 * Rule P2: the front matter is a mapping of keys (empty front matter is an empty mapping).
 * Rule P3: the fields pass the profile schema; an unknown key is an error naming it (a typo must not pass silently).
 * Rule P4: the body, trimmed, is the charter.
 */
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { z } from 'zod';
import { describeIssues } from '../../../shared/contract';
import { RoleProfileSchema, type RoleProfile } from '../../../shared/roleProfile';

/** A parsed profile, or a sentence saying what is wrong with the file. */
export type ProfileParse = { ok: true; profile: RoleProfile } | { ok: false; reason: string };

const OPENING = /^---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*$/m;

/** Parses a profile file's text (rules P1–P4). */
export function parseProfileText(text: string): ProfileParse {
  const source = text.replace(/^\uFEFF/, '');
  if (!OPENING.test(source)) return { ok: false, reason: 'a profile starts with a --- line, then its fields, then a --- line.' };
  const afterOpening = source.replace(OPENING, '');
  const closing = CLOSING.exec(afterOpening);
  if (!closing) return { ok: false, reason: 'the front matter is not closed with a --- line.' };
  const yamlText = afterOpening.slice(0, closing.index);
  const body = afterOpening.slice(closing.index + closing[0].length).replace(/^\r?\n/, '');
  let data: unknown;
  try {
    data = parseYaml(yamlText);
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { ok: false, reason: `the front matter is not valid YAML (${detail}).` };
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== 'object' || Array.isArray(data)) return { ok: false, reason: 'the front matter must be a mapping of keys.' };
  if ('charter' in (data as object)) return { ok: false, reason: 'charter: the charter is the body below the front matter, not a field.' };
  return validateProfile({ ...(data as Record<string, unknown>), charter: body.trim() });
}

/** Validates profile fields (from a file or from the panel); the reason names the field. */
export function validateProfile(input: unknown): ProfileParse {
  const result = RoleProfileSchema.safeParse(input);
  if (result.success) return { ok: true, profile: result.data };
  return { ok: false, reason: `${describeIssues(result.error as z.ZodError)}.` };
}

/** The text of a profile file; `parseProfileText(formatProfileText(p))` gives `p` back. */
export function formatProfileText(profile: RoleProfile): string {
  const fields: Record<string, unknown> = { description: profile.description };
  const tools: Record<string, unknown> = {};
  if (profile.tools.allow !== undefined) tools.allow = profile.tools.allow;
  if (profile.tools.deny.length > 0) tools.deny = profile.tools.deny;
  if (Object.keys(tools).length > 0) fields.tools = tools;
  const models = Object.fromEntries(Object.entries(profile.models).filter(([, value]) => value !== undefined));
  if (Object.keys(models).length > 0) fields.models = models;
  if (profile.colour !== undefined) fields.colour = profile.colour;
  const yaml = stringifyYaml(fields, { lineWidth: 0 });
  return `---\n${yaml}---\n\n${profile.charter.trim()}\n`;
}
