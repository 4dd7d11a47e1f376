/**
 * Hire and launch across the contract: what the station's launch panel may offer, the request it sends (strict,
 * bounded), what comes back, and how to attach. Schemas only.
 */
import { z } from 'zod';
import { boundedString, nameString, PATH_MAX_LENGTH, pathString, roleString } from './bounds';
import { HarnessSchema, PersonaSchema } from './schemas';

/** The longest first prompt, in characters. */
export const LAUNCH_PROMPT_MAX = 20_000;
/** How long a launch waits for the started session to appear before it answers without a seat. */
export const LAUNCH_SEAT_DEADLINE_MS = 60_000;
/** The longest project folder path, in characters. */
export const LAUNCH_FOLDER_MAX = PATH_MAX_LENGTH;
/** Recent folders offered, most recent first. */
export const LAUNCH_RECENT_FOLDERS = 12;

/** One harness as the launch panel offers it: available, or greyed with the reason. */
export const LaunchHarnessSchema = z.object({
  harness: HarnessSchema,
  available: z.boolean(),
  reason: z.string().nullable(),
});

/** What a launch can offer right now. */
export const LaunchOptionsSchema = z.object({
  /** Null when tmux is on PATH; otherwise the one-line reason with how to install it. */
  unavailable: z.string().nullable(),
  harnesses: z.array(LaunchHarnessSchema),
  /** Working folders of recently discovered sessions, most recent first. */
  folders: z.array(z.string()),
  /** A free generated name the owner may edit. */
  suggestedName: z.string(),
});
export type LaunchOptions = z.infer<typeof LaunchOptionsSchema>;

/** A launch as the owner asks for it. */
export const LaunchRequestSchema = z
  .object({
    harness: HarnessSchema,
    role: roleString(1),
    cwd: pathString(1),
    name: nameString().optional(),
    prompt: boundedString('a first prompt', LAUNCH_PROMPT_MAX).optional(),
    /** The remote to launch on (issue 42; `cwd` is then a folder there); absent: this machine. */
    host: z.string().regex(/^[a-z0-9][a-z0-9-]{0,23}$/, 'a remote name').optional(),
  })
  .strict();
export type LaunchRequest = z.infer<typeof LaunchRequestSchema>;

/** The outcome: the persona (seated or not), its tmux session and attach command, and what the owner should know. */
export const LaunchResultSchema = z.object({
  persona: PersonaSchema,
  tmuxSession: z.string(),
  attach: z.string(),
  seated: z.boolean(),
  /** Why there is no seat (null when seated). */
  reason: z.string().nullable(),
  /** How the role's exported agent was carried into the harness (null when there is none). */
  note: z.string().nullable(),
});
export type LaunchResult = z.infer<typeof LaunchResultSchema>;

/** How to attach to a persona's session. */
export const AttachInfoSchema = z.object({
  /** The running tmux session, or null when none runs for the persona. */
  session: z.string().nullable(),
  /** `tmux attach -t …` as the owner types it, or null. */
  command: z.string().nullable(),
  /** True when settings name a terminal that was found, so the app can open one attached. */
  terminal: z.boolean(),
});
export type AttachInfo = z.infer<typeof AttachInfoSchema>;
