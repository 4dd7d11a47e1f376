import { describe, expect, it } from 'vitest';
import type { LaunchOptions } from '../../shared/launch';
import { defaultLaunchForm, launchingText, launchRequestOf } from './launchForm';
import { launchAction, stationMenuItems } from './stationActions';

const options: LaunchOptions = {
  unavailable: null,
  harnesses: [
    { harness: 'claude', available: false, reason: 'claude is not on PATH' },
    { harness: 'codex', available: true, reason: null },
    { harness: 'opencode', available: true, reason: null },
  ],
  folders: ['/w/recent', '/w/older'],
  suggestedName: 'Ada',
};

describe('the launch form', () => {
  it('opens on the first available harness, the most recent folder and the suggested name', () => {
    expect(defaultLaunchForm(options)).toEqual({ harness: 'codex', cwd: '/w/recent', name: 'Ada', prompt: '' });
    expect(defaultLaunchForm({ ...options, harnesses: [], folders: [] })).toEqual({ harness: null, cwd: '', name: 'Ada', prompt: '' });
  });

  it('makes a request with names, folders and prompts verbatim, and leaves out an empty prompt', () => {
    const values = { harness: 'codex' as const, cwd: ` /w/a 'b' $(c) `, name: ` Ada "Q" `, prompt: ` say $(x) ` };
    expect(launchRequestOf(values, options)).toEqual({ ok: true, request: { harness: 'codex', cwd: `/w/a 'b' $(c)`, name: 'Ada "Q"', prompt: ' say $(x) ' } });
    expect(launchRequestOf({ ...values, prompt: '  ', name: '' }, options)).toEqual({ ok: true, request: { harness: 'codex', cwd: `/w/a 'b' $(c)` } });
  });

  it('says what to fix: tmux missing, no harness, a greyed harness, no folder, a relative folder', () => {
    const values = defaultLaunchForm(options);
    expect(launchRequestOf(values, { ...options, unavailable: 'Launch needs tmux.' })).toEqual({ ok: false, reason: 'Launch needs tmux.' });
    expect(launchRequestOf({ ...values, harness: null }, options)).toEqual({ ok: false, reason: 'Choose a harness.' });
    expect(launchRequestOf({ ...values, harness: 'claude' }, options)).toEqual({ ok: false, reason: 'Claude Code cannot be launched: claude is not on PATH.' });
    expect(launchRequestOf({ ...values, cwd: ' ' }, options)).toMatchObject({ ok: false, reason: 'Choose a project folder or type one.' });
    expect(launchRequestOf({ ...values, cwd: 'src/app' }, options)).toMatchObject({ ok: false, reason: expect.stringMatching(/full path/) });
    expect(launchRequestOf({ ...values, name: 'x'.repeat(48) }, options).ok).toBe(true);
    expect(launchRequestOf({ ...values, name: 'x'.repeat(49) }, options)).toEqual({ ok: false, reason: 'A name is at most 48 characters.' });
  });
});

describe('the station menu', () => {
  it('lists the actions that apply to a station, in order; the lobby has no launch', () => {
    const opened: string[] = [];
    const actions = [launchAction((station) => opened.push(station.label)), { id: 'profile', label: 'Profile…', appliesTo: () => true, run: () => opened.push('profile') }];
    const items = stationMenuItems({ key: 'tester', label: 'Tester', lobby: false }, actions);
    expect(items.map((item) => item.label)).toEqual(['Launch…', 'Profile…']);
    items[0].run();
    expect(opened).toEqual(['Tester']);
    expect(stationMenuItems({ key: '', label: 'unassigned', lobby: true }, actions).map((item) => item.id)).toEqual(['profile']);
  });
});

describe('the launch progress line', () => {
  it('counts the whole seconds waited against the launcher\'s deadline', () => {
    expect(launchingText(0)).toContain(': 0 s of up to 60 s');
    expect(launchingText(12_999)).toContain(': 12 s of up to 60 s');
    expect(launchingText(-5)).toContain(': 0 s of');
  });
});
