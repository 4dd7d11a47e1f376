// The 5-hour block rule (issue 41, rules B1–B5 and M1–M3) over minute buckets folded from hand-made messages.
import { describe, expect, it } from 'vitest';
import { BlockSchema } from '../../../shared/pace';
import { blocksOf } from './blocks';
import { MINUTES_KEPT } from '../../kit/usage/minutes';
import { addMinute } from '../../kit/usage/tally';
import { createTally } from '../../kit/usage/tally';

const at = (text: string) => Date.parse(text);
const figures = (input: number, output = 0) => ({ input, output, cacheRead: 0, cacheWrite: 0, reasoning: null });

function tallyOf(messages: [string, number, string?][]) {
  const tally = createTally('estimated');
  for (const [time, input, model] of messages) addMinute(tally, figures(input, 10), at(time), model ?? 'claude-sonnet-4-5', true);
  return tally;
}

describe('5-hour blocks', () => {
  it('B1/B2: start floored to the hour, end 5 h later; more than 5 h after the start or the last message starts a block', () => {
    const tally = tallyOf([
      ['2026-12-07T01:59:59.999Z', 1],
      ['2026-12-07T06:00:00.000Z', 2], // exactly 5 h after the 01:00 start: still in it
      ['2026-12-07T06:00:00.001Z', 3], // a millisecond later: a new block from 06:00
      ['2026-12-07T11:30:00.000Z', 4], // 5 h 29 min after the last: within 5 h of it, but past 11:00, the block's end
      ['2026-12-07T23:00:00.000Z', 5], // a gap of 11 h
    ]);
    const blocks = blocksOf([tally.minutes!], at('2026-12-08T12:00:00Z'));
    expect(blocks.map((block) => [block.start, block.end, block.lastEntry, block.totals.input, block.entries])).toEqual([
      ['2026-12-07T01:00:00.000Z', '2026-12-07T06:00:00.000Z', '2026-12-07T06:00:00.000Z', 3, 2],
      ['2026-12-07T06:00:00.000Z', '2026-12-07T11:00:00.000Z', '2026-12-07T06:00:00.001Z', 3, 1],
      ['2026-12-07T11:00:00.000Z', '2026-12-07T16:00:00.000Z', '2026-12-07T11:30:00.000Z', 4, 1],
      ['2026-12-07T23:00:00.000Z', '2026-12-08T04:00:00.000Z', '2026-12-07T23:00:00.000Z', 5, 1],
    ]);
    for (const block of blocks) expect(BlockSchema.parse(block)).toEqual(block);
  });

  it('B3/B4: the active block has a burn rate over its first-to-last minutes and a projection to its end', () => {
    const tally = tallyOf([
      ['2026-12-07T10:05:00.000Z', 1000],
      ['2026-12-07T10:35:00.000Z', 2000],
    ]);
    const now = at('2026-12-07T11:00:00.000Z');
    const [block] = blocksOf([tally.minutes!], now);
    expect(block.active).toBe(true);
    // 3,000 input + 20 output tokens over 30 minutes; 4 hours left until 15:00.
    expect(block.burn!.tokensPerMinute).toBeCloseTo(3020 / 30, 6);
    expect(block.projected!.tokens).toBe(Math.round(3020 + (3020 / 30) * 240));
    const cost = (3000 * 3 + 20 * 15) / 1e6;
    expect(block.cost).toEqual({ usd: cost, estimated: true });
    expect(block.burn!.usdPerHour).toBeCloseTo((cost / 30) * 60, 6);
    expect(block.projected!.usd).toBeCloseTo(cost + (cost / 30) * 240, 6);
    // Over 5 h after its last message it is not active, though its end has not come.
    expect(blocksOf([tally.minutes!], at('2026-12-07T15:36:00.000Z'))[0].active).toBe(false);
    // A single message: no burn rate (no span to divide by).
    expect(blocksOf([tallyOf([['2026-12-07T10:05:00.000Z', 5]]).minutes!], now)[0]).not.toHaveProperty('burn');
  });

  it('B5/M3: an unpriced model leaves the block without cost; a repeat adds tokens but no entry; files merge', () => {
    const first = tallyOf([['2026-12-07T10:05:00.000Z', 10, 'mystery-model']]);
    addMinute(first, figures(0, 5), at('2026-12-07T10:05:01.000Z'), 'mystery-model', false);
    const second = tallyOf([['2026-12-07T10:05:30.000Z', 20]]);
    const [block] = blocksOf([first.minutes!, second.minutes!], at('2026-12-09T00:00:00Z'));
    expect(block).toMatchObject({ cost: null, entries: 2, totals: { input: 30, output: 25 }, lastEntry: '2026-12-07T10:05:30.000Z' });
    expect(blocksOf([], 0)).toEqual([]);
  });
});

describe('minute buckets', () => {
  it('M4: keep the newest 30 days of minutes, however many are added', () => {
    const tally = createTally('estimated');
    const start = at('2026-01-01T00:00:00.000Z');
    const total = MINUTES_KEPT + 24 * 60 + 10;
    for (let minute = 0; minute < total; minute += 1) addMinute(tally, figures(1), start + minute * 60_000 + 500, 'claude-sonnet-4-5', true);
    const keys = Object.keys(tally.minutes!).map(Number).sort((left, right) => left - right);
    expect(keys.length).toBeLessThanOrEqual(MINUTES_KEPT + 24 * 60);
    expect(keys.length).toBeGreaterThanOrEqual(MINUTES_KEPT);
    // The newest minute is kept; the oldest went first.
    expect(keys.at(-1)).toBe(Math.ceil((start + (total - 1) * 60_000 + 500) / 60_000));
    expect(keys[0]).toBeGreaterThan(Math.ceil((start + 500) / 60_000));
  });
});

describe('merged minutes', () => {
  it('a merge of one tally borrows its minutes; a merge of two adds them without touching either', async () => {
    const { mergeTallies } = await import('../../kit/usage/tally');
    const first = tallyOf([['2026-12-07T10:04:30.000Z', 10]]);
    const second = tallyOf([['2026-12-07T10:04:50.000Z', 20]]); // the same minute bucket (rule M1)
    expect(mergeTallies('estimated', [first]).minutes).toBe(first.minutes);
    const both = mergeTallies('estimated', [first, second]);
    expect(Object.values(both.minutes!)[0].slice(2, 4)).toEqual([30, 20]);
    expect(Object.values(first.minutes!)[0].slice(2, 4)).toEqual([10, 10]);
    expect(Object.values(second.minutes!)[0].slice(2, 4)).toEqual([20, 10]);
  });
});
