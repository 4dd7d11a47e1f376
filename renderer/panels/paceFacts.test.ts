// What the pace panel shows (issue 41): never a negative countdown, never an old window's share as now's fact.
import { describe, expect, it } from 'vitest';
import type { Block, Pace } from '../../shared/pace';
import { blockGauge, blockLines, limitGauge, paceGauges, roleBars, spanText } from './paceFacts';

const NOW = Date.parse('2026-12-07T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;
const codex = (used: number, resetsAt: string | null) => ({ harness: 'codex' as const, window: 'primary' as const, minutes: 300, usedPercent: used, resetsAt, recordedAt: iso(NOW - HOUR), seatId: 'codex:b' });

describe('pace panel facts', () => {
  it('a recorded window: its share and the time to its reset; past its reset: no share, no countdown', () => {
    expect(limitGauge(codex(42.7, iso(NOW + 2 * HOUR + 5 * 60_000)), NOW)).toEqual({ key: 'codex|primary', label: 'Codex 5 h window', percent: 42, countdown: 'resets in 2 h 5 min', kind: 'recorded' });
    expect(limitGauge(codex(97, iso(NOW - 1)), NOW)).toMatchObject({ percent: null, countdown: 'reset passed; no newer record yet' });
    expect(limitGauge(codex(30, null), NOW)).toMatchObject({ percent: 30, countdown: 'reset time not recorded' });
    expect(limitGauge({ harness: 'claude', limited: true, resetsAt: null, recordedAt: iso(NOW), seatId: 'claude:a' }, NOW)).toMatchObject({ key: 'claude|limited', percent: null, countdown: 'limited; reset time unknown' });
  });

  it('the active block: the share of its 5 hours gone, an estimate; an ended one has no countdown', () => {
    const block: Block = { start: iso(NOW - HOUR), end: iso(NOW + 4 * HOUR), lastEntry: iso(NOW - 60_000), active: true, totals: { input: 100, output: 50, cacheRead: 0, cacheWrite: 0 }, cost: { usd: 0.5, estimated: true }, entries: 3, burn: { tokensPerMinute: 2.5, usdPerHour: 0.5 }, projected: { tokens: 750, usd: 2.5 } };
    expect(blockGauge(block, NOW)).toEqual({ key: 'claude|block', label: 'Claude Code 5 h block (time gone)', percent: 20, countdown: 'ends in 4 h 0 min', kind: 'estimate' });
    expect(blockGauge(block, NOW + 5 * HOUR)).toMatchObject({ percent: null, countdown: 'ended' });
    expect(blockLines(block)).toEqual(['150 tokens, 3 messages · cost ~$0.50', 'burn 3 tokens/min · ~$0.50/h', expect.stringMatching(/^by \d\d:\d\d: ~750 tokens · ~\$2\.50$/)]);
    expect(blockLines(null)).toEqual(['No active Claude Code block.']);
    const pace: Pace = { at: iso(NOW), limits: [codex(10, iso(NOW + HOUR))], block, blocksPartial: false, roles: { today: [], week: [] }, budget: { contextWarnPercent: 90, windowWarnPercent: 90, on: true } };
    expect(paceGauges(pace, NOW).map((gauge) => gauge.key)).toEqual(['codex|primary', 'claude|block']);
  });

  it('role bars: widest for the largest cost; a row without cost says so', () => {
    const row = (key: string, usd: number | null, input: number) => ({ key, totals: { input, output: 0, cacheRead: 0, cacheWrite: 0 }, cost: usd === null ? null : { usd, estimated: true }, partial: false });
    expect(roleBars([row('builder', 2, 10), row('reviewer', 0.5, 99), row('planner', null, 5)]).map((bar) => [bar.key, bar.width, bar.text])).toEqual([
      ['builder', 100, '~$2.00 · 10 tokens'],
      ['reviewer', 25, '~$0.50 · 99 tokens'],
      ['planner', 0, 'cost unknown · 5 tokens'],
    ]);
    expect(spanText(30_000)).toBe('under a minute');
    expect(spanText(2 * 86_400_000 + 3 * HOUR)).toBe('2 d 3 h');
  });
});

describe('the near-auto-compact mark', () => {
  it('shows from the owner\'s contextWarnPercent on, never for an unknown fill, and not while budget warnings are off', async () => {
    const { budgetMarks, nearCompact } = await import('../world/nearCompact');
    expect(nearCompact({ level: 'warning', percent: 89 })).toBeNull();
    expect(nearCompact({ level: 'alarm', percent: 92 })).toBe(92);
    expect(nearCompact({ level: 'unknown', percent: null })).toBeNull();
    Object.assign(budgetMarks, { contextWarnPercent: 80 });
    expect(nearCompact({ level: 'warning', percent: 85 })).toBe(85);
    Object.assign(budgetMarks, { on: false });
    expect(nearCompact({ level: 'alarm', percent: 99 })).toBeNull();
    Object.assign(budgetMarks, { contextWarnPercent: 90, on: true });
  });
});
