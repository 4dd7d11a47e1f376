/**
 * A seat's plan records (issue 41): the windows its harness recorded and the usage limit it hit. Kept apart from
 * shared/pace.ts so the seat's usage can carry them without a cycle. zod only (shared layer).
 */
import { z } from 'zod';

/** A window's used share in percent: recorded by the harness, 0–100 (a figure outside is skipped, never shown). */
export const percent = z.number().min(0).max(100);

/** A seat's newest record of one plan window (Codex `rate_limits.primary` / `.secondary`). */
export const SeatWindowSchema = z.object({
  window: z.enum(['primary', 'secondary']),
  /** The window's length in minutes; null when the record does not say. */
  minutes: z.number().int().positive().nullable(),
  usedPercent: percent,
  /** When the window resets (ISO); null when the record does not say. */
  resetsAt: z.string().nullable(),
  /** The record's own time (ISO). */
  recordedAt: z.string(),
});
export type SeatWindow = z.infer<typeof SeatWindowSchema>;

/** A seat's plan records: its windows, the usage limit it hit (Claude), and the records skipped as bad. */
export const SeatLimitsSchema = z.object({
  windows: z.array(SeatWindowSchema),
  /** The harness said a usage limit was reached; `resetsAt` null when its message names no readable time. */
  limited: z.object({ resetsAt: z.string().nullable(), recordedAt: z.string() }).nullable(),
  /** Rate-limit records skipped: missing or absurd fields, a reset in the past or far future, a time out of order. */
  skipped: z.number().int().nonnegative(),
});
export type SeatLimits = z.infer<typeof SeatLimitsSchema>;


/** One entry of `usage --json`'s `limits`: the newest record per harness and window among the fleet's seats. */
export const PlanLimitSchema = z.union([
  z.object({
    harness: z.enum(['claude', 'codex', 'opencode']),
    window: z.enum(['primary', 'secondary']),
    minutes: z.number().int().positive().nullable(),
    usedPercent: percent,
    resetsAt: z.string().nullable(),
    recordedAt: z.string(),
    seatId: z.string(),
  }),
  z.object({ harness: z.literal('claude'), limited: z.literal(true), resetsAt: z.string().nullable(), recordedAt: z.string(), seatId: z.string() }),
]);
export type PlanLimit = z.infer<typeof PlanLimitSchema>;

/** How long a usage limit without a readable reset time is still shown (ms): one 5-hour window. */
const LIMITED_UNKNOWN_RESET_MS = 5 * 3_600_000;

/** True while a limit hit is still in force at `nowMs`. */
export function stillLimited(limited: { resetsAt: string | null; recordedAt: string }, nowMs: number): boolean {
  return limited.resetsAt === null ? nowMs - Date.parse(limited.recordedAt) < LIMITED_UNKNOWN_RESET_MS : Date.parse(limited.resetsAt) > nowMs;
}

/** "limited until HH:MM" (local time) while a seat's usage limit holds, "limited (reset time unknown)", or null. */
export function limitedText(limits: SeatLimits | undefined, nowMs: number): string | null {
  const limited = limits?.limited;
  if (!limited || !stillLimited(limited, nowMs)) return null;
  if (limited.resetsAt === null) return 'limited (reset time unknown)';
  const at = new Date(limited.resetsAt);
  return `limited until ${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
}
