/** Remote usage, teams and messages merged into the host's world and usage report (issue 42). */
import { describe, expect, it } from 'vitest';
import type { FleetSnapshot } from '../../../shared/schemas';
import type { UsageSum } from '../../../shared/usage';
import type { UsageReport } from '../../../shared/usageReport';
import { addUsageSums, mergeTeams, mergeUsage } from './mergeExtras';
import type { RemoteState } from './mergeWorld';
import { mergeUsageReports } from './usageAcross';

const sum = (input: number, usd?: number, partial = false): UsageSum => ({
  totals: { input, output: input * 2, cacheRead: 0, cacheWrite: 0 },
  partial,
  unpriced: 0,
  ...(usd === undefined ? {} : { cost: { usd, estimated: true } }),
});
const snapshot = (extra: Partial<FleetSnapshot>): FleetSnapshot => ({ cursor: 1, seats: [], personas: [], stations: [], ...extra });
const remote = (name: string, extra: Partial<FleetSnapshot>, down = false): RemoteState => ({
  name,
  snapshot: snapshot(extra),
  board: null,
  unreachableSince: down ? new Date().toISOString() : null,
  reason: down ? 'gone' : null,
});

const NOW = Date.parse('2026-01-01T12:00:00.000Z');

describe('usage across machines', () => {
  it('adds tokens and costs; a cost missing on one side keeps the other', () => {
    expect(addUsageSums(sum(10, 1), sum(5, 0.5))).toEqual({ totals: { input: 15, output: 30, cacheRead: 0, cacheWrite: 0 }, partial: false, unpriced: 0, cost: { usd: 1.5, estimated: true } });
    expect(addUsageSums(sum(10), sum(5, 2)).cost).toEqual({ usd: 2, estimated: true });
  });

  it('a host whose totals would carry the sum past 10^12 is left out and counted, never capped (issue 36)', () => {
    const added = addUsageSums(sum(3e11, 1), sum(3e11, 1));
    expect(added).toEqual({ totals: { input: 3e11, output: 6e11, cacheRead: 0, cacheWrite: 0 }, partial: true, unpriced: 0, cost: { usd: 1, estimated: true }, skippedSeats: 1 });
  });

  it('the HUD today/open totals count reachable remotes; an unreachable one makes them partial, never adding its last known', () => {
    const local = { since: '2026-01-01T00:00:00.000Z', today: sum(1, 1), open: sum(2, 2) };
    const merged = mergeUsage(local, [remote('a', { usage: { since: 'x', today: sum(10, 10), open: sum(20, 20) } }), remote('b', { usage: { since: 'x', today: sum(100), open: sum(100) } }, true)], NOW);
    expect(merged).toMatchObject({ since: local.since, today: { totals: { input: 11 }, cost: { usd: 11 }, partial: true }, open: { totals: { input: 22 }, partial: true } });
    expect(merged?.unknownHosts).toEqual(['b']);
    expect(mergeUsage(undefined, [remote('a', { usage: { since: 'x', today: sum(3), open: sum(4) } })], NOW)?.today.totals.input).toBe(3);
  });

  it('a remote not reached yet, or whose seats carry usage without a usage line, is named unknown and makes the totals partial, never silently left out', () => {
    const local = { since: '2026-01-01T00:00:00.000Z', today: sum(1, 1), open: sum(2, 2) };
    const neverReached: RemoteState = { name: 'beta', snapshot: null, board: null, unreachableSince: null, reason: null };
    const seat = { id: 'claude:s1', harness: 'claude' as const, personaId: 'p', address: { harness: 'claude' as const, home: '/h', sessionId: 's1' }, activity: { state: 'idle' as const, certain: true, since: null }, usage: { totals: sum(5).totals, partial: false, context: null } };
    const merged = mergeUsage(local, [neverReached, remote('gamma', { seats: [seat as never] }), remote('a', { usage: { since: 'x', today: sum(10, 10), open: sum(20, 20) } })], NOW);
    expect(merged).toMatchObject({ today: { totals: { input: 11 }, partial: true }, open: { totals: { input: 22 }, partial: true }, unknownHosts: ['beta', 'gamma'] });
    // No machine has a line: the line still exists, says which hosts are unknown, and counts nothing as known.
    const alone = mergeUsage(undefined, [neverReached], NOW);
    expect(alone).toMatchObject({ today: { totals: { input: 0 }, partial: true }, unknownHosts: ['beta'] });
    expect(alone?.today.cost).toBeUndefined();
    // Every remote answering with a line: no host named.
    expect(mergeUsage(local, [remote('a', { usage: { since: 'x', today: sum(1), open: sum(1) } })], NOW)?.unknownHosts).toBeUndefined();
  });

  it('`usage.read` lists remote rows with their host and one entry per remote; unknown is null', () => {
    const row = { seat: 'claude:s1', persona: 'Ada', harness: 'claude' as const, model: null, context: null, totals: sum(7).totals, cost: null, partial: false, skipped: 0, models: [] };
    const local: UsageReport = { at: 'now', since: null, seats: [row], total: sum(7), limits: [], limitsSkipped: 0 };
    const up = remote('a', { usage: { since: 'x', today: sum(1), open: sum(7) } });
    const down = remote('b', {}, true);
    const merged = mergeUsageReports(local, [{ state: up, report: { ...local } }, { state: down, report: null }]);
    expect(merged.seats.map((entry) => [entry.seat, entry.host])).toEqual([['claude:s1', undefined], ['@a:claude:s1', 'a']]);
    expect(merged.total).toMatchObject({ totals: { input: 14 }, partial: true });
    expect(merged.hosts).toEqual([{ host: 'a', today: sum(1), open: sum(7) }, { host: 'b', today: null, open: null }]);
  });
});

describe('remote teams and messages', () => {
  it('namespaces ids, tags team names with the host and keeps the most recent messages', () => {
    const message = { id: 'm1', team: 'crew', from: 'lead', to: 'dev', at: '2026-01-01T00:00:01.000Z', summary: null, fromPersonaId: 'p_a', toPersonaId: null };
    const team = { name: 'crew', leadPersonaId: 'p_a', members: [{ name: 'lead', agentId: 'x', lead: true, colour: null, seatId: 'claude:s1', personaId: 'p_a', state: { state: 'working' as const, certain: true, since: null } }], messages: [message], notes: [] };
    const merged = mergeTeams(snapshot({ messages: [{ ...message, id: 'local', at: '2026-01-01T00:00:00.000Z' }] }), [remote('box', { teams: [team], messages: [message] })]);
    expect(merged.teams).toEqual([expect.objectContaining({ name: 'crew@box', leadPersonaId: '@box:p_a', members: [expect.objectContaining({ seatId: '@box:claude:s1', personaId: '@box:p_a' })] })]);
    expect(merged.teams![0].messages[0]).toMatchObject({ id: '@box:m1', team: 'crew@box', fromPersonaId: '@box:p_a' });
    expect(merged.messages!.map((entry) => entry.id)).toEqual(['local', '@box:m1']);
    expect(mergeTeams(snapshot({}), [remote('box', {})])).toEqual({ teams: undefined, messages: undefined });
  });
});
