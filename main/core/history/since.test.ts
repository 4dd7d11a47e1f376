import { describe, expect, it } from 'vitest';
import { parseSettings } from '../../setup/settings/loadSettings';
import { parseSince } from './since';

const NOW = Date.parse('2026-12-05T10:00:00.000Z');

describe('--since', () => {
  it('takes durations back from now', () => {
    expect(parseSince('90s', NOW)).toEqual({ ok: true, at: NOW - 90_000 });
    expect(parseSince('2h', NOW)).toEqual({ ok: true, at: NOW - 7_200_000 });
    expect(parseSince('1h30m', NOW)).toEqual({ ok: true, at: NOW - 5_400_000 });
    expect(parseSince('7d', NOW)).toEqual({ ok: true, at: NOW - 7 * 86_400_000 });
  });

  it('takes ISO dates and times', () => {
    expect(parseSince('2026-12-05T08:00:00Z', NOW)).toEqual({ ok: true, at: Date.parse('2026-12-05T08:00:00Z') });
    expect(parseSince('2026-12-05', NOW)).toEqual({ ok: true, at: Date.parse('2026-12-05') });
    expect(parseSince('2026-12-05T09:30:00.500+01:00', NOW)).toEqual({ ok: true, at: Date.parse('2026-12-05T08:30:00.500Z') });
  });

  it('refuses anything else with what it takes', () => {
    for (const garbage of ['', 'soon', '2', '0h', '-2h', '2 hours', '2026-13-45', 'Dec 5 2026', '1e3s']) {
      const parsed = parseSince(garbage, NOW);
      expect(parsed.ok, garbage).toBe(false);
      if (!parsed.ok) expect(parsed.reason).toMatch(/neither a duration .* nor an ISO time/);
    }
  });
});

describe('settings.json history', () => {
  it('defaults to 7 days and 10 minutes away; 0 days is allowed (recording off)', () => {
    expect(parseSettings('{}', '/h/settings.json', '/home').settings.history).toEqual({ days: 7, awayMinutes: 10 });
    expect(parseSettings('{"history": {"days": 0}}', '/h/settings.json', '/home').settings.history).toEqual({ days: 0, awayMinutes: 10 });
  });

  it('a bad value is one sentence naming the field, and the defaults are used', () => {
    const loaded = parseSettings('{"history": {"days": -1, "awayMinutes": 5}}', '/h/settings.json', '/home');
    expect(loaded.settings.history).toEqual({ days: 7, awayMinutes: 10 });
    expect(loaded.problems).toEqual([expect.stringMatching(/^\/h\/settings\.json: history\.days .*0 turns recording off.*the defaults are used/)]);
  });
});
