/**
 * The usage report (`usage.read`, `pixelfleet usage --json`, issue 26): one row per seat and a total row. The shape
 * is an interface: keys and their meaning are fixed (README "Usage"). zod only (shared layer).
 */
import { z } from 'zod';
import { HarnessSchema } from './schemas';
import { ContextFillSchema, CostSchema, ModelUsageSchema, TokenTotalsSchema, UsageSumSchema } from './usage';
import { PlanLimitSchema } from './limits';

/** The windows `--since` accepts: since local midnight, the last 24 hours, the last 7 days. */
export const UsageSinceSchema = z.enum(['today', '24h', '7d']);
export type UsageSince = z.infer<typeof UsageSinceSchema>;

/** One seat's row: its totals with its subagents (since the window's start when one is asked), context and cost. */
export const UsageRowSchema = z.object({
  seat: z.string(),
  persona: z.string(),
  harness: HarnessSchema,
  /** The model of the seat's last message; null when not known. */
  model: z.string().nullable(),
  /** Context in use now (not windowed by `since`); null when the records give none. */
  context: ContextFillSchema.nullable(),
  totals: TokenTotalsSchema,
  /** Absent (null) when any message had no price or recorded cost: unknown, never zero. */
  cost: CostSchema.nullable(),
  /** True while the totals cover only part of the session (shown as "≥"). */
  partial: z.boolean(),
  /** Usage records skipped as malformed. */
  skipped: z.number().int().nonnegative(),
  /** The row's totals by model (issue 37): they add up to the row's totals; a model without a price has cost null. */
  models: z.array(ModelUsageSchema),
  /** The remote the seat runs on (issue 42); absent for this machine's seats. */
  host: z.string().optional(),
});
export type UsageRow = z.infer<typeof UsageRowSchema>;

/** The whole report; `since` is the window's start (ISO) or null for whole sessions. */
export const UsageReportSchema = z.object({
  at: z.string(),
  since: z.string().nullable(),
  seats: z.array(UsageRowSchema),
  total: UsageSumSchema,
  /** The newest plan-window record per harness and window among the seats, and usage limits hit (issue 41). */
  limits: z.array(PlanLimitSchema),
  /** Rate-limit records the seats skipped as bad (missing or absurd fields, resets in the past or far ahead). */
  limitsSkipped: z.number().int().nonnegative(),
  /**
   * Each listed remote's HUD sums (today since its local midnight, and its open seats); null while it cannot be reached
   * (unknown, never zero). Absent when this end joins no remotes (`serve --stdio`).
   */
  hosts: z.array(z.object({ host: z.string(), today: UsageSumSchema.nullable(), open: UsageSumSchema.nullable() })).optional(),
});
export type UsageReport = z.infer<typeof UsageReportSchema>;
