// The seat's usage checked again where it is summed (issue 36): context, fill and cost always pass the contract.
import { describe, expect, it } from 'vitest';
import { UsageSchema } from '../../../shared/usage';
import { seatUsage } from './seatUsage';
import { addFigures, createTally } from './tally';

const own = () => {
  const tally = createTally('recorded');
  addFigures(tally, { input: 10, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: null }, null, null, 0.5);
  return tally;
};

describe('seat usage bounds', () => {
  it('a fill past the bound (101000 %) is not shown: fill unknown, the figures kept', () => {
    const { usage } = seatUsage({ own: own(), partial: false, subagents: [], subagentsPartial: false, contextUsed: 1_010_000_000, window: 1_000_000, model: null });
    expect(usage.context).toEqual({ used: 1_010_000_000, window: 1_000_000, fill: null });
    expect(UsageSchema.safeParse(usage).success).toBe(true);
  });

  it('a seat with its subagents past 10^12 tokens has withSubagents unknown, never capped at the bound (issue 36)', () => {
    const half = () => {
      const tally = createTally('recorded');
      addFigures(tally, { input: 6e11, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: null }, null, 'm', 0.5);
      return tally;
    };
    const { usage } = seatUsage({ own: half(), partial: false, subagents: [half()], subagentsPartial: false, contextUsed: 5, model: 'm' });
    expect(usage.totals.input).toBe(6e11);
    expect(usage.withSubagents).toBeUndefined();
    expect(usage.models ?? []).toEqual([]);
    expect(UsageSchema.safeParse(usage).success).toBe(true);
  });

  it('a context past 10^12 is unknown', () => {
    const { usage } = seatUsage({ own: own(), partial: false, subagents: [], subagentsPartial: false, contextUsed: 2.7e12, model: null });
    expect(usage.context).toBeNull();
  });

  it('a cost sum past the bound or Infinity is unknown, never Infinity', () => {
    const tally = own();
    tally.sum.usd = Infinity;
    const big = own();
    big.sum.usd = 1.8e302;
    for (const input of [tally, big]) {
      const { usage } = seatUsage({ own: input, partial: false, subagents: [input], subagentsPartial: false, contextUsed: 5, model: null });
      expect(usage.cost).toBeUndefined();
      expect(usage.withSubagents?.cost).toBeUndefined();
      expect(UsageSchema.safeParse(usage).success).toBe(true);
    }
  });
});
