// The dated price table (issue 37): exact model ids, never a relative's price; 1-hour cache writes at 2× input; the
// long-context tier; every rate hand-checked against the vendors' list prices.
import { describe, expect, it } from 'vitest';
import { byModel, modelKey, PRICES, PRICES_DATE } from './prices';
import { addFigures, createTally, priceOf } from './tally';

const figures = (input: number, output: number, cacheRead = 0, cacheWrite = 0, cacheWrite1h?: number) => ({ input, output, cacheRead, cacheWrite, reasoning: null, ...(cacheWrite1h === undefined ? {} : { cacheWrite1h }) });

describe('price table', () => {
  it('is dated and names each model it prices in full', () => {
    expect(PRICES_DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const model of ['claude-opus-4-6', 'claude-opus-4-5', 'claude-sonnet-4-5', 'claude-sonnet-4-6', 'claude-haiku-4-5', 'gpt-5.1-codex', 'gpt-5-codex', 'gpt-5']) expect(PRICES[model]).toBeDefined();
  });

  it('matches release names of the same model: dates, provider prefixes, versions and window tags dropped', () => {
    expect(modelKey('claude-opus-4-5-20251101')).toBe('claude-opus-4-5');
    expect(modelKey('anthropic/claude-sonnet-4-5')).toBe('claude-sonnet-4-5');
    expect(modelKey('claude-opus-4-1@20250805')).toBe('claude-opus-4-1');
    expect(modelKey('claude-sonnet-4-5-20250929[1m]')).toBe('claude-sonnet-4-5');
    expect(modelKey('gpt-5-2025-08-07')).toBe('gpt-5');
    expect(modelKey('claude-opus-4-20250514')).toBe('claude-opus-4');
  });

  it('keys a model the same however many other ids were keyed between (its cache starts again when full)', () => {
    const first = modelKey('anthropic/Claude-Sonnet-4-5-20250929');
    for (let index = 0; index < 1000; index++) expect(modelKey(`vendor/model-${index}-2025-01-01`)).toBe(`model-${index}`);
    expect(modelKey('anthropic/Claude-Sonnet-4-5-20250929')).toBe(first);
    expect(first).toBe('claude-sonnet-4-5');
  });

  it('cause 4: a model the table does not name is unpriced, never priced as a relative', () => {
    // Opus 4.6 is named: its own $5 / $25, not Opus 4's $15 / $75 that a prefix match gave.
    expect(priceOf(figures(1_000_000, 1_000_000), 'claude-opus-4-6')).toBe(30);
    for (const model of ['claude-opus-4-9', 'claude-opus', 'claude-sonnet-4-5-preview', 'gpt-5.9-codex', 'mystery', null]) {
      expect(priceOf(figures(10, 10), model)).toBeNull();
      expect(byModel(PRICES, model)).toBeNull();
    }
    const tally = createTally('estimated');
    addFigures(tally, figures(10, 10), null, 'claude-opus-4-9');
    expect(tally.sum).toMatchObject({ usd: 0, unpriced: 1 });
  });

  it('cause 5: 1-hour cache writes cost 2× input, 5-minute writes 1.25× input', () => {
    // Sonnet 4.6 ($3 input, no long-context tier): 1M written, 400k of it for one hour: 600k × $3.75 + 400k × $6.
    expect(priceOf(figures(0, 0, 0, 1_000_000, 400_000), 'claude-sonnet-4-6')).toBeCloseTo(4.65, 10);
    expect(priceOf(figures(0, 0, 0, 1_000_000), 'claude-haiku-4-5')).toBeCloseTo(1.25, 10);
    expect(priceOf(figures(0, 0, 0, 1_000_000, 1_000_000), 'claude-haiku-4-5')).toBeCloseTo(2, 10);
    // A 1-hour figure larger than the writes is capped at them.
    expect(priceOf(figures(0, 0, 0, 100, 500), 'claude-opus-4-5')).toBeCloseTo(0.001, 10);
  });

  it('prices a Sonnet 4.5 request whose prompt passes 200k tokens whole at the long-context rates', () => {
    // 150k in + 50k read = 200k: not past the threshold, standard rates: 150k × $3 + 50k × $0.30 + 1k × $15.
    expect(priceOf(figures(150_000, 1_000, 50_000), 'claude-sonnet-4-5')).toBeCloseTo(0.45 + 0.015 + 0.015, 10);
    // 150k in + 50,001 read: past it, every token at $6 / $22.50 / $0.60.
    expect(priceOf(figures(150_000, 1_000, 50_001), 'claude-sonnet-4-5')).toBeCloseTo(0.9 + 0.0225 + 0.0300006, 10);
    // Opus 4.6's window is 1M at one rate: no tier.
    expect(priceOf(figures(300_000, 0), 'claude-opus-4-6')).toBeCloseTo(1.5, 10);
  });

  it('prices Codex models without a cache write charge', () => {
    // gpt-5.1-codex: $1.25 / $10, cached input $0.125.
    expect(priceOf(figures(1_000_000, 1_000_000, 1_000_000), 'gpt-5.1-codex')).toBeCloseTo(11.375, 10);
  });
});
