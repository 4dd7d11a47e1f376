/**
 * The demo's usage records (issue 26), in each harness's own format: Claude `message.usage` and `message.model`,
 * Codex `token_count` events with `info`, OpenCode assistant `tokens`, `cost`, `modelID`. Each seat's context grows
 * message by message and falls back as after a compaction, so the world shows calm, warning and alarm fills; the
 * first Claude seat stays past 80 %, the second runs a model no table knows. Deterministic, no random draws.
 */

/** A seat's usage profile: its model, its window, where its context starts and how it grows (fractions). */
interface Profile {
  model: string;
  window: number;
  start: number;
  step: number;
  /** Past this fill the context falls back to `start`, as after a compaction. */
  wrap: number;
}

const PROFILES: readonly Profile[] = [
  { model: 'claude-sonnet-4-5-20250929', window: 200_000, start: 0.84, step: 0.004, wrap: 0.97 },
  { model: 'claude-lab-preview', window: 200_000, start: 0.2, step: 0.01, wrap: 0.7 },
  { model: 'claude-opus-4-5-20251101', window: 200_000, start: 0.55, step: 0.008, wrap: 0.9 },
  { model: 'claude-haiku-4-5-20251001', window: 200_000, start: 0.1, step: 0.012, wrap: 0.75 },
];

/** One Claude assistant message's usage as Claude Code records it. */
export interface ClaudeUsageRecord {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens: number;
  /** The cache writes split by lifetime, as Claude Code 2.1 records them (issue 37: 1-hour writes cost 2× input). */
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

/** The usage of one demo seat, message after message. */
export class DemoUsage {
  private fill: number;
  /** Codex's running totals (its `total_token_usage` is cumulative). */
  private total = { input: 0, cached: 0, output: 0, reasoning: 0 };

  constructor(private readonly profile: Profile) {
    this.fill = profile.start;
  }

  /** Set when the context fell back (a compaction), until the seat takes it. */
  private compactedFrom: number | null = null;

  /** The model this seat runs. */
  get model(): string {
    return this.profile.model;
  }

  /** The context in use now (tokens), then grown for the next message. */
  private advance(): number {
    const used = Math.round(this.fill * this.profile.window);
    this.fill += this.profile.step;
    if (this.fill > this.profile.wrap) {
      this.fill = this.profile.start;
      this.compactedFrom = used;
    }
    return used;
  }

  /** The context (tokens) a compaction just summarised, once, or null: the Claude seat then writes its compaction. */
  takeCompaction(): number | null {
    const from = this.compactedFrom;
    this.compactedFrom = null;
    return from;
  }

  /** The next Claude message's usage: most of the context read from cache, a little written, the rest new. */
  claude(outputTokens: number): ClaudeUsageRecord {
    const used = this.advance();
    const written = Math.min(used, 600 + (outputTokens % 400));
    const input = Math.min(used - written, 12);
    // Most writes are kept for one hour (as Claude Code does for its prompt), the rest for five minutes.
    const hour = Math.round((written * 3) / 4);
    return {
      input_tokens: input,
      cache_creation_input_tokens: written,
      cache_read_input_tokens: used - written - input,
      output_tokens: outputTokens,
      cache_creation: { ephemeral_5m_input_tokens: written - hour, ephemeral_1h_input_tokens: hour },
    };
  }

  /** The next Codex `token_count` payload: cumulative totals, the last request's, and the window Codex records. */
  codex(outputTokens: number): Record<string, unknown> {
    const used = this.advance();
    const cached = Math.round(used * 0.9);
    const reasoning = Math.round(outputTokens / 3);
    const last = { input_tokens: used - outputTokens, cached_input_tokens: Math.min(cached, used - outputTokens), output_tokens: outputTokens, reasoning_output_tokens: reasoning, total_tokens: used };
    this.total.input += last.input_tokens;
    this.total.cached += last.cached_input_tokens;
    this.total.output += outputTokens;
    this.total.reasoning += reasoning;
    const total = {
      input_tokens: this.total.input,
      cached_input_tokens: this.total.cached,
      output_tokens: this.total.output,
      reasoning_output_tokens: this.total.reasoning,
      total_tokens: this.total.input + this.total.output,
    };
    return { type: 'token_count', info: { total_token_usage: total, last_token_usage: last, model_context_window: this.profile.window }, rate_limits: null };
  }

  /** An OpenCode assistant message's recorded usage fields: tokens, cost as OpenCode wrote it, model and provider. */
  openCode(outputTokens: number): Record<string, unknown> {
    const used = this.advance();
    const read = Math.round(used * 0.85);
    const write = Math.min(used - read, 900);
    const input = used - read - write;
    const cost = (input * 3 + outputTokens * 15 + read * 0.3 + write * 3.75) / 1_000_000;
    return {
      modelID: this.profile.model,
      providerID: this.profile.model.startsWith('claude') ? 'anthropic' : 'openai',
      tokens: { input, output: outputTokens, reasoning: 0, cache: { read, write } },
      cost: Math.round(cost * 1e8) / 1e8,
    };
  }
}

/** The Claude demo seat at `index`: the first past 80 %, the second an unknown model, then the others in turn. */
export function claudeDemoUsage(index: number): DemoUsage {
  return new DemoUsage(PROFILES[index % PROFILES.length]);
}

/** A Codex demo seat's usage (its window recorded by Codex itself), chosen from its thread id. */
export function codexDemoUsage(id: string): DemoUsage {
  const start = [0.3, 0.62, 0.86][hash(id) % 3];
  return new DemoUsage({ model: 'gpt-5.1-codex', window: 272_000, start, step: 0.01, wrap: Math.min(0.97, start + 0.2) });
}

/** An OpenCode demo seat's usage, chosen from its session id. */
export function openCodeDemoUsage(id: string): DemoUsage {
  const start = [0.25, 0.5, 0.82][hash(id) % 3];
  return new DemoUsage({ model: 'claude-sonnet-4-5', window: 200_000, start, step: 0.01, wrap: Math.min(0.96, start + 0.15) });
}

function hash(text: string): number {
  let value = 2166136261;
  for (let index = 0; index < text.length; index += 1) value = Math.imul(value ^ text.charCodeAt(index), 16777619) >>> 0;
  return value;
}

const codexSeats = new Map<string, DemoUsage>();
const openCodeSeats = new Map<string, DemoUsage>();

/** The `token_count` line a Codex demo seat writes after a model response (a tool step or a turn's end). */
export function codexUsageLines(id: string, step: { kind: string }, atMs: number): string[] {
  if (step.kind !== 'tool' && step.kind !== 'end') return [];
  let usage = codexSeats.get(id);
  if (!usage) codexSeats.set(id, (usage = codexDemoUsage(id)));
  const payload = usage.codex(120 + (atMs % 500));
  return [`${JSON.stringify({ timestamp: new Date(atMs).toISOString(), type: 'event_msg', payload })}\n`];
}

/**
 * A child session's one assistant message after another step finished: OpenCode sums each step's tokens and cost
 * into the message (format §4, `step-finish`), so the message carries the running total of its steps.
 */
export function openCodeStepFields(sessionId: string, before: Record<string, unknown> | null): Record<string, unknown> {
  const step = openCodeUsageFields(sessionId);
  const stepTokens = step.tokens as { input: number; output: number; reasoning: number; cache: { read: number; write: number } };
  const had = before?.tokens as typeof stepTokens | undefined;
  if (!had) return step;
  const tokens = { input: had.input + stepTokens.input, output: had.output + stepTokens.output, reasoning: had.reasoning + stepTokens.reasoning, cache: { read: had.cache.read + stepTokens.cache.read, write: had.cache.write + stepTokens.cache.write } };
  return { ...step, tokens, cost: Math.round(((before?.cost as number) + (step.cost as number)) * 1e8) / 1e8 };
}

/** The usage fields an OpenCode demo seat's finished assistant message records. */
export function openCodeUsageFields(sessionId: string): Record<string, unknown> {
  let usage = openCodeSeats.get(sessionId);
  if (!usage) openCodeSeats.set(sessionId, (usage = openCodeDemoUsage(sessionId)));
  return usage.openCode(200 + (sessionId.length * 37) % 300);
}
