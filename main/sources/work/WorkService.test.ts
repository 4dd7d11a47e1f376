import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WorkItem } from '../../../shared/schemas';
import type { WorkSourceConfig } from './workSettings';
import { labelKey } from './labelMatch';
import { startTrackerServer, type TrackerAnswer, type TrackerServer } from '../../dev/testing/trackerServer';
import { WorkService } from './WorkService';

const TOKEN = 'ghp_do-not-print-me';
let folder: string;
let github: TrackerServer;
let githubAnswer: () => TrackerAnswer;
let service: WorkService | undefined;

const githubIssue = (number: number, labels: string[]) => ({
  number,
  title: `Issue ${number}`,
  html_url: `https://github.example/acme/app/issues/${number}`,
  labels: labels.map((name) => ({ name })),
});

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'pixelfleet-work-'));
  await writeFile(path.join(folder, 'mix.md'), '---\nlabels: [sound designer]\n---\n# Mix the theme\n');
  await writeFile(path.join(folder, 'steps.md'), '---\nlabels: "  SOUND   Designer , tester"\n---\n# Footsteps\n');
  await writeFile(path.join(folder, 'copy.md'), '---\nlabels: writer\n---\n# Copy\n');
  githubAnswer = () => ({ status: 200, json: [githubIssue(1, ['Sound Designer']), githubIssue(2, ['Tester'])] });
  github = await startTrackerServer(() => githubAnswer());
});

afterEach(async () => {
  service?.dispose();
  service = undefined;
  await github.close();
  await rm(folder, { recursive: true, force: true });
});

function build(extra: WorkSourceConfig[] = [], options: Partial<ConstructorParameters<typeof WorkService>[0]> = {}) {
  service = new WorkService({
    sources: [{ kind: 'markdown', dir: folder }, { kind: 'github', repo: 'acme/app', apiUrl: github.url, tokenEnv: 'GITHUB_TOKEN' }, ...extra],
    env: { GITHUB_TOKEN: TOKEN },
    onDemandFloorMs: 0,
    ...options,
  });
  return service;
}

const ids = (items: WorkItem[]) => items.map((item) => item.id);

describe('WorkService', () => {
  it('matches labels case-insensitively with collapsed whitespace, custom roles too', async () => {
    const work = build();
    const soundDesigner = await work.items('Sound Designer');
    expect(ids(soundDesigner.items)).toEqual(['mix.md', 'steps.md', 'acme/app#1']);
    expect(soundDesigner.errors).toEqual([]);
    expect(ids((await work.items('TESTER')).items)).toEqual(['steps.md', 'acme/app#2']);
    expect(ids((await work.items('  sound   designer ')).items)).toEqual(['mix.md', 'steps.md', 'acme/app#1']);
    expect((await work.items('sound')).items).toEqual([]);
    expect((await work.items('   ')).items).toEqual([]);
    expect(labelKey(' Sound\tDesigner ')).toBe('sound designer');
  });

  it('keeps the other sources working while one fails, and shows the failure', async () => {
    githubAnswer = () => ({ status: 401, json: { message: 'Bad credentials' } });
    const work = build([{ kind: 'linear', teamKey: 'ENG', apiUrl: `${github.url}/graphql`, tokenEnv: 'LINEAR_API_KEY' }]);

    const result = await work.items('sound designer');

    expect(ids(result.items)).toEqual(['mix.md', 'steps.md']);
    expect(result.errors).toEqual([
      { source: 'GitHub acme/app', message: 'GitHub: 401 — check GITHUB_TOKEN.' },
      { source: 'Linear ENG', message: 'Linear: set LINEAR_API_KEY to read team ENG.' },
    ]);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect(work.failedSourceCount()).toBe(2);
  });

  it('keeps serving the last good items beside a new error', async () => {
    const work = build();
    expect(ids((await work.items('tester')).items)).toEqual(['steps.md', 'acme/app#2']);
    githubAnswer = () => ({ status: 500, text: 'oops' });
    const result = await work.items('tester', { refresh: true });
    expect(ids(result.items)).toEqual(['steps.md', 'acme/app#2']);
    expect(result.errors).toEqual([
      { source: 'GitHub acme/app', message: `GitHub: ${new URL(github.url).host} answered 500 for acme/app; try again later.` },
    ]);
  });

  it('answers from the cache until it is stale or a refresh is asked for', async () => {
    const work = build([], { refreshMs: 60_000 });
    await work.items('tester');
    await work.items('tester');
    expect(github.requests).toHaveLength(1);
    await work.items('tester', { refresh: true });
    expect(github.requests).toHaveLength(2);
  });

  it('does not refresh on demand more often than the floor allows', async () => {
    const work = build([], { onDemandFloorMs: 60_000 });
    await work.items('tester');
    await work.items('tester', { refresh: true });
    expect(github.requests).toHaveLength(1);
  });

  it('shares one request between concurrent callers', async () => {
    const work = build();
    const [first, second] = await Promise.all([work.items('tester'), work.items('sound designer'), work.refreshAll()]);
    expect(github.requests).toHaveLength(1);
    expect(ids(first.items)).toEqual(['steps.md', 'acme/app#2']);
    expect(ids(second.items)).toEqual(['mix.md', 'steps.md', 'acme/app#1']);
  });

  it('waits for a rate limit to reset before asking again', async () => {
    githubAnswer = () => ({
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600) },
      json: { message: 'API rate limit exceeded' },
    });
    const work = build();
    const first = await work.items('tester');
    await work.items('tester', { refresh: true });
    expect(github.requests).toHaveLength(1);
    expect(first.errors[0].message).toMatch(/^GitHub: rate limited until \d\d:\d\d\.$/);
  });

  it('tells listeners only when items or errors changed', async () => {
    const work = build();
    const listener = vi.fn();
    work.onChange(listener);
    expect(await work.refreshAll()).toBe(true);
    expect(await work.refreshAll()).toBe(false);
    expect(listener).toHaveBeenCalledTimes(1);
    await writeFile(path.join(folder, 'new.md'), '---\nlabels: tester\n---\n# New\n');
    expect(await work.refreshAll()).toBe(true);
    githubAnswer = () => ({ status: 401, text: '' });
    expect(await work.refreshAll()).toBe(true);
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('builds backlogs per role from the cache without the network', async () => {
    githubAnswer = () => ({ status: 401, text: '' });
    const work = build();
    const empty = work.backlogFor(['tester']);
    expect(empty.get('tester')).toEqual({ items: [] });
    expect(github.requests).toHaveLength(0);

    await work.refreshAll();
    const backlogs = work.backlogFor(['Tester', 'Sound Designer', 'writer', 'planner']);
    expect(github.requests).toHaveLength(1);
    expect([...backlogs.keys()]).toEqual(['tester', 'sound designer', 'writer', 'planner']);
    expect(ids(backlogs.get('sound designer')?.items ?? [])).toEqual(['mix.md', 'steps.md']);
    expect(ids(backlogs.get('writer')?.items ?? [])).toEqual(['copy.md']);
    expect(backlogs.get('planner')).toEqual({ items: [], error: 'GitHub: 401 — check GITHUB_TOKEN.' });
  });

  it('refreshes in the background once started and stops when disposed', async () => {
    const work = build([], { refreshMs: 50 });
    const listener = vi.fn();
    work.onChange(listener);
    work.start();
    // Generous waits: on a busy machine a 50 ms timer and a local HTTP answer can take seconds.
    await vi.waitFor(() => expect(listener).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    githubAnswer = () => ({ status: 200, json: [githubIssue(3, ['tester'])] });
    await vi.waitFor(() => expect(listener).toHaveBeenCalledTimes(2), { timeout: 10_000 });
    expect(ids(work.backlogFor(['tester']).get('tester')?.items ?? [])).toEqual(['steps.md', 'acme/app#3']);
    work.dispose();
    // A request already on the wire may still land; after that, a live 50 ms timer would add several more.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const seen = github.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(github.requests.length).toBe(seen);
  });

  it('answers without a source that misses its deadline, shows its error on the stations, and asks it once at a time', async () => {
    githubAnswer = () => 'hang';
    // The deadline leaves the Markdown folder time to answer on a busy machine; the hung tracker never does.
    const work = build([], { timeoutMs: 60_000, sourceDeadlineMs: 1_500 });
    const result = await work.items('tester');
    expect(ids(result.items)).toEqual(['steps.md']);
    const late = { source: 'GitHub acme/app', message: 'GitHub acme/app: did not answer within 1.5 s; it is asked again at the next refresh.' };
    expect(result.errors).toEqual([late]);
    expect(work.backlogFor(['tester']).get('tester')).toEqual({ items: result.items, error: late.message });
    // The hung listing still runs: a refresh does not start a second one beside it, and still answers.
    await writeFile(path.join(folder, 'later.md'), '---\nlabels: tester\n---\n# Later\n');
    const again = await work.items('tester', { refresh: true });
    expect(ids(again.items)).toEqual(['later.md', 'steps.md']);
    expect(again.errors).toEqual([late]);
    expect(github.requests).toHaveLength(1);
  });

  it('aborts a request in flight on dispose', async () => {
    githubAnswer = () => 'hang';
    const work = build([], { timeoutMs: 60_000 });
    const pending = work.items('tester');
    await vi.waitFor(() => expect(github.requests).toHaveLength(1));
    work.dispose();
    const result = await pending;
    expect(ids(result.items)).toEqual(['steps.md']);
    expect(result.errors).toEqual([{ source: 'GitHub acme/app', message: 'GitHub: stopped.' }]);
  });
});
