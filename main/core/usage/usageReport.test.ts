// Totals that add up (issue 37, cause 6): every total is the sum of its rows; a seat whose own model is unpriced
// shows no cost and none of its dollars (its subagents' included) reach the total cost, which counts it in `unpriced`.
import { describe, expect, it } from 'vitest';
import type { FleetSnapshot } from '../../../shared/schemas';
import { UsageReportSchema } from '../../../shared/usageReport';
import { seatUsage } from '../../kit/usage/seatUsage';
import { addFigures, createTally } from '../../kit/usage/tally';
import { usageReport } from './usageReport';

const figures = (input: number, output: number) => ({ input, output, cacheRead: 0, cacheWrite: 0, reasoning: null });
const at = Date.parse('2026-05-02T10:00:00.000Z');

describe('usage report totals', () => {
  it('cause 6: the total cost is the sum of the rows that show one; unpriced seats are counted apart', () => {
    // Seat A: its own model unpriced, one priced subagent (Haiku 4.5: 1,000 in × $1 + 100 out × $5 = $0.0015).
    const ownA = createTally('estimated');
    addFigures(ownA, figures(500, 50), at, 'claude-opus-4-9');
    const childA = createTally('estimated');
    addFigures(childA, figures(1_000, 100), at, 'claude-haiku-4-5');
    const a = seatUsage({ own: ownA, partial: false, subagents: [childA], subagentsPartial: false, contextUsed: null, model: 'claude-opus-4-9' });
    // Seat B: Sonnet 4.5, 2,000 in × $3 + 200 out × $15 = $0.009.
    const ownB = createTally('estimated');
    addFigures(ownB, figures(2_000, 200), at, 'claude-sonnet-4-5');
    const b = seatUsage({ own: ownB, partial: false, subagents: [], subagentsPartial: false, contextUsed: null, model: 'claude-sonnet-4-5' });
    expect(a.usage.cost).toBeUndefined();
    expect(a.usage.withSubagents?.cost).toBeUndefined();
    const seats = [
      { id: 'claude:a', personaId: 'pa', harness: 'claude', usage: a.usage },
      { id: 'claude:b', personaId: 'pb', harness: 'claude', usage: b.usage },
    ];
    const snapshot = { personas: [{ id: 'pa', name: 'Ada' }, { id: 'pb', name: 'Bo' }], seats } as unknown as FleetSnapshot;
    const tallies = new Map([['claude:a', a.tally], ['claude:b', b.tally]]);
    const report = UsageReportSchema.parse(usageReport(snapshot, (id) => ({ tally: tallies.get(id)!, partial: false }), undefined, at));
    const [rowA, rowB] = report.seats;
    expect(rowA.cost).toBeNull();
    expect(rowA.models).toEqual([
      { model: 'claude-haiku-4-5', totals: { input: 1_000, output: 100, cacheRead: 0, cacheWrite: 0 }, cost: { usd: 0.0015, estimated: true } },
      { model: 'claude-opus-4-9', totals: { input: 500, output: 50, cacheRead: 0, cacheWrite: 0 }, cost: null },
    ]);
    expect(rowB.cost).toEqual({ usd: 0.009, estimated: true });
    // Tokens: the sum of both rows; cost: row B's only (not $0.0105 with seat A's subagent), one seat unpriced.
    expect(report.total).toEqual({ totals: { input: 3_500, output: 350, cacheRead: 0, cacheWrite: 0 }, cost: { usd: 0.009, estimated: true }, partial: false, unpriced: 1 });
    // And each row's models add up to its totals.
    for (const row of report.seats) {
      const summed = row.models.reduce((sum, model) => sum + model.totals.input + model.totals.output, 0);
      expect(summed).toBe(row.totals.input + row.totals.output);
    }
  });
});
