/**
 * Job aliases, pure: `<type>-<n>` from a per-type counter that only grows (rule A1), stable for a subagent once
 * issued (rule A2), a bounded map that trims the oldest entries without ever lowering a counter (rule A3), and the
 * store file's schema. The counter is never derived from how many aliases a type holds now: that is the classic
 * bug (`exp-1..3`, trim `exp-1`, the next launch gets `exp-3` again).
 */
import { z } from 'zod';

/** Most id → alias entries kept (rule A3). */
export const ALIAS_MAP_LIMIT = 10_000;
/** Longest type slug, in characters. */
const SLUG_MAX = 32;
/** The slug of a subagent whose type the harness did not record. */
export const UNTYPED_SLUG = 'subagent';

/** The alias store file, version 1: counters per type slug and the issued aliases, oldest first. */
export const AliasFileSchema = z.object({
  schemaVersion: z.literal(1),
  revision: z.number().int().nonnegative(),
  counters: z.record(z.string(), z.number().int().nonnegative()),
  aliases: z.array(z.tuple([z.string().min(1), z.string().min(1)])),
});
export type AliasFile = z.infer<typeof AliasFileSchema>;

/** A store with nothing issued. */
export function emptyAliasFile(): AliasFile {
  return { schemaVersion: 1, revision: 0, counters: {}, aliases: [] };
}

/** Rule A1: the type as an alias prefix: lowercase letters and digits joined by single hyphens, else `subagent`. */
export function slugType(type: string | null | undefined): string {
  const slug = (type ?? '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
  return slug === '' ? UNTYPED_SLUG : slug;
}

/** One subagent asking for its alias: its key (`<seat id>|<native id>`) and its recorded type. */
export interface AliasRequest {
  key: string;
  type: string | null;
}

/** The outcome of issuing: every requested key's alias, and the next file when something new was issued. */
export interface AliasIssue {
  aliases: Map<string, string>;
  next: AliasFile | null;
}

/**
 * Rules A1–A3: keys already in the file keep their alias; each new key takes its type's counter plus one. When the
 * map grows past the limit the oldest entries go, except those requested now; counters are never lowered.
 */
export function issueAliases(file: AliasFile, requests: readonly AliasRequest[], limit = ALIAS_MAP_LIMIT): AliasIssue {
  const known = new Map(file.aliases);
  const aliases = new Map<string, string>();
  const counters = { ...file.counters };
  const added: [string, string][] = [];
  for (const request of requests) {
    if (aliases.has(request.key)) continue;
    const existing = known.get(request.key);
    if (existing !== undefined) {
      aliases.set(request.key, existing);
      continue;
    }
    const slug = slugType(request.type);
    const next = (counters[slug] ?? 0) + 1;
    counters[slug] = next;
    const alias = `${slug}-${next}`;
    aliases.set(request.key, alias);
    added.push([request.key, alias]);
  }
  if (added.length === 0) return { aliases, next: null };
  return { aliases, next: { schemaVersion: 1, revision: file.revision + 1, counters, aliases: trim([...file.aliases, ...added], limit, aliases) } };
}

/** Rule A3: drops the oldest entries past the limit, keeping every entry requested in this call. */
function trim(entries: [string, string][], limit: number, requested: Map<string, string>): [string, string][] {
  let excess = entries.length - limit;
  if (excess <= 0) return entries;
  return entries.filter(([key]) => {
    if (excess <= 0 || requested.has(key)) return true;
    excess -= 1;
    return false;
  });
}

/** The file's text: one line per alias keeps a diff of two versions readable. */
export function encodeAliasFile(file: AliasFile): string {
  const lines = file.aliases.map((entry) => `    ${JSON.stringify(entry)}`);
  const head = `{\n  "schemaVersion": 1,\n  "revision": ${file.revision},\n  "counters": ${JSON.stringify(file.counters)},\n`;
  return `${head}  "aliases": [${lines.length > 0 ? `\n${lines.join(',\n')}\n  ` : ''}]\n}\n`;
}

/** A decoded file, a newer version this build cannot write, or the reason it is unreadable. */
export type AliasDecode = { kind: 'ok'; file: AliasFile } | { kind: 'newer'; version: number } | { kind: 'corrupt'; reason: string };

/** Parses the file's text strictly enough that a half-written or hand-broken file is noticed. */
export function decodeAliasFile(text: string): AliasDecode {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { kind: 'corrupt', reason: `not JSON (${(error as Error).message})` };
  }
  const version = typeof raw === 'object' && raw !== null ? (raw as { schemaVersion?: unknown }).schemaVersion : undefined;
  if (typeof version === 'number' && version > 1) return { kind: 'newer', version };
  const parsed = AliasFileSchema.safeParse(raw);
  if (!parsed.success) return { kind: 'corrupt', reason: parsed.error.issues[0]?.message ?? 'invalid' };
  return { kind: 'ok', file: parsed.data };
}

/**
 * Rule A4: counters salvaged from an unreadable file, so moving it aside never lets an alias be issued twice: the
 * highest number seen per slug, in counters (`"explore": 3`) or in aliases (`"explore-3"`).
 */
export function salvageCounters(text: string): Record<string, number> {
  const counters: Record<string, number> = {};
  const raise = (slug: string, value: number) => {
    if (Number.isSafeInteger(value) && value > (counters[slug] ?? 0)) counters[slug] = value;
  };
  for (const match of text.matchAll(/"([\p{L}\p{N}-]+)"\s*:\s*(\d+)/gu)) {
    if (match[1] !== 'schemaVersion' && match[1] !== 'revision') raise(match[1], Number(match[2]));
  }
  for (const match of text.matchAll(/"([\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*)-(\d+)"/gu)) raise(match[1], Number(match[2]));
  return counters;
}
