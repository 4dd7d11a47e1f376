/**
 * The launch panel's pure part: the form's starting values from what main offers, and the request the form's values
 * make (or the sentence saying what to fix). No DOM.
 */
import { HARNESS_NAMES } from '../../shared/usagePhrases';
import { NAME_MAX_LENGTH, ruleLength } from '../../shared/bounds';
import { LAUNCH_FOLDER_MAX, LAUNCH_PROMPT_MAX, LAUNCH_SEAT_DEADLINE_MS, type LaunchOptions, type LaunchRequest } from '../../shared/launch';
import type { Harness } from '../../shared/schemas';

/** Harness names as the owner knows them. */
export const HARNESS_LABELS: Record<Harness, string> = HARNESS_NAMES;

/** What the form holds. */
export interface LaunchFormValues {
  harness: Harness | null;
  cwd: string;
  name: string;
  prompt: string;
}

/** The form as it opens: the first available harness, the most recent folder, the suggested name, no prompt. */
export function defaultLaunchForm(options: LaunchOptions): LaunchFormValues {
  const harness = options.harnesses.find((entry) => entry.available)?.harness ?? null;
  return { harness, cwd: options.folders[0] ?? '', name: options.suggestedName, prompt: '' };
}

/** The request the values make, or what to fix first. */
export function launchRequestOf(values: LaunchFormValues, options: LaunchOptions): { ok: true; request: Omit<LaunchRequest, 'role'> } | { ok: false; reason: string } {
  if (options.unavailable) return { ok: false, reason: options.unavailable };
  const offered = options.harnesses.find((entry) => entry.harness === values.harness);
  if (!values.harness || !offered) return { ok: false, reason: 'Choose a harness.' };
  if (!offered.available) return { ok: false, reason: `${HARNESS_LABELS[values.harness]} cannot be launched: ${offered.reason ?? 'not available'}.` };
  const cwd = values.cwd.trim();
  if (cwd === '') return { ok: false, reason: 'Choose a project folder or type one.' };
  if (cwd.length > LAUNCH_FOLDER_MAX) return { ok: false, reason: `A folder path is at most ${LAUNCH_FOLDER_MAX} characters.` };
  if (!cwd.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(cwd)) return { ok: false, reason: 'Type the project folder as a full path (starting with /).' };
  const name = values.name.trim();
  if (ruleLength(name) > NAME_MAX_LENGTH) return { ok: false, reason: `A name is at most ${NAME_MAX_LENGTH} characters.` };
  if (values.prompt.length > LAUNCH_PROMPT_MAX) return { ok: false, reason: `A first prompt is at most ${LAUNCH_PROMPT_MAX} characters.` };
  return {
    ok: true,
    request: { harness: values.harness, cwd, ...(name !== '' ? { name } : {}), ...(values.prompt.trim() !== '' ? { prompt: values.prompt } : {}) },
  };
}


/** The panel's progress line while a launch runs, with the seconds waited so far (whole seconds, never negative). */
export function launchingText(elapsedMs: number): string {
  const seconds = Math.max(0, Math.floor(elapsedMs / 1000));
  return `Starting it in tmux and waiting for its session to appear: ${seconds} s of up to ${LAUNCH_SEAT_DEADLINE_MS / 1000} s (Codex and OpenCode write theirs later than Claude Code)…`;
}
