// Usage hours follow the owner's clock (issue 38): hour buckets start at local whole hours and "today" starts at
// local midnight, so a record just after local midnight counts today in every time zone, UTC offsets of a half or
// three quarters of an hour and daylight-saving changes included. Each zone is set through TZ, as the owner's would be.
import { afterAll, describe, expect, it } from 'vitest';
import { localHourStart } from './localHour';
import { addFigures, amountSince, createTally, hourKey } from './tally';
import { localMidnight } from '../../core/usage/fleetUsage';
import { sinceStart } from '../../core/usage/usageReport';

const HOUR = 3_600_000;
const ZONES = ['Pacific/Auckland', 'America/Los_Angeles', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Adelaide', 'UTC'];
const previous = process.env.TZ;
afterAll(() => {
  if (previous === undefined) delete process.env.TZ;
  else process.env.TZ = previous;
});

const figures = (input: number) => ({ input, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: null });

describe.each(ZONES)('usage hours in %s', (zone) => {
  it('an hour bucket starts at a local whole hour; "today" counts a record 10 minutes after local midnight, not one 10 minutes before', () => {
    process.env.TZ = zone;
    const now = new Date(2026, 11, 7, 15, 42, 10).getTime(); // local 15:42:10
    expect(new Date(now).getHours()).toBe(15); // the zone took effect
    const start = new Date(localHourStart(now));
    expect([start.getHours(), start.getMinutes(), start.getSeconds()]).toEqual([15, 0, 0]);
    expect(hourKey(now)).toBe(String(start.getTime()));
    const midnight = localMidnight(now);
    const tally = createTally('estimated');
    addFigures(tally, figures(7), midnight + 10 * 60_000, 'claude-sonnet-4-5');
    addFigures(tally, figures(1000), midnight - 10 * 60_000, 'claude-sonnet-4-5');
    expect(amountSince(tally, sinceStart('today', now)).input).toBe(7);
    // "24h" starts at the local hour holding 24 hours ago.
    const dayBack = new Date(sinceStart('24h', now));
    expect([dayBack.getHours(), dayBack.getMinutes()]).toEqual([15, 0]);
  });
});

describe('usage hours across a daylight-saving change', () => {
  it('in Los Angeles the repeated 01:00 hour keeps two buckets, each at its own start', () => {
    process.env.TZ = 'America/Los_Angeles';
    const first = Date.parse('2026-11-01T08:30:00Z'); // 01:30 PDT
    const second = first + HOUR; // 01:30 PST
    expect(localHourStart(first)).toBe(Date.parse('2026-11-01T08:00:00Z'));
    expect(localHourStart(second)).toBe(Date.parse('2026-11-01T09:00:00Z'));
  });

  it('in Auckland the hour after the clocks go forward starts at 03:00 local', () => {
    process.env.TZ = 'Pacific/Auckland';
    const at = Date.parse('2026-09-26T14:20:00Z'); // 03:20 NZDT, the first hour after 02:00 NZST became 03:00
    const start = new Date(localHourStart(at));
    expect([start.getHours(), start.getMinutes()]).toEqual([3, 0]);
  });
});
