// The fleet's usage line (today since local midnight, open seats) and the report's windows, over tallies folded here.
import { describe, expect, it } from 'vitest';
import { FleetUsageSchema } from '../../../shared/usage';
import { sumText } from '../../../shared/usagePhrases';
import { fleetUsage, localMidnight } from './fleetUsage';
import { addFigures, createTally } from '../../kit/usage/tally';
import { sinceStart } from './usageReport';

const HOUR = 3_600_000;
const now = new Date(2026, 11, 5, 15, 30).getTime(); // local time
const figures = (input: number, output: number) => ({ input, output, cacheRead: 0, cacheWrite: 0, reasoning: null });

describe('fleet usage', () => {
  it('sums today from the hour buckets since local midnight and the open seats over whole sessions', () => {
    const claude = createTally('estimated');
    addFigures(claude, figures(1_000, 100), localMidnight(now) - 2 * HOUR, 'claude-sonnet-4-5'); // yesterday
    addFigures(claude, figures(10, 1), localMidnight(now) + HOUR, 'claude-sonnet-4-5');
    const unknown = createTally('estimated');
    addFigures(unknown, figures(5, 5), now - HOUR, 'mystery-model');
    const openCode = createTally('recorded');
    addFigures(openCode, figures(20, 2), now - HOUR, null, 0.5);
    const line = FleetUsageSchema.parse(fleetUsage([{ tally: claude, partial: false }, { tally: unknown, partial: true }, { tally: openCode, partial: false }], now));
    expect(line.since).toBe(new Date(localMidnight(now)).toISOString());
    expect(line.today.totals).toEqual({ input: 35, output: 8, cacheRead: 0, cacheWrite: 0 });
    expect(line.open.totals).toEqual({ input: 1_035, output: 108, cacheRead: 0, cacheWrite: 0 });
    // One seat partial makes the line "≥"; the unknown model is counted as unpriced, its cost left out.
    expect(line.today).toMatchObject({ partial: true, unpriced: 1 });
    // (10×3 + 1×15)/1e6 estimated plus 0.5 recorded: an estimate.
    expect(line.today.cost).toEqual({ usd: 0.500045, estimated: true });
    expect(fleetUsage([], now)).toBeUndefined();
  });

  it('a seat that would carry a total past 10^12 is left out and counted, the sum partial, never capped at the bound (issue 36)', () => {
    const big = () => {
      const tally = createTally('estimated');
      addFigures(tally, figures(6e11, 10), now - HOUR, 'claude-sonnet-4-5');
      return { tally, partial: false };
    };
    const small = createTally('estimated');
    addFigures(small, figures(1_000, 10), now - HOUR, 'claude-sonnet-4-5');
    const line = FleetUsageSchema.parse(fleetUsage([big(), big(), { tally: small, partial: false }], now));
    for (const sum of [line.today, line.open]) {
      expect(sum.totals.input).toBe(6e11 + 1_000);
      expect(sum.totals.input).not.toBe(1e12);
      expect(sum).toMatchObject({ partial: true, skippedSeats: 1 });
    }
    expect(sumText(line.open)).toContain('1 past the bound, left out');
    expect(sumText(line.open).startsWith('≥')).toBe(true);
  });

  it('two seats of $10^302 each sum to no cost (unknown), never Infinity (issue 36)', () => {
    const seats = [0, 1].map(() => {
      const tally = createTally('recorded');
      addFigures(tally, figures(10, 1), now - HOUR, null, 1);
      tally.sum.usd = 1e302;
      for (const hour of Object.values(tally.hours)) hour.usd = 1e302;
      return { tally, partial: false };
    });
    const line = FleetUsageSchema.parse(fleetUsage(seats, now));
    expect(line.open.cost).toBeUndefined();
    expect(line.today.cost).toBeUndefined();
    expect(line.open.totals.input).toBe(20);
  });

  it('--since windows start at local midnight, or at the hour 24 hours or 7 days back', () => {
    expect(sinceStart('today', now)).toBe(localMidnight(now));
    expect(sinceStart('24h', now)).toBe(Math.floor((now - 24 * HOUR) / HOUR) * HOUR);
    expect(sinceStart('7d', now)).toBe(Math.floor((now - 7 * 24 * HOUR) / HOUR) * HOUR);
  });
});
