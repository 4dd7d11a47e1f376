/**
 * A persona's terminal over real tmux (a private server for this file) and a stand-in Claude Code that asks a
 * question in Claude Code's journal format and reads its answer from its terminal (main/dev/testing/terminalStandin.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../setup/app';
import { cli, launchFixture, tmux, until } from '../../dev/testing/launchStandins';
import { installQuestionStandin } from '../../dev/testing/terminalStandin';
import { claudeProjectFolder } from './adoption';

if (!tmux) console.log('terminal tests skipped: tmux is not on PATH (apt-get install tmux)');

const fixture = launchFixture('pixelfleet-terminal-');
afterAll(() => fixture.dispose());

function setup() {
  const made = fixture.setup();
  const standin = installQuestionStandin(path.join(made.dir, 'bin'));
  return { ...made, standin };
}

function journalLines(claudeHome: string, cwd: string, sessionId: string): Array<Record<string, unknown>> {
  const file = path.join(claudeProjectFolder(claudeHome, cwd), `${sessionId}.jsonl`);
  return readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
}

function keysReceived(claudeHome: string): string {
  const file = path.join(claudeHome, 'standin-keys.jsonl');
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)).join('') : '';
}

async function list(env: NodeJS.ProcessEnv): Promise<Array<{ id: string; name: string; terminal: unknown }>> {
  return JSON.parse((await cli(['agents', 'list', '--json'], env)).stdout);
}

/** Starts the stand-in in a tmux session Pixelfleet did not launch; resolves with the session id it made up. */
async function startOutside(env: NodeJS.ProcessEnv, standin: string, session: string, cwd: string, claudeHome: string): Promise<string> {
  const before = new Set(readdirSync(path.join(claudeHome, 'sessions'), { withFileTypes: false }).map(String));
  execFileSync(tmux!, ['-L', fixture.socket, 'new-session', '-d', '-s', session, '-c', cwd, '-e', `CLAUDE_CONFIG_DIR=${claudeHome}`, '--', standin], { env: env as NodeJS.ProcessEnv });
  return until(() => {
    const added = readdirSync(path.join(claudeHome, 'sessions')).find((name) => !before.has(name));
    return added ? JSON.parse(readFileSync(path.join(claudeHome, 'sessions', added), 'utf8')).sessionId : undefined;
  });
}

describe.skipIf(!tmux)('a persona’s terminal over real tmux', () => {
  it('needs-you → agents send → the journal records the exact text → the entry leaves the queue', async () => {
    const { dir, env, claudeHome } = setup();
    const cwd = path.join(dir, 'project');
    mkdirSync(cwd);
    const launched = await cli(['agents', 'launch', '--harness', 'claude', '--role', 'builder', '--cwd', cwd, '--name', 'Ada', '--json'], env);
    expect(launched.stderr).toBe('');
    const persona = JSON.parse(launched.stdout).persona;

    const waiting = await until(async () => (JSON.parse((await cli(['needs-you', '--json'], env)).stdout) as Array<{ persona: string; why: string }>).find((entry) => entry.persona === 'Ada'));
    expect(waiting.why).toBe('question');
    const listed = (await list(env)).find((entry) => entry.id === persona.id)!;
    expect(listed.terminal).toEqual({ kind: 'tmux', target: expect.stringMatching(/^pf-ada:\d+\.\d+$/), launched: true });

    const peeked = await until(async () => {
      const result = await cli(['agents', 'peek', 'Ada', '--json'], env);
      const value = JSON.parse(result.stdout) as { persona: string; target: string; lines: string[] };
      return value.lines.includes('Which colour should the button be?') ? value : undefined;
    });
    expect(peeked).toEqual({ persona: persona.id, target: (listed.terminal as { target: string }).target, lines: expect.any(Array) });
    const plain = await cli(['agents', 'peek', 'Ada', '--lines', '1'], env);
    expect(plain).toEqual({ code: 0, stdout: '>\n', stderr: '' });

    const text = `Teal "quoted" 'single' $(touch pwned) ; é ✓ -x`;
    const sent = await cli(['agents', 'send', 'Ada', text, '--wait', '20', '--json'], env);
    expect(sent.stderr).toBe('');
    expect(JSON.parse(sent.stdout)).toEqual({ delivered: true, acknowledged: true });
    const answer = journalLines(claudeHome, cwd, persona.seat.sessionId).at(-1) as { type: string; message: { content: Array<{ type: string; content: string }> } };
    expect(answer.type).toBe('user');
    expect(answer.message.content[0]).toMatchObject({ type: 'tool_result', content: text });
    expect(existsSync(path.join(cwd, 'pwned'))).toBe(false);
    await until(async () => ((JSON.parse((await cli(['needs-you', '--json'], env)).stdout) as Array<{ persona: string }>).some((entry) => entry.persona === 'Ada') ? undefined : true));

    // Typed text is written nowhere in the app home.
    const home = env.PIXELFLEET_HOME!;
    for (const name of readdirSync(home)) {
      const file = path.join(home, name);
      if (existsSync(file) && !readdirSync(home, { withFileTypes: true }).find((entry) => entry.name === name)?.isDirectory()) expect(readFileSync(file).includes(Buffer.from('Teal "quoted"'))).toBe(false);
    }
  }, 60_000);

  it('refuses control characters, over-long text and unnamed keys, and sends nothing then', async () => {
    const { dir, env, claudeHome } = setup();
    const cwd = path.join(dir, 'project');
    mkdirSync(cwd);
    await cli(['agents', 'launch', '--harness', 'claude', '--role', 'builder', '--cwd', cwd, '--name', 'Bo', '--json'], env);
    await until(async () => ((await cli(['agents', 'peek', 'Bo'], env)).stdout.includes('Which colour') ? true : undefined));
    const control = await cli(['agents', 'send', 'Bo', 'rm -rf /\u001b[A'], env);
    expect(control.code).toBe(1);
    expect(control.stderr).toMatch(/control characters \(found U\+001B\)/);
    const long = await cli(['agents', 'send', 'Bo', 'é'.repeat(2049)], env);
    expect(long.code).toBe(1);
    expect(long.stderr).toMatch(/at most 4096 bytes \(this one is 4098\)/);
    const badKey = await cli(['agents', 'keys', 'Bo', 'Enter', 'F1'], env);
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toMatch(/"F1" is not a key that can be pressed.*Nothing was sent/);
    expect(keysReceived(claudeHome)).toBe('');
    const keys = await cli(['agents', 'keys', 'Bo', 'x', 'BSpace', 'y', 'Enter'], env);
    expect(keys).toEqual({ code: 0, stdout: '', stderr: '' });
    await until(() => (keysReceived(claudeHome) === 'x\x7fy\r' ? true : undefined));
    const none = await cli(['agents', 'peek', 'Nobody'], env);
    expect(none.code).toBe(1);
  }, 60_000);

  it('Approve and Interrupt press the keys Claude Code’s own dialog takes; a persona without a pane says why', async () => {
    const { dir, env, claudeHome } = setup();
    const cwd = path.join(dir, 'project');
    mkdirSync(cwd);
    const launched = JSON.parse((await cli(['agents', 'launch', '--harness', 'claude', '--role', 'builder', '--cwd', cwd, '--name', 'Cy', '--json'], env)).stdout);
    await until(async () => ((await cli(['agents', 'peek', 'Cy'], env)).stdout.includes('Which colour') ? true : undefined));
    const app = await createApp({ home: env.PIXELFLEET_HOME!, mode: 'web', env, live: false, log: () => {} });
    try {
      const approve = await app.router.handle('terminal.act', { personaId: launched.persona.id, action: 'approve' });
      expect(approve).toEqual({ ok: true, value: { delivered: true, keys: ['1'] } });
      await until(() => (keysReceived(claudeHome) === '1' ? true : undefined));
      const interrupt = await app.router.handle('terminal.act', { personaId: launched.persona.id, action: 'interrupt' });
      expect(interrupt).toEqual({ ok: true, value: { delivered: true, keys: ['Escape'] } });
      await until(() => (keysReceived(claudeHome) === '1\x1b' ? true : undefined));
      const hired = await app.router.handle('agents.hire', { name: 'Dee' });
      const personaId = (hired as { ok: true; value: { id: string } }).value.id;
      expect(await app.router.handle('terminal.locate', { personaId })).toEqual({ ok: true, value: { personaId, terminal: null, reason: 'It has no seat, so no session to look for in tmux.', uncertain: false } });
      const refused = await app.router.handle('terminal.send', { personaId, text: 'hello' });
      expect(refused).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringMatching(/^Dee has no terminal Pixelfleet can reach/) } });
    } finally {
      await app.dispose();
    }
  }, 60_000);

  it('finds and peeks a pane started outside Pixelfleet; two that share a folder with nothing to tell them apart are uncertain', async () => {
    const { dir, env, claudeHome, standin } = setup();
    const cwd = path.join(dir, 'outside project');
    mkdirSync(cwd);
    mkdirSync(path.join(claudeHome, 'sessions'), { recursive: true });
    const sessionId = await startOutside(env, standin, 'outside', cwd, claudeHome);
    await until(() => (existsSync(path.join(claudeProjectFolder(claudeHome, cwd), `${sessionId}.jsonl`)) ? true : undefined));
    const opened = await cli(['seats', 'open', `claude:${sessionId}`, '--name', 'Eve', '--json'], env);
    expect(opened.stderr).toBe('');
    const eve = JSON.parse(opened.stdout).persona;
    const found = (await list(env)).find((entry) => entry.id === eve.id)!;
    expect(found.terminal).toEqual({ kind: 'tmux', target: expect.stringMatching(/^outside:\d+\.\d+$/), launched: false });
    const peeked = await until(async () => {
      const result = await cli(['agents', 'peek', 'Eve'], env);
      return result.stdout.includes('Which colour should the button be?') ? result : undefined;
    });
    expect(peeked.code).toBe(0);

    // A second stand-in in the same folder, and no registry left to tell the two apart: uncertain, never a pick.
    await startOutside(env, standin, 'outside-too', cwd, claudeHome);
    rmSync(path.join(claudeHome, 'sessions'), { recursive: true, force: true });
    const app = await createApp({ home: env.PIXELFLEET_HOME!, mode: 'web', env, live: false, log: () => {} });
    try {
      const located = await app.router.handle('terminal.locate', { personaId: eve.id });
      expect(located).toMatchObject({ ok: true, value: { terminal: null, uncertain: true, reason: expect.stringMatching(/^Uncertain: more than one tmux pane runs claude/) } });
    } finally {
      await app.dispose();
    }
    expect((await list(env)).find((entry) => entry.id === eve.id)!.terminal).toBeNull();
  }, 60_000);
});
