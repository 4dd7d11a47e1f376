import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../shared/schemas';
import { activityWhen, lobbyGroups, lobbyRows, sizeText } from './lobbyRows';

/** Local times, so the tests hold in every time zone. */
const at = (year: number, month: number, day: number, hour: number, minute: number) => new Date(year, month - 1, day, hour, minute);
const NOW = at(2026, 11, 18, 16, 30); // a Wednesday

describe('activityWhen', () => {
  it('says "today" with the clock time on the same day', () => {
    expect(activityWhen(at(2026, 11, 18, 14, 2).toISOString(), NOW)).toBe('today 14:02');
    expect(activityWhen(at(2026, 11, 18, 0, 0).toISOString(), NOW)).toBe('today 00:00');
  });

  it('names the weekday within the previous six days', () => {
    expect(activityWhen(at(2026, 11, 16, 9, 10).toISOString(), NOW)).toBe('Mon 09:10');
    expect(activityWhen(at(2026, 11, 17, 23, 59).toISOString(), NOW)).toBe('Tue 23:59');
    expect(activityWhen(at(2026, 11, 12, 8, 0).toISOString(), NOW)).toBe('Thu 08:00');
  });

  it('gives the date a week or more back, with the year when it is not this one', () => {
    expect(activityWhen(at(2026, 11, 11, 8, 0).toISOString(), NOW)).toBe('11 Nov');
    expect(activityWhen(at(2026, 1, 2, 8, 0).toISOString(), NOW)).toBe('2 Jan');
    expect(activityWhen(at(2025, 11, 12, 8, 0).toISOString(), NOW)).toBe('12 Nov 2025');
  });

  it('treats a time slightly ahead of the clock as today, and an unreadable one as unknown', () => {
    expect(activityWhen(at(2026, 11, 18, 16, 31).toISOString(), NOW)).toBe('today 16:31');
    expect(activityWhen('not a time', NOW)).toBe('—');
  });
});

describe('sizeText', () => {
  it('reads bytes, kilobytes and megabytes, and says nothing for OpenCode sessions', () => {
    expect(sizeText(812, 'claude')).toBe('812 B');
    expect(sizeText(14 * 1024 + 100, 'codex')).toBe('14 KB');
    expect(sizeText(2.34 * 1024 * 1024, 'claude')).toBe('2.3 MB');
    expect(sizeText(0, 'opencode')).toBe('—');
  });
});

describe('lobbyRows', () => {
  const candidate = (id: string, harness: Candidate['harness'], cwd: string | null, lastActivity: string, extra: Partial<Candidate> = {}): Candidate => ({
    id,
    harness,
    seat: { harness, home: '/h', sessionId: id, cwd, path: null },
    cwdHint: cwd,
    lastActivity,
    size: 2048,
    ...extra,
  });
  const list = [
    candidate('claude:a', 'claude', '/home/ada/src/lantern', at(2026, 11, 16, 9, 10).toISOString()),
    candidate('codex:b', 'codex', '/srv/tidepool', at(2026, 11, 18, 14, 2).toISOString(), { opened: true, openedBy: 'Bramble' }),
    candidate('opencode:c', 'opencode', null, at(2026, 10, 1, 8, 0).toISOString()),
  ];

  it('sorts by last activity, newest first, and shows the real folder with the home as ~', () => {
    const rows = lobbyRows(list, '', '/home/ada', NOW);
    expect(rows.map((row) => [row.id, row.folder, row.when, row.size, row.openedBy])).toEqual([
      ['codex:b', '/srv/tidepool', 'today 14:02', '2 KB', 'Bramble'],
      ['claude:a', '~/src/lantern', 'Mon 09:10', '2 KB', null],
      ['opencode:c', null, '1 Oct', '—', null],
    ]);
  });

  it('filters by every typed word across folder, harness and holder, ignoring case', () => {
    expect(lobbyRows(list, 'LANTERN', '/home/ada', NOW).map((row) => row.id)).toEqual(['claude:a']);
    expect(lobbyRows(list, 'codex bramble', '/home/ada', NOW).map((row) => row.id)).toEqual(['codex:b']);
    expect(lobbyRows(list, 'opencode', '/home/ada', NOW).map((row) => row.id)).toEqual(['opencode:c']);
    expect(lobbyRows(list, 'nothing here', '/home/ada', NOW)).toEqual([]);
  });
});

describe('lobbyGroups (issue 38: an unreachable host is shown, never silently left out)', () => {
  const row = (id: string, host: string | null) => ({ id, harness: 'claude' as const, folder: null, when: '—', size: '1 KB', opened: false, openedBy: null, host });
  it('lists this machine first, then each host in name order; a host that could not list its sessions appears with why, with or without rows', () => {
    const groups = lobbyGroups([row('a', null), row('@zeta:b', 'zeta'), row('@alpha:c', 'alpha')], [{ host: 'beta', reason: 'unreachable since 06:40: Connection refused' }, { host: 'alpha', reason: 'could not list its sessions: timed out' }]);
    expect(groups.map((group) => [group.host, group.rows.map((entry) => entry.id), group.unreachable])).toEqual([
      [null, ['a'], null],
      ['alpha', ['@alpha:c'], 'could not list its sessions: timed out'],
      ['beta', [], 'unreachable since 06:40: Connection refused'],
      ['zeta', ['@zeta:b'], null],
    ]);
  });
});
