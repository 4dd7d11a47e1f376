/**
 * A persona's terminal over real tmux (a private server for this file) and a stand-in Claude Code that asks a
 * question in Claude Code's journal format and reads its answer from its terminal (main/dev/testing/terminalStandin.ts).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
    for (const entry of readdirSync(home, { withFileTypes: true })) if (entry.isFile()) expect(readFileSync(path.join(home, entry.name)).includes(Buffer.from('Teal "quoted"'))).toBe(false);
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

/** A stand-in Codex that keeps its rollout open (as the real one does) and has no session id in its argv. */
const CODEX_HOLDING_ROLLOUT = `#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const home = process.env.CODEX_HOME;
const now = new Date();
const two = (n) => String(n).padStart(2, '0');
const day = [String(now.getFullYear()), two(now.getMonth() + 1), two(now.getDate())];
const stamp = day.join('-') + 'T' + [two(now.getHours()), two(now.getMinutes()), two(now.getSeconds())].join('-');
const id = crypto.randomUUID();
const folder = path.join(home, 'sessions', ...day);
fs.mkdirSync(folder, { recursive: true });
const at = now.toISOString();
const fd = fs.openSync(path.join(folder, 'rollout-' + stamp + '-' + id + '.jsonl'), 'a');
fs.writeSync(fd, JSON.stringify({ timestamp: at, type: 'session_meta', payload: { id, timestamp: at, cwd: process.cwd(), originator: 'codex_cli_rs', cli_version: '0.120.0', source: 'cli' } }) + '\\n');
fs.writeSync(fd, JSON.stringify({ timestamp: at, type: 'turn_context', payload: { cwd: process.cwd(), approval_policy: 'on-request', model: 'gpt-5' } }) + '\\n');
process.stdout.write('codex stand-in ready\\n');
setInterval(() => {}, 1000);
`;

describe.skipIf(!tmux || process.platform !== 'linux')('adopting Codex and OpenCode panes (Linux: open files and folders from /proc)', () => {
  async function candidate(env: NodeJS.ProcessEnv, harness: string): Promise<string> {
    return until(async () => (JSON.parse((await cli(['candidates', '--json'], env)).stdout) as Array<{ id: string; seat: { harness: string } }>).find((entry) => entry.seat.harness === harness)?.id);
  }

  it('Codex: its rollout among the open files of its process tree', async () => {
    const { dir, env } = setup();
    const bin = path.join(dir, 'bin-codex');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'codex'), CODEX_HOLDING_ROLLOUT);
    chmodSync(path.join(bin, 'codex'), 0o755);
    const cwd = path.join(dir, 'codex project');
    mkdirSync(cwd);
    execFileSync(tmux!, ['-L', fixture.socket, 'new-session', '-d', '-s', 'cx', '-c', cwd, '-e', `CODEX_HOME=${env.CODEX_HOME}`, '--', path.join(bin, 'codex')]);
    const id = await candidate(env, 'codex');
    const opened = JSON.parse((await cli(['seats', 'open', id, '--name', 'Flo', '--json'], env)).stdout);
    const flo = (await list(env)).find((entry) => entry.id === opened.persona.id)!;
    expect(flo.terminal).toEqual({ kind: 'tmux', target: expect.stringMatching(/^cx:\d+\.\d+$/), launched: false });
    const peeked = await until(async () => ((await cli(['agents', 'peek', 'Flo'], env)).stdout.includes('codex stand-in ready') ? true : undefined));
    expect(peeked).toBe(true);
  }, 60_000);

  it('OpenCode: its folder is the session’s folder, and the session is the folder’s latest in the store', async () => {
    const { dir, env } = setup();
    const cwd = path.join(dir, 'oc project');
    mkdirSync(cwd);
    execFileSync(tmux!, ['-L', fixture.socket, 'new-session', '-d', '-s', 'oc', '-c', cwd, '-e', `XDG_DATA_HOME=${env.XDG_DATA_HOME}`, '--', path.join(dir, 'bin', 'opencode'), cwd]);
    const id = await candidate(env, 'opencode');
    const opened = JSON.parse((await cli(['seats', 'open', id, '--name', 'Gil', '--json'], env)).stdout);
    const gil = (await list(env)).find((entry) => entry.id === opened.persona.id)!;
    expect(gil.terminal).toEqual({ kind: 'tmux', target: expect.stringMatching(/^oc:\d+\.\d+$/), launched: false });
    const peeked = await cli(['agents', 'peek', 'Gil', '--json'], env);
    expect(peeked.code).toBe(0);
    expect(JSON.parse(peeked.stdout).target).toBe((gil.terminal as { target: string }).target);
  }, 60_000);
});

describe.skipIf(!tmux)('a live stream of a pane through tmux control mode', () => {
  it('gives the screen now, then what the pane writes as terminal.output events, until unwatched', async () => {
    const { dir, env } = setup();
    const cwd = path.join(dir, 'project');
    mkdirSync(cwd);
    const launched = JSON.parse((await cli(['agents', 'launch', '--harness', 'claude', '--role', 'builder', '--cwd', cwd, '--name', 'Hal', '--json'], env)).stdout);
    await until(async () => ((await cli(['agents', 'peek', 'Hal'], env)).stdout.includes('Which colour') ? true : undefined));
    const app = await createApp({ home: env.PIXELFLEET_HOME!, mode: 'web', env, live: false, log: () => {} });
    const events: Array<{ event: string; payload: { streamId?: string; data?: string; reason?: string; seq?: number } }> = [];
    const off = app.onEvent((event, payload) => events.push({ event, payload: payload as never }));
    try {
      const watched = await app.router.handle('terminal.watch', { personaId: launched.persona.id });
      if (!watched.ok) throw new Error(watched.error.message);
      const stream = watched.value as { streamId: string; target: string; cols: number; rows: number; screen: string };
      expect(stream.screen).toContain('Which colour should the button be?');
      expect(stream.cols).toBeGreaterThan(0);
      execFileSync(tmux!, ['-L', fixture.socket, 'send-keys', '-t', 'pf-hal', '-l', 'blue-ish ✓']);
      await until(() => (events.filter((entry) => entry.event === 'terminal.output' && entry.payload.streamId === stream.streamId).map((entry) => entry.payload.data).join('').includes('blue-ish ✓') ? true : undefined));
      const seqs = events.filter((entry) => entry.event === 'terminal.output').map((entry) => entry.payload.seq);
      expect(seqs).toEqual(seqs.map((_, index) => index + 1));
      expect(await app.router.handle('terminal.watch', { personaId: launched.persona.id, streamId: stream.streamId })).toMatchObject({ ok: true, value: { streamId: stream.streamId, screen: '' } });
      expect(await app.router.handle('terminal.unwatch', { streamId: stream.streamId })).toEqual({ ok: true, value: { ended: true } });
      expect(events.find((entry) => entry.event === 'terminal.ended')?.payload).toMatchObject({ streamId: stream.streamId, reason: 'Closed.' });
      expect(await app.router.handle('terminal.watch', { personaId: launched.persona.id, streamId: stream.streamId })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    } finally {
      off();
      await app.dispose();
    }
  }, 60_000);
});
