// Doctor names what the fleet's seat guard would drop (issue 36), so the harness is `unreadable` (exit 2).
import { describe, expect, it } from 'vitest';
import type { SeatAddress } from '../../../shared/schemas';
import { EMPTY_BASIS } from '../../sources/readers/kit/activityBasis';
import { contractFaults } from './gather';
import { harnessReport, VERDICT_EXIT } from './report';

const seat: SeatAddress = { harness: 'opencode', home: '/db', sessionId: 'ses_x', cwd: null, path: null };
const projection = (used: number) => ({ ok: true as const, subagents: { running: 0, recent: [] }, read: { bytes: 0, skippedLines: 0 }, lastWriteMs: null, activity: EMPTY_BASIS, usage: { context: { used, window: null, fill: null }, totals: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, partial: false } });

describe('doctor and the seat guard', () => {
  it('a projection with a context of 10^15 is named, and the harness verdict is unreadable (exit 2)', () => {
    const fault = contractFaults(seat, projection(1e15));
    expect(fault).toContain('usage.context.used');
    const report = harnessReport({ harness: 'opencode', name: 'OpenCode', homes: [], source: 'seats', tested: { from: '1.0.0', to: '1.20.0' }, censuses: [], unreadable: [{ what: 'opencode:ses_x', reason: `part of this seat breaks the contract and is not shown: ${fault}` }], missing: [] });
    expect(VERDICT_EXIT[report.verdict]).toBe(2);
  });

  it('a projection inside the contract is not named', () => {
    expect(contractFaults(seat, projection(1_000))).toBeNull();
  });
});
