/**
 * Reads the app home's settings.json. A bad setting is reported, never fatal: the valid parts are used, every
 * problem becomes one sentence naming the file and the field, and nothing is ever written back.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { z } from 'zod';
import { defaultNotifySettings, parseNotifySettings } from '../../core/notify/notifySettings';
import { parseHistorySettings } from '../../core/history/settings';
import { parseBudgetSettings } from './budgetSettings';
import {
  AutoOpenRuleSchema,
  DEFAULT_REFRESH_SECONDS,
  DEFAULT_REMINDERS_CONFIG,
  RefreshSecondsSchema,
  RemindersSchema,
  type AutoOpenRule,
  type Settings,
} from './settingsSchema';
import { WorkSourceSchema, type WorkSourceConfig } from '../../sources/work/workSettings';
import { TerminalSchema } from '../../core/launch/terminalSettings';

/** Settings plus the sentences describing what was ignored and why. */
export interface LoadedSettings {
  settings: Settings;
  problems: string[];
}

/** Options for tests: the folder `~` stands for. */
export interface LoadSettingsOptions {
  homeDir?: string;
}

/** Settings.json is a small hand-written file; anything larger is a mistake, not configuration. */
const MAX_SETTINGS_BYTES = 1024 * 1024;

/** The settings with nothing configured. */
export function defaultSettings(): Settings {
  return { workSources: [], autoOpen: [], refreshSeconds: DEFAULT_REFRESH_SECONDS, notify: defaultNotifySettings(), reminders: { ...DEFAULT_REMINDERS_CONFIG }, terminal: null, worktreeDir: null };
}

/** Loads `file`; a missing file gives the defaults. Never throws, never writes. */
export async function loadSettings(file: string, options: LoadSettingsOptions = {}): Promise<LoadedSettings> {
  let text: string;
  try {
    const bytes = await readFile(file);
    if (bytes.length > MAX_SETTINGS_BYTES) {
      return { settings: defaultSettings(), problems: [`${file} is larger than 1 MiB; it was ignored.`] };
    }
    text = bytes.toString('utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { settings: defaultSettings(), problems: [] };
    return { settings: defaultSettings(), problems: [`${file} could not be read (${errorCode(error) ?? 'unknown error'}); defaults are used.`] };
  }
  return parseSettings(text, file, options.homeDir ?? homedir());
}

/** Parses the text of a settings file; pure apart from resolving folders against `file` and `homeDir`. */
export function parseSettings(text: string, file: string, homeDir: string): LoadedSettings {
  const settings = defaultSettings();
  const problems: string[] = [];
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { settings, problems: [`${file} is not valid JSON (${detail}); defaults are used.`] };
  }
  if (!isRecord(raw)) {
    return { settings, problems: [`${file} must hold a JSON object; defaults are used.`] };
  }
  const base = path.dirname(path.resolve(file));
  const resolveFolder = (folder: string) => resolveSettingsPath(folder, base, homeDir);

  settings.workSources = parseEntries(raw.workSources, 'workSources', WorkSourceSchema, file, problems, 'that source is skipped').map(
    (source): WorkSourceConfig => (source.kind === 'markdown' ? { ...source, dir: resolveFolder(source.dir) } : source),
  );
  settings.autoOpen = parseEntries(raw.autoOpen, 'autoOpen', AutoOpenRuleSchema, file, problems, 'that rule is skipped').map(
    (rule): AutoOpenRule => ({ ...rule, cwd: resolveFolder(rule.cwd) }),
  );
  if (raw.refreshSeconds !== undefined) {
    const parsed = RefreshSecondsSchema.safeParse(raw.refreshSeconds);
    if (parsed.success) settings.refreshSeconds = parsed.data;
    else problems.push(`${file}: refreshSeconds must be a whole number of seconds from 10 to 86400; ${DEFAULT_REFRESH_SECONDS} is used.`);
  }
  settings.notify = parseNotifySettings(raw.notify, file, problems);
  if (raw.reminders !== undefined) {
    const parsed = RemindersSchema.safeParse(raw.reminders);
    if (parsed.success) settings.reminders = parsed.data;
    else {
      const issue = parsed.error.issues[0];
      const where = ['reminders', ...(issue?.path ?? []).map(String)].join('.');
      problems.push(`${file}: ${where} ${describeIssue(issue, raw.reminders)}; the default reminders are used (after 10 minutes, then every 30).`);
    }
  }
  if (raw.terminal !== undefined) {
    const parsed = TerminalSchema.safeParse(raw.terminal);
    if (parsed.success) settings.terminal = parsed.data;
    else {
      const issue = parsed.error.issues[0];
      const where = ['terminal', ...(issue?.path ?? []).map(String)].join('.');
      problems.push(`${file}: ${where} ${describeIssue(issue, raw.terminal)}; opening a terminal stays off (use {"command": ["xterm", "-e"]}).`);
    }
  }
  if (raw.worktreeDir !== undefined) {
    if (typeof raw.worktreeDir === 'string' && raw.worktreeDir.trim() !== '') {
      const folder = raw.worktreeDir.trim();
      // A relative folder is the repository's own (resolved when a worktree is made), so only `~` is expanded here.
      settings.worktreeDir = folder === '~' || folder.startsWith('~/') ? resolveSettingsPath(folder, base, homeDir) : folder;
    } else problems.push(`${file}: worktreeDir must name a folder; worktrees go to <repo>/.pixelfleet/worktrees.`);
  }
  settings.history = parseHistorySettings(raw.history, file, problems);
  settings.budget = parseBudgetSettings(raw.budget, file, problems);
  return { settings, problems };
}

/** Expands `~` to the home folder and resolves a relative folder against the settings file's folder. */
export function resolveSettingsPath(folder: string, baseDir: string, homeDir: string): string {
  if (folder === '~') return homeDir;
  if (folder.startsWith('~/') || folder.startsWith('~\\')) return path.join(homeDir, folder.slice(2));
  return path.resolve(baseDir, folder);
}

/** Validates each entry of an optional list on its own, so one bad entry does not cost the others. */
function parseEntries<T>(
  value: unknown,
  field: string,
  schema: z.ZodType<T>,
  file: string,
  problems: string[],
  consequence: string,
): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push(`${file}: ${field} must be a list; it was ignored.`);
    return [];
  }
  const entries: T[] = [];
  value.forEach((entry, index) => {
    const parsed = schema.safeParse(entry);
    if (parsed.success) {
      entries.push(parsed.data);
      return;
    }
    const issue = parsed.error.issues[0];
    const where = [`${field}[${index}]`, ...(issue?.path ?? []).map(String)].join('.');
    problems.push(`${file}: ${where} ${describeIssue(issue, entry)}; ${consequence}.`);
  });
  return entries;
}

/** One short clause for a zod issue, phrased to follow the field name. */
function describeIssue(issue: z.core.$ZodIssue | undefined, entry: unknown): string {
  if (!issue) return 'is invalid';
  const given = issue.path.reduce<unknown>((value, key) => (isRecord(value) ? value[String(key)] : undefined), entry);
  if (issue.code === 'invalid_union' && 'discriminator' in issue && issue.discriminator) {
    return 'has an unknown kind (use "markdown", "github" or "linear")';
  }
  if (issue.code === 'invalid_type' && given === undefined) return `is missing (expected ${issue.expected})`;
  if (issue.code === 'invalid_type') return `must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
  if (issue.code === 'invalid_value') return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
  return issue.message;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}
