/**
 * The app home's settings.json: where station backlogs come from and which working folders open automatically.
 * Each part has its own schema so the loader can keep the valid entries when one entry is wrong.
 */
import { z } from 'zod';
import { NotifySettingsSchema, type NotifySettings } from './notifySettings';
import type { HistorySettings } from '../../core/history/settings';

/** An environment variable name; tokens are only ever read from the environment, never from this file. */
const EnvironmentNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name');

/** True for a host name that can only mean this machine: localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * A tracker endpoint that receives the token: https:// to any host, http:// only to a loopback host (tests, local
 * mirrors), where the token never crosses the network in clear.
 */
const HttpUrlSchema = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .refine((value) => value.startsWith('https:') || isLoopbackHost(new URL(value).hostname), {
    error: 'must be https:// (http:// only to 127.0.0.1, ::1 or localhost: the token would travel in clear)',
  });

/** A folder of Markdown files with YAML front matter. */
export const MarkdownSourceSchema = z.object({
  kind: z.literal('markdown'),
  dir: z.string().trim().min(1, 'must name a folder'),
});

/** Open issues of one GitHub repository (REST v3); `apiUrl` also serves GitHub Enterprise. */
export const GithubSourceSchema = z.object({
  kind: z.literal('github'),
  repo: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'must look like "owner/name"'),
  apiUrl: HttpUrlSchema.default('https://api.github.com'),
  tokenEnv: EnvironmentNameSchema.default('GITHUB_TOKEN'),
});

/** Open issues of one Linear team (GraphQL). */
export const LinearSourceSchema = z.object({
  kind: z.literal('linear'),
  teamKey: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be a team key such as "ENG"'),
  apiUrl: HttpUrlSchema.default('https://api.linear.app/graphql'),
  tokenEnv: EnvironmentNameSchema.default('LINEAR_API_KEY'),
});

/** One configured work-item source. */
export const WorkSourceSchema = z.discriminatedUnion('kind', [MarkdownSourceSchema, GithubSourceSchema, LinearSourceSchema]);
export type WorkSourceConfig = z.infer<typeof WorkSourceSchema>;
export type MarkdownSourceConfig = z.infer<typeof MarkdownSourceSchema>;
export type GithubSourceConfig = z.infer<typeof GithubSourceSchema>;
export type LinearSourceConfig = z.infer<typeof LinearSourceSchema>;

/** "Open every new session of this harness started in this folder": counts as the owner addressing it. */
export const AutoOpenRuleSchema = z.object({
  harness: z.enum(['claude', 'codex', 'opencode']),
  cwd: z.string().trim().min(1, 'must name a folder'),
});
export type AutoOpenRule = z.infer<typeof AutoOpenRuleSchema>;

/** Seconds between background refreshes of the work sources; the floor keeps GitHub's hourly quota safe. */
export const RefreshSecondsSchema = z.number().int().min(10).max(86_400);

/** Reminders for long background jobs: the first after `backgroundMinutes`, then every `everyMinutes`. */
export const RemindersSchema = z
  .object({
    backgroundMinutes: z.number().int().min(1).max(1440).default(10),
    everyMinutes: z.number().int().min(1).max(1440).default(30),
    on: z.boolean().default(true),
  })
  .strict();
export type RemindersConfig = z.infer<typeof RemindersSchema>;

/**
 * The terminal that opens attached to a launched agent: an argument vector (never a shell string) to which the tmux
 * attach command's own vector is appended, e.g. `["xterm", "-e"]` or `["gnome-terminal", "--"]`. `null` or absent:
 * off.
 */
export const TerminalSchema = z
  .object({
    command: z.array(z.string().min(1, 'must not hold an empty word').max(1000)).min(1, 'must name the terminal program').max(32),
  })
  .strict()
  .nullable();
export type TerminalConfig = z.infer<typeof TerminalSchema>;

/** The whole file. Unknown top-level keys are tolerated (dropped), so a newer settings file still loads. */
export const SettingsSchema = z.object({
  workSources: z.array(WorkSourceSchema).optional(),
  autoOpen: z.array(AutoOpenRuleSchema).optional(),
  refreshSeconds: RefreshSecondsSchema.optional(),
  notify: NotifySettingsSchema.partial().optional(),
  reminders: RemindersSchema.optional(),
  terminal: TerminalSchema.optional(),
  worktreeDir: z.string().optional(),
});

/** Settings after loading: every list present, folders absolute. */
export interface Settings {
  workSources: WorkSourceConfig[];
  autoOpen: AutoOpenRule[];
  /** Seconds between background refreshes of the work sources. */
  refreshSeconds: number;
  /** Desktop notifications for agents that need the owner. */
  notify: NotifySettings;
  /** Reminders for long background jobs. */
  reminders: RemindersConfig;
  /** The terminal the app may open attached to a launched agent; null: off. */
  terminal: TerminalConfig;
  /** Where dispatch worktrees go (issue 40): absolute, `~/…`, or relative to the repository root; null: `<repo>/.pixelfleet/worktrees`. */
  worktreeDir: string | null;
  /** History kept (days, 0: off) and minutes away before the digest shows; absent: the defaults (issue 27). */
  history?: HistorySettings;
}

/** The settings used when the file is missing or a part of it is invalid. */
export const DEFAULT_REFRESH_SECONDS = 60;
/** Reminder settings when the file says nothing. */
export const DEFAULT_REMINDERS_CONFIG: RemindersConfig = { backgroundMinutes: 10, everyMinutes: 30, on: true };
