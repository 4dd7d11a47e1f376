import { describe, expect, it } from 'vitest';
import { parseSettings } from './loadSettings';

const parse = (value: unknown) => parseSettings(JSON.stringify(value), '/cfg/settings.json', '/home/owner');

describe('settings.json reminders', () => {
  it('defaults to after 10 minutes, then every 30, on', () => {
    expect(parse({}).settings.reminders).toEqual({ backgroundMinutes: 10, everyMinutes: 30, on: true });
  });

  it('takes valid values and fills the missing ones', () => {
    expect(parse({ reminders: { backgroundMinutes: 5, on: false } })).toEqual({
      settings: expect.objectContaining({ reminders: { backgroundMinutes: 5, everyMinutes: 30, on: false } }),
      problems: [],
    });
  });

  it('reports an invalid value, names the field, and keeps the defaults and the other settings', () => {
    const { settings, problems } = parse({ refreshSeconds: 30, reminders: { backgroundMinutes: 0 } });
    expect(settings.reminders).toEqual({ backgroundMinutes: 10, everyMinutes: 30, on: true });
    expect(settings.refreshSeconds).toBe(30);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^\/cfg\/settings\.json: reminders\.backgroundMinutes .*default reminders are used/);
  });

  it('refuses unknown keys (a typo should not pass silently)', () => {
    expect(parse({ reminders: { everyMinute: 5 } }).problems[0]).toMatch(/reminders/);
  });
});
