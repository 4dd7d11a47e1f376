// settings.json `budget` (issue 41): defaults, partial values, and a bad value reported with the defaults used.
import { describe, expect, it } from 'vitest';
import { parseSettings } from './loadSettings';

describe('budget settings', () => {
  it('defaults to 90 % and on; each key defaults on its own; a bad value is one problem and the defaults', () => {
    expect(parseSettings('{}', '/h/settings.json', '/h').settings.budget).toEqual({ contextWarnPercent: 90, windowWarnPercent: 90, on: true });
    expect(parseSettings('{"budget": {"contextWarnPercent": 80}}', '/h/settings.json', '/h').settings.budget).toEqual({ contextWarnPercent: 80, windowWarnPercent: 90, on: true });
    const bad = parseSettings('{"budget": {"windowWarnPercent": 150, "on": false}}', '/h/settings.json', '/h');
    expect(bad.settings.budget).toEqual({ contextWarnPercent: 90, windowWarnPercent: 90, on: true });
    expect(bad.problems).toHaveLength(1);
    expect(bad.problems[0]).toContain('budget.windowWarnPercent');
  });
});
