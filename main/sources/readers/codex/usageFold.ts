/**
 * Codex usage, folded from the same rollout records as children and activity (issue 26). Pure.
 *
 * X1. `event_msg` with `payload.type == "token_count"` carries `info.total_token_usage` (the session's running
 *     totals), `info.last_token_usage` (the latest request) and `info.model_context_window`. An event whose `info`
 *     is null says nothing; a rollout without any `info` gives `context: null`.
 * X2. Context in use is Codex's own rule: `tokens_in_context_window()` of the last request's usage, i.e.
 *     `last_token_usage.total_tokens` (codex-rs/protocol/src/protocol.rs, `TokenUsage`); the window is the recorded
 *     `model_context_window` (null when absent), never the model table.
 * X3. Totals come from the running totals: each event adds what grew since the one before (its hour gets it); a total
 *     that went down starts a new run (a resumed session). Codex's `input_tokens` include the cached ones, so input
 *     = input − cached, cache read = cached; Codex records no cache writes (0) and its reasoning apart.
 * X4. Figures missing, negative, non-numeric or absurd skip the event, counted in `skipped`.
 * X5. The model is the last `turn_context.model`; cost is priced from the dated table (an estimate).
 * X6. A forked rollout (its header names `forked_from_id`, or a later `session_meta` starts a copy of the parent's)
 *     replays the parent's history up to its own first `turn_context`: the replayed `token_count` events are the
 *     parent's usage, already counted in the parent's rollout, so they only set where the fork's own growth starts.
 */
import { asObject, asText, type Json } from '../kit/json';
import { addFigures, createTally, tokenFigure, type Figures, type Tally } from '../../../kit/usage/tally';
import { createLimitFold, foldRateLimits, type LimitFold } from '../../../kit/usage/limits';

/** One rollout's usage fold. */
export interface CodexUsageFold {
  tally: Tally;
  /** The last running totals seen (rule X3), null before the first. */
  lastTotal: Figures | null;
  contextUsed: number | null;
  window: number | null;
  model: string | null;
  /** Rule X6: inside a fork's copy of its parent's history (until its own first `turn_context`). */
  replaying: boolean;
  /** A `session_meta` was seen (the next one starts a copied history). */
  sawHeader: boolean;
  /** Plan windows from `rate_limits` (issue 41, rules L1–L3). */
  limits: LimitFold;
}

/** A fresh fold. */
export function createCodexUsage(): CodexUsageFold {
  return { tally: createTally('estimated'), lastTotal: null, contextUsed: null, window: null, model: null, replaying: false, sawHeader: false, limits: createLimitFold() };
}

/** A Codex `TokenUsage` as figures (rule X3), or null when malformed (rule X4). */
export function codexFigures(value: unknown): (Figures & { total: number }) | null {
  const usage = asObject(value);
  if (!usage) return null;
  const input = tokenFigure(usage.input_tokens);
  const cached = tokenFigure(usage.cached_input_tokens ?? 0);
  const output = tokenFigure(usage.output_tokens);
  const reasoning = tokenFigure(usage.reasoning_output_tokens ?? 0);
  const total = tokenFigure(usage.total_tokens ?? (typeof usage.input_tokens === 'number' && typeof usage.output_tokens === 'number' ? usage.input_tokens + usage.output_tokens : undefined));
  if (input === null || cached === null || output === null || reasoning === null || total === null) return null;
  return { input: Math.max(0, input - cached), cacheRead: Math.min(cached, input), cacheWrite: 0, output, reasoning, total };
}

/** Folds one parsed rollout record (envelope `type`, its `payload`, its timestamp). */
export function foldCodexUsage(fold: CodexUsageFold, type: unknown, payload: Json, at: string | null): void {
  if (type === 'session_meta') {
    // Rule X6: a fork's header, or the parent's header copied after it, begins the replayed history.
    if (fold.sawHeader || asText(payload.forked_from_id)) fold.replaying = true;
    fold.sawHeader = true;
    return;
  }
  if (type === 'turn_context') {
    fold.replaying = false;
    const model = asText(payload.model);
    if (model) fold.model = model;
    return;
  }
  if (type !== 'event_msg' || payload.type !== 'token_count') return;
  foldRateLimits(fold.limits, payload.rate_limits, at); // issue 41: recorded even when `info` is null
  if (payload.info === null || payload.info === undefined) return; // rule X1
  const info = asObject(payload.info);
  const total = codexFigures(info?.total_token_usage);
  const last = info?.last_token_usage === undefined ? null : codexFigures(info.last_token_usage);
  const window = info?.model_context_window;
  const windowOk = window === undefined || window === null || (typeof window === 'number' && Number.isInteger(window) && window > 0 && window <= 1e12);
  if (!info || !total || (info.last_token_usage !== undefined && !last) || !windowOk) {
    fold.tally.skipped += 1;
    return;
  }
  if (fold.replaying) {
    // Rule X6: the parent's running totals, counted in the parent: the fork's own growth is measured from them.
    fold.lastTotal = { input: total.input, output: total.output, cacheRead: total.cacheRead, cacheWrite: 0, reasoning: total.reasoning };
    return;
  }
  const previous = fold.lastTotal;
  const grew: Figures = previous === null || wentDown(previous, total) ? { ...total } : {
    input: total.input - previous.input,
    output: total.output - previous.output,
    cacheRead: total.cacheRead - previous.cacheRead,
    cacheWrite: 0,
    reasoning: (total.reasoning ?? 0) - (previous.reasoning ?? 0),
  };
  fold.lastTotal = { input: total.input, output: total.output, cacheRead: total.cacheRead, cacheWrite: 0, reasoning: total.reasoning };
  const atMs = at === null ? Number.NaN : Date.parse(at);
  // A record skipped for totals (its sum would pass the bound) never feeds the context.
  if (!addFigures(fold.tally, { input: grew.input, output: grew.output, cacheRead: grew.cacheRead, cacheWrite: 0, reasoning: grew.reasoning }, Number.isNaN(atMs) ? null : atMs, fold.model)) return;
  if (last) fold.contextUsed = last.total; // rule X2
  fold.window = typeof window === 'number' ? window : null;
}

function wentDown(previous: Figures, now: Figures): boolean {
  return now.input < previous.input || now.output < previous.output || now.cacheRead < previous.cacheRead || (now.reasoning ?? 0) < (previous.reasoning ?? 0);
}
