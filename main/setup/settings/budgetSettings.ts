/** settings.json `budget` (issue 41): when a full context or a plan window warns, and whether budget warnings are on. */
import { z } from 'zod';
import type { BudgetSettings } from '../../../shared/pace';

/** The `budget` part of settings.json; each key defaults on its own. */
const BudgetSettingsFileSchema = z
  .object({
    contextWarnPercent: z.number().int().min(1).max(100).default(90),
    windowWarnPercent: z.number().int().min(1).max(100).default(90),
    on: z.boolean().default(true),
  })
  .strict();

/** The budget settings when the file says nothing: warn at 90 % of a context or a window. */
export function defaultBudgetSettings(): BudgetSettings {
  return { contextWarnPercent: 90, windowWarnPercent: 90, on: true };
}

/** Parses `raw.budget`; a bad value is one sentence in `problems` and the defaults are used. */
export function parseBudgetSettings(raw: unknown, file: string, problems: string[]): BudgetSettings {
  if (raw === undefined) return defaultBudgetSettings();
  const parsed = BudgetSettingsFileSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = ['budget', ...(issue?.path ?? []).map(String)].join('.');
  problems.push(`${file}: ${where} ${issue?.message ?? 'is invalid'} (budget.contextWarnPercent and budget.windowWarnPercent: whole percents 1 to 100; budget.on: true or false); the defaults are used (90 %, 90 %, on).`);
  return defaultBudgetSettings();
}
