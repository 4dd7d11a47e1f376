/**
 * The seat's `usage` projection from its tallies (pure): context fill, totals, cost, partial, and the seat with its
 * subagents. A window comes from the harness's own record or the model table, never a guess.
 */
import { CONTEXT_FILL_MAX, type SubagentUsage, type Usage } from '../../../shared/usage';
import { CONTEXT_WINDOWS } from './bounds';
import { byModel } from './prices';
import { costOf, mergeTallies, modelsOf, tokenFigure, totalsOf, withinTokenBound, type Tally } from './tally';
import type { SeatLimits } from '../../../shared/limits';

/** What a reader hands over to build a seat's usage. */
export interface SeatUsageInput {
  /** The seat's own tally (its main chain). */
  own: Tally;
  /** True while `own` covers only part of the session. */
  partial: boolean;
  /** Subagents' tallies (inline sidechains, child files, child rollouts, child sessions) and whether any is partial. */
  subagents: readonly Tally[];
  subagentsPartial: boolean;
  /** Tokens in context now, null when the records give none. */
  contextUsed: number | null;
  /** The window as the harness recorded it; undefined: look the model up in the table; null: not known. */
  window?: number | null;
  model: string | null;
  /** Plan windows and a usage limit the harness recorded (issue 41); absent when none. */
  limits?: SeatLimits;
}

/** The seat's usage and the tally of the seat with its subagents (whose hours feed "today" and `--since`). */
export interface SeatUsage {
  usage: Usage;
  tally: Tally;
}

/** Builds the contract's `usage` of a seat. */
export function seatUsage(input: SeatUsageInput): SeatUsage {
  const window = input.window === undefined ? byModel(CONTEXT_WINDOWS, input.model) : input.window;
  // Checked again where summed: a context past the token bound is not known; a fill past CONTEXT_FILL_MAX is not shown.
  const used = tokenFigure(input.contextUsed);
  const known = window && Number.isInteger(window) && window > 0 && window <= 1e12 ? window : null;
  const fill = used !== null && known !== null ? round(used / known) : null;
  const context = used === null ? null : { used, window: known, fill: fill !== null && fill <= CONTEXT_FILL_MAX ? fill : null };
  const own = input.own;
  const usage: Usage = { context, totals: totalsOf(own.sum, own.hasReasoning), partial: input.partial };
  if (input.model) usage.model = input.model;
  if (input.limits) usage.limits = input.limits;
  const cost = costOf(own.sum, own.costKind);
  if (cost) usage.cost = cost;
  const all = mergeTallies(own.costKind, [own, ...input.subagents]);
  if (all.skipped > 0) usage.skipped = all.skipped;
  // A seat with its subagents past the token bound is not known (never capped at the bound): withSubagents absent.
  if (input.subagents.length > 0 && withinTokenBound(all.sum)) {
    const withCost = costOf(all.sum, all.costKind);
    usage.withSubagents = { totals: totalsOf(all.sum, all.hasReasoning), partial: input.partial || input.subagentsPartial, ...(withCost ? { cost: withCost } : {}) };
  }
  const models = modelsOf(all.models, all.costKind, all.hasReasoning);
  if (models.length > 0) usage.models = models;
  return { usage, tally: all };
}

/** A subagent's own usage from its tally. */
export function subagentUsage(tally: Tally, partial: boolean): SubagentUsage {
  const cost = costOf(tally.sum, tally.costKind);
  return { totals: totalsOf(tally.sum, tally.hasReasoning), partial, ...(cost ? { cost } : {}) };
}

function round(fill: number): number {
  return Math.round(fill * 10_000) / 10_000;
}
