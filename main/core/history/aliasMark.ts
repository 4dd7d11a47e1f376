/**
 * The job aliases' high-water mark (issue 36): each type's highest issued number, kept in a small file beside the
 * history store and written (atomically) whenever an alias is issued. When the store is damaged and moved aside, the
 * fresh store's counters start from this mark, so an alias such as `explore-1` is never issued twice.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { salvageCounters } from './aliasRules';

/** The largest mark file read, in bytes (counters for a few thousand types). */
const MARK_MAX_BYTES = 1024 * 1024;

/** Type slug → highest number issued. */
export type AliasMark = Record<string, number>;

/** The mark kept in `file`; an absent file is an empty mark, a damaged one gives what numbers it still shows. */
export function readAliasMark(file: string): AliasMark {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  if (text.length > MARK_MAX_BYTES) text = text.slice(0, MARK_MAX_BYTES);
  const mark: AliasMark = Object.create(null) as AliasMark;
  try {
    const counters = (JSON.parse(text) as { counters?: unknown })?.counters;
    if (counters && typeof counters === 'object' && !Array.isArray(counters)) {
      for (const [slug, value] of Object.entries(counters)) if (Number.isSafeInteger(value) && (value as number) > 0) mark[slug] = value as number;
      return mark;
    }
  } catch {
    // Not JSON: the numbers it still shows are kept below.
  }
  return Object.assign(mark, salvageCounters(text));
}

/** Writes the mark (temp file, then rename); returns why it could not, or null. */
export function writeAliasMark(file: string, mark: AliasMark): string | null {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify({ version: 1, counters: mark })}\n`, { mode: 0o600 });
    renameSync(temp, file);
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
}

/** The mark file's name beside the history store. */
export const ALIAS_MARK_FILE = 'job-alias-mark.json';
