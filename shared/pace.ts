/**
 * Budget and pace (issue 41): plan windows as the harnesses record them, 5-hour blocks estimated from usage already
 * read, cost by day, role, harness and host from history, and the pace panel's answer. The shapes are an interface
 * (README "Budget and pace"). zod only (shared layer).
 */
import { z } from 'zod';
import { CostSchema, TokenTotalsSchema } from './usage';
import { UsageSinceSchema } from './usageReport';
import { PlanLimitSchema } from './limits';

export type { PlanLimit, SeatLimits, SeatWindow } from './limits';

/** One 5-hour block (an estimate): its span, what it counted, and, while active, its burn rate and projection. */
export const BlockSchema = z.object({
  start: z.string(),
  end: z.string(),
  lastEntry: z.string(),
  active: z.boolean(),
  totals: TokenTotalsSchema,
  /** Null when any message in it has no price (unknown, never a partial sum). */
  cost: CostSchema.nullable(),
  /** Messages counted, each once (by message id and request id). */
  entries: z.number().int().nonnegative(),
  burn: z.object({ tokensPerMinute: z.number().nonnegative(), usdPerHour: z.number().nonnegative().nullable() }).optional(),
  projected: z.object({ tokens: z.number().int().nonnegative(), usd: z.number().nonnegative().nullable() }).optional(),
});
export type Block = z.infer<typeof BlockSchema>;

/** `usage --blocks --json`: the blocks, oldest first, over the fleet's Claude seats or every journal. */
export const BlockReportSchema = z.object({
  at: z.string(),
  source: z.enum(['fleet', 'all-sessions']),
  /** True while some journal is still being counted: the newest blocks may grow. */
  partial: z.boolean(),
  blocks: z.array(BlockSchema),
});
export type BlockReport = z.infer<typeof BlockReportSchema>;

/** What `usage --by` groups by. */
export const UsageByKeySchema = z.enum(['day', 'role', 'harness', 'host']);
export type UsageByKey = z.infer<typeof UsageByKeySchema>;

/** One row of `usage --by`: a day, role, harness or host, with what its seats spent in the window. */
export const UsageByRowSchema = z.object({
  key: z.string(),
  totals: TokenTotalsSchema,
  /** Null when some spend in it has no known cost. */
  cost: CostSchema.nullable(),
  /** True when the history does not cover the whole window for it (a seat first sampled with tokens already spent). */
  partial: z.boolean(),
});
export type UsageByRow = z.infer<typeof UsageByRowSchema>;

/** `usage --by --json`. */
export const UsageByReportSchema = z.object({
  at: z.string(),
  by: UsageByKeySchema,
  since: z.string(),
  rows: z.array(UsageByRowSchema),
});
export type UsageByReport = z.infer<typeof UsageByReportSchema>;

/** The `budget` settings (settings.json): when to warn. */
export const BudgetSettingsSchema = z.object({
  contextWarnPercent: z.number().int().min(1).max(100),
  windowWarnPercent: z.number().int().min(1).max(100),
  on: z.boolean(),
});
export type BudgetSettings = z.infer<typeof BudgetSettingsSchema>;

/** The pace panel's answer: windows, the active block, cost by role today and over 7 days, and the settings. */
export const PaceSchema = z.object({
  at: z.string(),
  limits: z.array(PlanLimitSchema),
  block: BlockSchema.nullable(),
  blocksPartial: z.boolean(),
  roles: z.object({ today: z.array(UsageByRowSchema), week: z.array(UsageByRowSchema) }),
  budget: BudgetSettingsSchema,
});
export type Pace = z.infer<typeof PaceSchema>;

/** The `usage.by` request. */
export const UsageByRequestSchema = z.object({ by: UsageByKeySchema, since: UsageSinceSchema.optional() }).strict();
