/** The pixelfleet command in-process, with captured output, over real temp homes and the shared fixtures. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import packageJson from '../../../package.json';
import { main } from './index';
import { sharedFixtures } from '../../dev/testing/sharedFixtures';

const fixtures = sharedFixtures('`inspect` and `replay` over a shared Claude journal');
const FIXTURES = fixtures.path();
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function cli(argv: string[], env: NodeJS.ProcessEnv = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env: { HOME: '/nonexistent-home', ...env } });
  return { code, stdout, stderr };
}

async function homeWithJournal() {
  const dir = await mkdtemp(join(tmpdir(), 'pixelfleet-cli-'));
  dirs.push(dir);
  const folder = join(dir, 'claude', 'projects', '-src-app');
  await mkdir(folder, { recursive: true });
  await writeFile(
    join(folder, 'sess-9.jsonl'),
    `${JSON.stringify({ type: 'assistant', sessionId: 'sess-9', timestamp: '2026-11-30T09:00:00.000Z', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: 'Task', input: { description: '', subagent_type: 'Plan' } }] } })}\n`,
  );
  const env = { PIXELFLEET_HOME: join(dir, 'home'), CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), XDG_DATA_HOME: join(dir, 'data') };
  return { dir, env };
}

describe('pixelfleet', () => {
  it('prints its version and help, and refuses unknown commands', async () => {
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: `${packageJson.version}\n`, stderr: '' });
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('inspect claude');
    const unknown = await cli(['teleport']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.skipIf(!fixtures.present)('inspects a Claude journal in the documented JSON shape', async () => {
    const path = join(FIXTURES, 'claude/06-synthetic-async-agent-notification_v2.1.34/eb000000-0000-4000-8000-000000000001.jsonl');
    const { code, stdout } = await cli(['inspect', 'claude', path, '--json']);
    expect(code).toBe(0);
    const output = JSON.parse(stdout);
    expect(Object.keys(output)).toEqual(['harness', 'session', 'activity', 'subagents', 'read']);
    // The journal's last main-thread line is assistant text long ago: a heuristic turn-done, long since idle.
    expect(output.activity).toMatchObject({ state: 'idle', certain: false });
    expect(output.harness).toBe('claude');
    expect(output.session).toBe('eb000000-0000-4000-8000-000000000001');
    expect(output.subagents.running).toBe(0);
    expect(Object.keys(output.subagents.recent[0]).sort()).toEqual(['background', 'endedAt', 'kind', 'label', 'nativeId', 'outcome', 'replayable', 'startedAt', 'state']);
    expect(output.read.bytes).toBeGreaterThan(0);
  });

  it.skipIf(!fixtures.present)('refuses a replay with a foreign cursor: exit 2 and one line on stderr', async () => {
    const path = join(FIXTURES, 'claude/06-synthetic-async-agent-notification_v2.1.34/eb000000-0000-4000-8000-000000000001.jsonl');
    const refused = await cli(['replay', 'claude', path, 'tu_Task_async_001', '--cursor', 'not-a-cursor', '--json']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    const ok = await cli(['replay', 'claude', path, 'tu_Task_async_001', '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).status).toMatch(/^(ok|unavailable)$/);
  });

  it('refuses usage mistakes with exit 2', async () => {
    expect((await cli(['inspect', 'gemini', 'x'])).code).toBe(2);
    expect((await cli(['inspect', 'claude'])).code).toBe(2);
    expect((await cli(['fleet', '--jsn'])).code).toBe(2);
  });

  it('lists candidates, opens one as a seat, shows it in the fleet and closes it', async () => {
    const { env } = await homeWithJournal();
    const candidates = await cli(['candidates', '--json'], env);
    expect(candidates.code).toBe(0);
    const list = JSON.parse(candidates.stdout);
    expect(list.map((entry: { id: string }) => entry.id)).toEqual(['claude:sess-9']);

    // Fleet commands go through the app's router: a refusal carries the contract's error code.
    const badRole = await cli(['seats', 'open', 'claude:sess-9', '--role', '-oops'], env);
    expect(badRole.code).toBe(1);
    expect(badRole.stderr.trim().split('\n')).toHaveLength(1);
    expect(badRole.stderr.trim()).toMatch(/\(invalid_role\)$/);
    const missing = await cli(['seats', 'open', 'claude:no-such-session'], env);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr.trim()).toMatch(/^pixelfleet: .*\(not_found\)$/);

    const opened = await cli(['seats', 'open', 'claude:sess-9', '--name', 'Ada', '--role', 'Tester', '--json'], env);
    expect(opened.code).toBe(0);
    expect(JSON.parse(opened.stdout).persona).toMatchObject({ name: 'Ada', role: 'tester' });

    const fleet = JSON.parse((await cli(['fleet', '--json'], env)).stdout);
    expect(fleet.cursor).toBeGreaterThan(0);
    expect(fleet.seats).toHaveLength(1);
    expect(fleet.seats[0]).toMatchObject({ id: 'claude:sess-9', harness: 'claude', subagents: { running: 1 } });
    expect(fleet.seats[0].subagents.recent[0]).toMatchObject({ nativeId: 'toolu_9', label: 'Plan', kind: 'Plan', state: 'running' });
    expect(fleet.stations.slice(0, 6).map((station: { role: string }) => station.role)).toEqual(['planner', 'designer', 'builder', 'tester', 'reviewer', 'researcher']);
    expect(fleet.stations.find((station: { role: string }) => station.role === 'tester').count).toBe(1);

    expect((await cli(['seats', 'close', 'claude:sess-9'], env)).code).toBe(0);
    const after = JSON.parse((await cli(['fleet', '--json'], env)).stdout);
    expect(after.seats).toEqual([]);
    expect(after.personas).toHaveLength(1);
    expect((await cli(['seats', 'close', 'claude:sess-9'], env)).code).toBe(1);
  });

  it('needs-you lists waiting seats oldest first with why, certain, since and label; exit 0 when empty too', async () => {
    const { dir, env } = await homeWithJournal();
    const folder = join(dir, 'claude', 'projects', '-src-app');
    const ask = { type: 'assistant', sessionId: 'sess-8', timestamp: '2026-11-30T08:00:00.000Z', message: { id: 'm2', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_q', name: 'AskUserQuestion', input: { questions: [] } }] } };
    await writeFile(join(folder, 'sess-8.jsonl'), `${JSON.stringify(ask)}\n`);
    const empty = await cli(['needs-you', '--json'], env);
    expect(empty).toMatchObject({ code: 0, stdout: '[]\n' });
    expect((await cli(['seats', 'open', 'claude:sess-9', '--name', 'Ada'], env)).code).toBe(0);
    expect((await cli(['seats', 'open', 'claude:sess-8', '--name', 'Bo'], env)).code).toBe(0);
    const queue = await cli(['needs-you', '--json'], env);
    expect(queue.code).toBe(0);
    // sess-9 runs a Task subagent (working); sess-8 asks a question.
    expect(JSON.parse(queue.stdout)).toEqual([
      { seatId: 'claude:sess-8', persona: 'Bo', harness: 'claude', why: 'question', certain: true, since: '2026-11-30T08:00:00.000Z', label: 'AskUserQuestion' },
    ]);
    const text = await cli(['needs-you'], env);
    expect(text.stdout).toMatch(/^Bo \(Claude Code\) has a question — AskUserQuestion/);
    expect((await cli(['needs-you', 'extra'], env)).code).toBe(2);
  });
});
