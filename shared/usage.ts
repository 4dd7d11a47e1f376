/**
 * A seat's token usage: how full its context is and what its session has spent, as the harness recorded it.
 * zod only (shared layer). `absent` on a seat means unknown; `context: null` means the harness gave no context
 * figure; `fill: null` means the window is not known (never a guessed window).
 */
import { z } from 'zod';
import { SeatLimitsSchema } from './limits';

/** Largest token count accepted from a record; larger is absurd and the record is skipped. */
export const USAGE_TOKENS_MAX = 1e12;

/** Largest cost one usage record may carry, in US dollars; more is absurd and the record's cost is not known. */
export const USAGE_RECORD_USD_MAX = 10_000;
/** Largest cost a seat or a sum may show, in US dollars; a larger sum is not known (never Infinity). */
export const USAGE_USD_MAX = 1e9;
/** Largest context fill shown (used / window): past it the figures disagree with the window, so fill is not known. */
export const CONTEXT_FILL_MAX = 1.5;

const tokens = z.number().int().nonnegative().max(USAGE_TOKENS_MAX);

/** Token totals, in tokens. `reasoning` is present only where the harness records it apart. */
export const TokenTotalsSchema = z.object({
  input: tokens,
  output: tokens,
  cacheRead: tokens,
  cacheWrite: tokens,
  reasoning: tokens.optional(),
});
export type TokenTotals = z.infer<typeof TokenTotalsSchema>;

/** Money spent, in US dollars; `estimated` is true when priced from the repo's dated table, false when recorded. */
export const CostSchema = z.object({ usd: z.number().nonnegative().max(USAGE_USD_MAX), estimated: z.boolean() });
export type Cost = z.infer<typeof CostSchema>;

/** One model's part of a seat's usage (with its subagents): its tokens and cost, null when it has no price. */
export const ModelUsageSchema = z.object({ model: z.string(), totals: TokenTotalsSchema, cost: CostSchema.nullable() });
export type ModelUsage = z.infer<typeof ModelUsageSchema>;

/** Context in use: tokens, the model's window (null when not known) and used / window (null when not known). */
export const ContextFillSchema = z.object({
  used: tokens,
  window: z.number().int().positive().nullable(),
  fill: z.number().nonnegative().max(CONTEXT_FILL_MAX).nullable(),
});

/** The `usage` projection of a seat (issue 26). `partial` is true while totals cover only part of the session. */
export const UsageSchema = z.object({
  context: ContextFillSchema.nullable(),
  totals: TokenTotalsSchema,
  partial: z.boolean(),
  model: z.string().optional(),
  cost: CostSchema.optional(),
  /** Usage records skipped as malformed (missing, negative, non-numeric or absurd figures). */
  skipped: z.number().int().nonnegative().optional(),
  /** The seat together with its subagents (Claude sidechains, Codex children, OpenCode child sessions). */
  withSubagents: z
    .object({ totals: TokenTotalsSchema, cost: CostSchema.optional(), partial: z.boolean() })
    .optional(),
  /** The seat with its subagents, by model (issue 37), the most tokens first. */
  models: z.array(ModelUsageSchema).optional(),
  /** Plan windows and a usage limit the harness recorded (issue 41). */
  limits: SeatLimitsSchema.optional(),
  /** A past moment's usage (issue 38): when these figures were recorded (ISO), the latest sample at or before it. */
  recordedAt: z.string().optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

/** A subagent's own token totals (its transcript, child rollout or child session), for trays and the jobs board. */
export const SubagentUsageSchema = z.object({
  totals: TokenTotalsSchema,
  cost: CostSchema.optional(),
  partial: z.boolean(),
});
export type SubagentUsage = z.infer<typeof SubagentUsageSchema>;

/** Totals summed over several seats; `partial` when any of them is partial, `unpriced` seats have no cost in `cost`. */
export const UsageSumSchema = z.object({
  totals: TokenTotalsSchema,
  cost: CostSchema.optional(),
  partial: z.boolean(),
  /** How many seats (with subagents) had tokens but no price, so `cost` leaves them out. */
  unpriced: z.number().int().nonnegative(),
  /**
   * Issue 36: how many seats (or hosts) were left out because adding them would carry a total past
   * USAGE_TOKENS_MAX; the sum is then partial, never capped at the bound. Absent means none.
   */
  skippedSeats: z.number().int().positive().optional(),
});
export type UsageSum = z.infer<typeof UsageSumSchema>;

/** The fleet HUD line: tokens and cost since local midnight, and for the open seats (with their subagents). */
export const FleetUsageSchema = z.object({
  /** Local midnight of the main process, ISO: the start of "today". */
  since: z.string(),
  today: UsageSumSchema,
  open: UsageSumSchema,
  /** Remote hosts whose usage is not in the sums (unreachable, not reached yet, or reporting none); the sums are then partial. */
  unknownHosts: z.array(z.string()).max(256).optional(),
});
export type FleetUsage = z.infer<typeof FleetUsageSchema>;
