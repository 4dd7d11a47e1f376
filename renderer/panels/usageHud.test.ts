// The fleet HUD line's text: today and open seats, "≥" while partial, unpriced seats noted, unknown said so.
import { describe, expect, it } from 'vitest';
import type { FleetUsage } from '../../shared/usage';
import { HUD_UNKNOWN, hudText, unpricedSeats } from './usageHud';

const totals = (input: number) => ({ input, output: 0, cacheRead: 0, cacheWrite: 0 });

describe('the usage HUD', () => {
  it('says tokens and cost today and for open seats, with "≥" while partial and the unpriced seats', () => {
    const usage: FleetUsage = {
      since: '2026-12-05T00:00:00.000+01:00',
      today: { totals: totals(1_234_567), cost: { usd: 3.41, estimated: true }, partial: true, unpriced: 1 },
      open: { totals: totals(820_000), cost: { usd: 2.1, estimated: true }, partial: false, unpriced: 0 },
    };
    expect(hudText(usage)).toBe('Today ≥1.2M tok · ≥$3.41 est. · 1 unpriced | Open seats 820k tok · $2.10 est.');
    expect(unpricedSeats(usage)).toBe(1);
  });

  it('says unknown, never zero, when the fleet reports no usage', () => {
    expect(hudText(undefined)).toBe(HUD_UNKNOWN);
    expect(unpricedSeats(undefined)).toBe(0);
  });

  it('counts remote hosts it cannot reach as unknown, by name, and partial; never "unknown" when some figures are known', () => {
    const known: FleetUsage = {
      since: '2026-12-05T00:00:00.000+01:00',
      today: { totals: totals(5000), cost: { usd: 0.5, estimated: true }, partial: true, unpriced: 0 },
      open: { totals: totals(5000), cost: { usd: 0.5, estimated: true }, partial: true, unpriced: 0 },
      unknownHosts: ['beta'],
    };
    expect(hudText(known)).toBe('Today ≥5k tok · ≥$0.50 est. | Open seats ≥5k tok · ≥$0.50 est. | beta not counted (usage unknown)');
    const none: FleetUsage = { ...known, today: { totals: totals(0), partial: true, unpriced: 0 }, open: { totals: totals(0), partial: true, unpriced: 0 }, unknownHosts: ['beta', 'gamma'] };
    expect(hudText(none)).toBe(`${HUD_UNKNOWN} (beta, gamma not counted)`);
  });
});
