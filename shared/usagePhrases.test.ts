// The words of token usage: compact figures, "≥" for partial totals, "est." for table prices, unknown said so.
import { describe, expect, it } from 'vitest';
import type { Usage, UsageSum } from './usage';
import { clockMinutesText, clockText, harnessText, NO_ROLE, roleText, compactNumber, contextText, costText, dollarsText, durationText, shortDurationText, sumText, tokensText, totalTokens, usageLines } from './usagePhrases';

const totals = { input: 1200, output: 300, cacheRead: 40_000, cacheWrite: 2000 };

describe('usage phrases', () => {
  it('sums input, output and cache tokens, and never adds reasoning (one harness counts it inside output)', () => {
    expect(totalTokens(totals)).toBe(43_500);
    expect(totalTokens({ ...totals, reasoning: 500 })).toBe(43_500);
  });

  it('writes figures in at most three significant digits with k, M and B, cut so a lower bound stays one', () => {
    expect([0, 7, 999, 1000, 1234, 12_345, 123_456, 999_950, 1_000_000, 1_299_999, 45_600_000, 4_560_000_000].map(compactNumber)).toEqual([
      '0', '7', '999', '1k', '1.2k', '12k', '123k', '999k', '1M', '1.2M', '45M', '4.5B',
    ]);
    expect(compactNumber(Number.NaN)).toBe('?');
    expect(compactNumber(-1)).toBe('?');
  });

  it('marks partial token counts "≥" and nothing else', () => {
    expect(tokensText(1_200_000, false)).toBe('1.2M tok');
    expect(tokensText(1_200_000, true)).toBe('≥1.2M tok');
  });

  it('writes dollars short, a price from the table as estimated, a lower bound with "≥"', () => {
    expect([0, 0.004, 0.01, 3.414, 99.999, 341.2, 12_345].map(dollarsText)).toEqual(['$0.00', '<$0.01', '$0.01', '$3.41', '$100.00', '$341', '$12k']);
    expect(costText({ usd: 3.41, estimated: true }, false)).toBe('$3.41 est.');
    expect(costText({ usd: 3.41, estimated: false }, false)).toBe('$3.41');
    expect(costText({ usd: 3.41, estimated: true }, true)).toBe('≥$3.41 est.');
  });

  it('says context used over window, and unknown where a figure is missing', () => {
    expect(contextText({ used: 150_000, window: 200_000, fill: 0.75 })).toBe('150k / 200k (75 %)');
    expect(contextText({ used: 150_000, window: null, fill: null })).toBe('150k / window unknown');
    expect(contextText(null)).toBe('unknown');
    expect(contextText(undefined)).toBe('unknown');
  });

  it('sums a HUD part with "≥" while partial or while seats have no price, and says when none has one', () => {
    const sum: UsageSum = { totals, cost: { usd: 3.41, estimated: true }, partial: false, unpriced: 0 };
    expect(sumText(sum)).toBe('43k tok · $3.41 est.');
    expect(sumText({ ...sum, partial: true })).toBe('≥43k tok · ≥$3.41 est.');
    expect(sumText({ ...sum, unpriced: 2 })).toBe('43k tok · ≥$3.41 est. · 2 unpriced');
    expect(sumText({ totals, partial: false, unpriced: 1 })).toBe('43k tok · no price · 1 unpriced');
    // Nothing recorded is unknown, never "0 tok · $0.00".
    expect(sumText({ totals: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, partial: false, unpriced: 0 })).toBe('usage unknown');
    expect(sumText({ totals: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, partial: false, unpriced: 0, cost: { usd: 0, estimated: true } } as never)).toBe('usage unknown');
  });

  it('gives the hover lines of a seat: model, context, totals, subagents, cost and skipped records', () => {
    const usage: Usage = {
      context: { used: 170_000, window: 200_000, fill: 0.85 },
      totals: { ...totals, reasoning: 120 },
      partial: true,
      model: 'model-x',
      cost: { usd: 1.5, estimated: true },
      skipped: 2,
      withSubagents: { totals: { input: 2_000_000, output: 0, cacheRead: 0, cacheWrite: 0 }, cost: { usd: 6, estimated: true }, partial: false },
      models: [
        { model: 'model-x', totals: { input: 1_990_000, output: 0, cacheRead: 0, cacheWrite: 0 }, cost: { usd: 5.97, estimated: true } },
        { model: 'model-y', totals: { input: 10_000, output: 0, cacheRead: 0, cacheWrite: 0 }, cost: null },
      ],
    };
    expect(usageLines(usage)).toEqual({
      asOf: null,
      model: 'model model-x',
      context: 'context 170k / 200k (85 %)',
      totals: 'session ≥43k tok (in 1.2k · out 300 · cache read 40k · cache write 2k · reasoning 120)',
      withSubagents: 'with subagents 2M tok · $6.00 est.',
      cost: 'cost ≥$1.50 est.',
      skipped: '2 usage records skipped as malformed',
      models: 'by model: model-x 1.9M tok $5.97 est. · model-y 10k tok no price',
    });
    const plain = usageLines({ context: null, totals, partial: false });
    expect(plain).toMatchObject({ model: 'model unknown', context: 'context unknown', cost: 'cost: no price for this model', withSubagents: null, skipped: null });
    expect(plain.totals).toBe('session 43k tok (in 1.2k · out 300 · cache read 40k · cache write 2k)');
    expect(usageLines({ context: null, totals, partial: false, skipped: 0 }).skipped).toBeNull();
    expect(plain.models).toBeNull();
    expect(usageLines(undefined)).toEqual({ asOf: null, model: 'model unknown', context: 'context unknown', totals: 'tokens unknown', withSubagents: null, cost: 'cost unknown', skipped: null, models: null });
  });
});

describe('one style of times and durations for the page and the CLI', () => {
  it('writes clock times on a 24-hour clock', () => {
    const afternoon = new Date(2026, 0, 2, 14, 5, 9).getTime();
    expect(clockText(afternoon)).toBe('14:05:09');
    expect(clockText(new Date(afternoon).toISOString())).toBe('14:05:09');
    expect(clockMinutesText(afternoon)).toBe('14:05');
    expect(clockText('not a time')).toBe('not a time');
  });

  it('writes durations in one set of words, two units or one', () => {
    expect([26_000, 67_000, 9 * 60_000, 3_900_000, 7_200_000, 90_000_000].map(durationText)).toEqual(['26 s', '1 min 7 s', '9 min', '1 h 5 min', '2 h', '1 d 1 h']);
    expect([26_000, 67_000, 3_900_000, 90_000_000].map(shortDurationText)).toEqual(['26 s', '1 min', '1 h', '1 d']);
    expect(durationText(Number.NaN)).toBe('?');
  });
});

describe('names as every panel and the CLI write them (issue 38)', () => {
  it('a built-in role is capitalised like a name in any stored casing; a custom role keeps its owner\'s casing; none is "no role"', () => {
    expect(roleText('planner')).toBe('Planner');
    expect(roleText('BUILDER')).toBe('Builder');
    expect(roleText('Sound Designer')).toBe('Sound Designer');
    expect(roleText('diseñadora')).toBe('diseñadora');
    expect([null, undefined, ''].map(roleText)).toEqual([NO_ROLE, NO_ROLE, NO_ROLE]);
    expect(NO_ROLE).toBe('no role');
  });

  it('a harness reads "Claude Code", "Codex", "OpenCode"; an id this build does not know, as given', () => {
    expect(['claude', 'codex', 'opencode', 'gemini'].map(harnessText)).toEqual(['Claude Code', 'Codex', 'OpenCode', 'gemini']);
    expect(harnessText('constructor')).toBe('constructor');
  });
});

describe('past usage on the card (issue 38)', () => {
  it('says when the figures shown were recorded, and shows them rather than "unknown"', () => {
    const recordedAt = new Date(2026, 11, 7, 2, 8, 30).toISOString();
    const lines = usageLines({ context: { used: 1000, window: 200_000, fill: 0.005 }, totals: { input: 1200, output: 300, cacheRead: 0, cacheWrite: 0 }, partial: false, cost: { usd: 0.02, estimated: true }, recordedAt });
    expect(lines.asOf).toBe('usage as recorded at 02:08:30');
    expect(lines.totals).toBe('session 1.5k tok (in 1.2k · out 300 · cache read 0 · cache write 0)');
    expect(lines.cost).toBe('cost $0.02 est.');
  });
});
