import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings, parseSettings, resolveSettingsPath } from './loadSettings';

let home: string;
let file: string;
const homeDir = '/home/owner';

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'pixelfleet-settings-'));
  file = path.join(home, 'settings.json');
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const save = (value: unknown) => writeFile(file, typeof value === 'string' ? value : JSON.stringify(value));

describe('loadSettings', () => {
  it('gives the defaults for a missing file and creates nothing', async () => {
    const loaded = await loadSettings(file, { homeDir });
    expect(loaded).toEqual({ settings: { workSources: [], autoOpen: [], refreshSeconds: 60, notify: { on: ['question', 'plan', 'approval', 'error', 'turn-done'], minTurnSeconds: 60, sound: false }, reminders: { backgroundMinutes: 10, everyMinutes: 30, on: true }, terminal: null, worktreeDir: null }, problems: [] });
    expect(await readdir(home)).toEqual([]);
  });

  it('reports invalid JSON, naming the file, and uses the defaults', async () => {
    await save('{ "workSources": [ ');
    const loaded = await loadSettings(file, { homeDir });
    expect(loaded.settings.workSources).toEqual([]);
    expect(loaded.problems).toHaveLength(1);
    expect(loaded.problems[0]).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON \\(.+\\); defaults are used\\.$`));
  });

  it('drops one bad source, keeps the good ones and fills the defaults', async () => {
    await save({
      workSources: [
        { kind: 'markdown', dir: '~/backlog' },
        { kind: 'github', repo: 'not-a-repo' },
        { kind: 'github', repo: 'acme/app' },
        { kind: 'jira', project: 'X' },
        { kind: 'linear', teamKey: 'ENG', tokenEnv: 'WORK_LINEAR' },
        { kind: 'markdown' },
        'github',
      ],
      somethingNewer: { ignored: true },
    });
    const before = (await stat(file)).mtimeMs;

    const loaded = await loadSettings(file, { homeDir });

    expect(loaded.settings.workSources).toEqual([
      { kind: 'markdown', dir: path.join(homeDir, 'backlog') },
      { kind: 'github', repo: 'acme/app', apiUrl: 'https://api.github.com', tokenEnv: 'GITHUB_TOKEN' },
      { kind: 'linear', teamKey: 'ENG', apiUrl: 'https://api.linear.app/graphql', tokenEnv: 'WORK_LINEAR' },
    ]);
    expect(loaded.problems).toEqual([
      `${file}: workSources[1].repo must look like "owner/name"; that source is skipped.`,
      `${file}: workSources[3].kind has an unknown kind (use "markdown", "github" or "linear"); that source is skipped.`,
      `${file}: workSources[5].dir is missing (expected string); that source is skipped.`,
      `${file}: workSources[6] must be an object; that source is skipped.`,
    ]);
    expect((await stat(file)).mtimeMs).toBe(before);
  });

  it('resolves relative folders against the settings file and checks URLs, auto-open rules and the refresh interval', async () => {
    await save({
      workSources: [
        { kind: 'markdown', dir: 'backlog' },
        { kind: 'github', repo: 'acme/app', apiUrl: 'ftp://example.com' },
      ],
      autoOpen: [{ harness: 'claude', cwd: '~/src/app' }, { harness: 'vim', cwd: '/x' }],
      refreshSeconds: 1,
    });
    const loaded = await loadSettings(file, { homeDir });
    expect(loaded.settings.workSources).toEqual([{ kind: 'markdown', dir: path.join(home, 'backlog') }]);
    expect(loaded.settings.autoOpen).toEqual([{ harness: 'claude', cwd: path.join(homeDir, 'src/app') }]);
    expect(loaded.settings.refreshSeconds).toBe(60);
    expect(loaded.problems).toEqual([
      `${file}: workSources[1].apiUrl must be an http:// or https:// URL; that source is skipped.`,
      `${file}: autoOpen[1].harness must be one of "claude", "codex", "opencode"; that rule is skipped.`,
      `${file}: refreshSeconds must be a whole number of seconds from 10 to 86400; 60 is used.`,
    ]);
  });

  it('accepts https:// anywhere and http:// only to a loopback host, since the token travels with each request', async () => {
    await save({
      workSources: [
        { kind: 'github', repo: 'acme/app', apiUrl: 'https://github.example.com/api/v3' },
        { kind: 'github', repo: 'acme/app', apiUrl: 'http://github.example.com/api/v3' },
        { kind: 'linear', teamKey: 'ENG', apiUrl: 'http://10.0.0.7/graphql' },
        { kind: 'github', repo: 'acme/app', apiUrl: 'http://127.0.0.1:8080' },
        { kind: 'linear', teamKey: 'ENG', apiUrl: 'http://localhost:9000/graphql' },
        { kind: 'github', repo: 'acme/app', apiUrl: 'http://[::1]:8080' },
        { kind: 'github', repo: 'acme/app', apiUrl: 'http://127.0.0.1.example.com' },
      ],
    });
    const loaded = await loadSettings(file, { homeDir });
    expect(loaded.settings.workSources.map((source) => (source.kind === 'markdown' ? source.dir : source.apiUrl))).toEqual([
      'https://github.example.com/api/v3',
      'http://127.0.0.1:8080',
      'http://localhost:9000/graphql',
      'http://[::1]:8080',
    ]);
    const refusal = 'apiUrl must be https:// (http:// only to 127.0.0.1, ::1 or localhost: the token would travel in clear); that source is skipped.';
    expect(loaded.problems).toEqual([1, 2, 6].map((index) => `${file}: workSources[${index}].${refusal}`));
  });

  it('reports a file that is not an object, and a workSources that is not a list', async () => {
    await save('[1, 2]');
    expect((await loadSettings(file, { homeDir })).problems).toEqual([`${file} must hold a JSON object; defaults are used.`]);
    await save({ workSources: { kind: 'markdown', dir: '/x' }, refreshSeconds: 120 });
    const loaded = await loadSettings(file, { homeDir });
    expect(loaded.problems).toEqual([`${file}: workSources must be a list; it was ignored.`]);
    expect(loaded.settings.refreshSeconds).toBe(120);
  });
});

describe('terminal setting', () => {
  it('takes an argument vector, keeps null as off, and reports a shell string or an empty word without losing the rest', async () => {
    await save({ terminal: { command: ['xterm', '-title', 'a b', '-e'] }, refreshSeconds: 120 });
    expect((await loadSettings(file, { homeDir })).settings.terminal).toEqual({ command: ['xterm', '-title', 'a b', '-e'] });
    await save({ terminal: null });
    expect(await loadSettings(file, { homeDir })).toMatchObject({ settings: { terminal: null }, problems: [] });
    await save({ terminal: 'xterm -e', refreshSeconds: 120 });
    const shellString = await loadSettings(file, { homeDir });
    expect(shellString.settings).toMatchObject({ terminal: null, refreshSeconds: 120 });
    expect(shellString.problems).toEqual([`${file}: terminal must be an object; opening a terminal stays off (use {"command": ["xterm", "-e"]}).`]);
    await save({ terminal: { command: ['xterm', ''] } });
    expect((await loadSettings(file, { homeDir })).problems[0]).toMatch(/terminal\.command\.1 must not hold an empty word; opening a terminal stays off/);
    await save({ terminal: { command: [], shell: true } });
    expect((await loadSettings(file, { homeDir })).settings.terminal).toBeNull();
  });
});

describe('resolveSettingsPath', () => {
  it('expands ~ and keeps absolute paths', () => {
    expect(resolveSettingsPath('~', '/etc/app', homeDir)).toBe(homeDir);
    expect(resolveSettingsPath('~/notes', '/etc/app', homeDir)).toBe('/home/owner/notes');
    expect(resolveSettingsPath('/abs/notes', '/etc/app', homeDir)).toBe('/abs/notes');
    expect(resolveSettingsPath('../notes', '/etc/app', homeDir)).toBe('/etc/notes');
    expect(resolveSettingsPath('~other/notes', '/etc/app', homeDir)).toBe('/etc/app/~other/notes');
  });
});

describe('notify settings', () => {
  it('defaults to question, plan, approval, error and long turns, no chime; a bad field keeps the others', async () => {
    const { parseNotifySettings, defaultNotifySettings } = await import('../../core/notify/notifySettings');
    expect(defaultNotifySettings()).toEqual({ on: ['question', 'plan', 'approval', 'error', 'turn-done'], minTurnSeconds: 60, sound: false });
    const problems: string[] = [];
    const parsed = parseNotifySettings({ on: ['question', 'question'], minTurnSeconds: -1, sound: true, colour: 'red' }, 'settings.json', problems);
    expect(parsed).toEqual({ on: ['question'], minTurnSeconds: 60, sound: true });
    expect(problems).toHaveLength(2);
    expect(problems.join('\n')).toMatch(/notify\.colour is not a setting[\s\S]*notify\.minTurnSeconds must be/);
    const wrong: string[] = [];
    expect(parseNotifySettings({ on: ['lunch'] }, 'settings.json', wrong).on).toEqual(defaultNotifySettings().on);
    expect(wrong[0]).toMatch(/notify\.on must be a list of "question"/);
  });
});

describe('worktreeDir (issue 40)', () => {
  it('keeps a relative folder for the repository to resolve, expands ~, and reports a value that is not a folder', () => {
    expect(parseSettings(JSON.stringify({ worktreeDir: 'trees' }), '/h/settings.json', '/home/o').settings.worktreeDir).toBe('trees');
    expect(parseSettings(JSON.stringify({ worktreeDir: '~/trees' }), '/h/settings.json', '/home/o').settings.worktreeDir).toBe('/home/o/trees');
    expect(parseSettings(JSON.stringify({ worktreeDir: '/srv/trees' }), '/h/settings.json', '/home/o').settings.worktreeDir).toBe('/srv/trees');
    const bad = parseSettings(JSON.stringify({ worktreeDir: 3 }), '/h/settings.json', '/home/o');
    expect(bad.settings.worktreeDir).toBeNull();
    expect(bad.problems).toEqual(['/h/settings.json: worktreeDir must name a folder; worktrees go to <repo>/.pixelfleet/worktrees.']);
  });
});

