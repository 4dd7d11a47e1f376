/** `pixelfleet jobs` in-process over a real temp home and a real Claude journal. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from './index';
import { openDatabase } from '../../core/history/sqlite';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function cli(argv: string[], env: NodeJS.ProcessEnv) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env: { HOME: '/nonexistent-home', ...env } });
  return { code, stdout, stderr };
}

const at = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();
const call = (id: string, type: string, description: string, background = false) => ({
  type: 'tool_use',
  id,
  name: 'Agent',
  input: { description, subagent_type: type, prompt: 'not shown', ...(background ? { run_in_background: true } : {}) },
});
const line = (value: object) => `${JSON.stringify({ sessionId: 'sess-j', cwd: '/src/app', ...value })}\n`;

async function homeWithJobs() {
  const dir = await mkdtemp(join(tmpdir(), 'pixelfleet-jobs-cli-'));
  dirs.push(dir);
  const folder = join(dir, 'claude', 'projects', '-src-app');
  await mkdir(folder, { recursive: true });
  await writeFile(
    join(folder, 'sess-j.jsonl'),
    line({ type: 'user', timestamp: at(600), message: { role: 'user', content: 'go' } }) +
      line({ type: 'assistant', timestamp: at(300), message: { id: 'm1', role: 'assistant', content: [call('toolu_done', 'Explore', 'Scan the docs')] } }) +
      line({ type: 'user', timestamp: at(240), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_done', content: [{ type: 'text', text: 'ok' }] }] } }) +
      line({ type: 'assistant', timestamp: at(180), message: { id: 'm2', role: 'assistant', content: [call('toolu_bg', 'general-purpose', 'Run the slow suite', true)] } }) +
      line({ type: 'user', timestamp: at(179), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_bg', content: [{ type: 'text', text: 'Async agent launched successfully.' }] }] }, toolUseResult: { status: 'async_launched', agentId: 'a1' } }) +
      line({ type: 'assistant', timestamp: at(120), message: { id: 'm3', role: 'assistant', content: [call('toolu_fg', 'Explore', 'Find the config')] } }),
  );
  const env = { PIXELFLEET_HOME: join(dir, 'home'), CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), XDG_DATA_HOME: join(dir, 'data') };
  return { dir, env };
}

describe('pixelfleet jobs', () => {
  it('prints running jobs longest first in the documented JSON shape; --all adds the recently ended', async () => {
    const { env, dir } = await homeWithJobs();
    expect((await cli(['seats', 'open', 'claude:sess-j', '--name', 'Ada'], env)).code).toBe(0);
    const running = await cli(['jobs', '--json'], env);
    expect(running.stderr).toBe('');
    expect(running.code).toBe(0);
    const jobs = JSON.parse(running.stdout);
    expect(jobs.map((job: { alias: string }) => job.alias)).toEqual(['general-purpose-1', 'explore-1']);
    expect(Object.keys(jobs[0])).toEqual(['alias', 'nativeId', 'seatId', 'persona', 'harness', 'type', 'label', 'kind', 'startedAt']);
    expect(jobs[0]).toMatchObject({ nativeId: 'toolu_bg', seatId: 'claude:sess-j', persona: 'Ada', harness: 'claude', type: 'general-purpose', label: 'Run the slow suite', kind: 'background' });
    expect(jobs[1]).toMatchObject({ nativeId: 'toolu_fg', kind: 'foreground', type: 'Explore' });

    const all = JSON.parse((await cli(['jobs', '--json', '--all'], env)).stdout);
    expect(all.map((job: { alias: string }) => job.alias)).toEqual(['general-purpose-1', 'explore-1', 'explore-2']);
    expect(all[2]).toMatchObject({ nativeId: 'toolu_done', outcome: 'completed' });
    expect(typeof all[2].endedAt).toBe('string');

    const text = await cli(['jobs'], env);
    expect(text.stdout).toMatch(/^general-purpose-1 .*background.*running.*Ada \(Claude Code\)\s+Run the slow suite$/m);
    // The one duration style the page uses too ("3 min", never "3m").
    expect(text.stdout).toMatch(/^general-purpose-1 +\d+ (s|min)/m);
    // The aliases live in the history store: one row each, the type's counter at its last number.
    const store = await openDatabase(join(dir, 'home', 'history.sqlite'), { readOnly: true });
    expect(store.prepare("SELECT value FROM alias_counter WHERE slug = 'explore'").get()).toEqual({ value: 2 });
    store.close();
  });

  it('drops the jobs of a closed seat and brings them back with their first aliases when it reopens', async () => {
    const { env } = await homeWithJobs();
    await cli(['seats', 'open', 'claude:sess-j'], env);
    const before = JSON.parse((await cli(['jobs', '--json'], env)).stdout);
    expect(before).toHaveLength(2);
    expect((await cli(['seats', 'close', 'claude:sess-j'], env)).code).toBe(0);
    expect(JSON.parse((await cli(['jobs', '--json'], env)).stdout)).toEqual([]);
    await cli(['seats', 'open', 'claude:sess-j'], env);
    const after = JSON.parse((await cli(['jobs', '--json'], env)).stdout);
    expect(after.map((job: { alias: string }) => job.alias)).toEqual(before.map((job: { alias: string }) => job.alias));
  });

  it('refuses an unknown option with exit 2', async () => {
    const { env } = await homeWithJobs();
    const result = await cli(['jobs', '--running'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Unknown option --running');
  });
});
