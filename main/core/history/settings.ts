/** settings.json `history`: days kept (0 turns recording off) and minutes away before the digest shows. */
import { z } from 'zod';
import { HISTORY_AWAY_MINUTES_DEFAULT, HISTORY_DAYS_DEFAULT, HISTORY_DAYS_MAX } from './bounds';

/** The `history` part of settings.json. */
export const HistorySettingsSchema = z
  .object({
    days: z.number().min(0).max(HISTORY_DAYS_MAX).default(HISTORY_DAYS_DEFAULT),
    awayMinutes: z.number().int().min(1).max(24 * 60).default(HISTORY_AWAY_MINUTES_DEFAULT),
  })
  .strict();
export type HistorySettings = z.infer<typeof HistorySettingsSchema>;

/** The history settings when the file says nothing. */
export function defaultHistorySettings(): HistorySettings {
  return { days: HISTORY_DAYS_DEFAULT, awayMinutes: HISTORY_AWAY_MINUTES_DEFAULT };
}

/** Parses `raw.history`; a bad value is one sentence in `problems` and the defaults are used. */
export function parseHistorySettings(raw: unknown, file: string, problems: string[]): HistorySettings {
  if (raw === undefined) return defaultHistorySettings();
  const parsed = HistorySettingsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = ['history', ...(issue?.path ?? []).map(String)].join('.');
  problems.push(
    `${file}: ${where} ${issue?.message ?? 'is invalid'} (history.days: 0 to ${HISTORY_DAYS_MAX}, 0 turns recording off; history.awayMinutes: 1 to 1440); the defaults are used (${HISTORY_DAYS_DEFAULT} days, ${HISTORY_AWAY_MINUTES_DEFAULT} minutes).`,
  );
  return defaultHistorySettings();
}
