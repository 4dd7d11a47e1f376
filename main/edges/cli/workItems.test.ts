import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTrackerServer, type TrackerServer } from '../../dev/testing/trackerServer';
import { parseArguments, runWorkItemsCommand } from './workItems';

let home: string;
let github: TrackerServer;

function collector() {
  let text = '';
  return { write: (chunk: string) => (text += chunk), get text() { return text; } };
}

async function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const stdout = collector();
  const stderr = collector();
  const code = await runWorkItemsCommand(args, { home, env, stdout, stderr, timeoutMs: 2_000 });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'pixelfleet-cli-work-'));
  await mkdir(path.join(home, 'backlog'));
  await writeFile(path.join(home, 'backlog', 'theme.md'), '---\nlabels: [Sound Designer]\nstatus: todo\n---\n# Compose the theme\n');
  github = await startTrackerServer((request) =>
    request.headers.authorization
      ? { status: 200, json: [{ number: 4, title: 'Door sounds', html_url: 'https://github.example/acme/app/issues/4', labels: [{ name: 'sound designer' }, { name: 'status: blocked' }] }] }
      : { status: 401, json: { message: 'Requires authentication' } },
  );
});

afterEach(async () => {
  await github.close();
  await rm(home, { recursive: true, force: true });
});

async function writeSettings(workSources: unknown[]) {
  await writeFile(path.join(home, 'settings.json'), JSON.stringify({ workSources }));
}

describe('pixelfleet work-items', () => {
  it('prints the matching items and the source errors as JSON', async () => {
    await writeSettings([
      { kind: 'markdown', dir: 'backlog' },
      { kind: 'github', repo: 'acme/app', apiUrl: github.url },
      { kind: 'github', repo: 'bad' },
    ]);
    const result = await run(['--label', 'sound designer', '--json'], { GITHUB_TOKEN: 'ghp_secret' });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      label: 'sound designer',
      items: [
        { source: 'markdown', id: 'theme.md', title: 'Compose the theme', labels: ['Sound Designer'], status: 'todo', url: expect.stringMatching(/^file:\/\/.*theme\.md$/), dispatch: null },
        { source: 'github', id: 'acme/app#4', title: 'Door sounds', labels: ['sound designer'], status: 'blocked', url: 'https://github.example/acme/app/issues/4', dispatch: null },
      ],
      errors: [],
    });
    expect(result.stderr).toMatch(/^warning: .*settings\.json: workSources\[2\]\.repo must look like "owner\/name"; that source is skipped\.\n$/);
    expect(result.stdout + result.stderr).not.toContain('ghp_secret');
  });

  it('prints a table with the errors below it', async () => {
    await writeSettings([
      { kind: 'markdown', dir: path.join(home, 'backlog') },
      { kind: 'github', repo: 'acme/app', apiUrl: github.url },
    ]);
    const result = await run(['--label=Sound Designer']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^SOURCE\s+ID\s+STATUS\s+LABELS\s+TITLE$/);
    expect(lines[1]).toMatch(/^markdown\s+theme\.md\s+todo\s+Sound Designer\s+Compose the theme$/);
    expect(lines[2]).toBe('error: GitHub acme/app: GitHub: 401 — check GITHUB_TOKEN.');
  });

  it('exits 1 when every source failed', async () => {
    await writeSettings([{ kind: 'github', repo: 'acme/app', apiUrl: github.url }]);
    const result = await run(['--label', 'tester', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).errors).toEqual([{ source: 'GitHub acme/app', message: 'GitHub: 401 — check GITHUB_TOKEN.' }]);
  });

  it('refuses a missing label with one line and exit code 2', async () => {
    const result = await run(['--json']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe('work-items: --label <role> is required.');
    expect(github.requests).toHaveLength(0);
  });

  it('warns about an unreadable settings file and still answers', async () => {
    await writeFile(path.join(home, 'settings.json'), '{ nope');
    const result = await run(['--label', 'tester', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ label: 'tester', items: [], errors: [] });
    expect(result.stderr).toMatch(/^warning: .*settings\.json is not valid JSON/);
    expect(result.stderr).toMatch(/note: no workSources configured/);
  });
});

describe('parseArguments', () => {
  it('reads both label forms and refuses unknown arguments', () => {
    expect(parseArguments(['--label', 'QA Lead'])).toEqual({ ok: true, label: 'QA Lead', json: false });
    expect(parseArguments(['--json', '--label=tester'])).toEqual({ ok: true, label: 'tester', json: true });
    expect(parseArguments(['--label'])).toMatchObject({ ok: false });
    expect(parseArguments(['--label', 'x', '--verbose'])).toEqual({ ok: false, message: 'work-items: unknown argument "--verbose".' });
  });
});
