/**
 * When a character gets the near-auto-compact mark (issue 41), pure (no Pixi, so the world model and tests share it):
 * its context at or past the owner's `budget.contextWarnPercent`, learned once from the pace answer; 90 % until then.
 */
import type { ContextGauge } from './contextBar';

/** The owner's budget settings as the page knows them (settings.json `budget`, issue 41). */
export const budgetMarks = { contextWarnPercent: 90, on: true };

/** The whole percent the mark stands for, or null when the context is below the mark (or unknown, or marks are off). */
export function nearCompact(context: ContextGauge): number | null {
  if (!budgetMarks.on || context.percent === null) return null;
  return context.percent >= budgetMarks.contextWarnPercent ? context.percent : null;
}
