/**
 * The app home's settings.json: where station backlogs come from and which working folders open automatically.
 * Each part has its own schema so the loader can keep the valid entries when one entry is wrong.
 */
import { z } from 'zod';
import type { NotifySettings } from '../../core/notify/notifySettings';
import type { HistorySettings } from '../../core/history/settings';
import type { WorkSourceConfig } from '../../sources/work/workSettings';
import type { TerminalConfig } from '../../core/launch/terminalSettings';
import type { BudgetSettings } from '../../../shared/pace';

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
  /** When a full context or a plan window warns (issue 41); absent: the defaults. */
  budget?: BudgetSettings;
}

/** The settings used when the file is missing or a part of it is invalid. */
export const DEFAULT_REFRESH_SECONDS = 60;
/** Reminder settings when the file says nothing. */
export const DEFAULT_REMINDERS_CONFIG: RemindersConfig = { backgroundMinutes: 10, everyMinutes: 30, on: true };
