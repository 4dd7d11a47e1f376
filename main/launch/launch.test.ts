/**
 * Hire and launch over real tmux (a private server per test file) and a stand-in `claude` on a temporary PATH that
 * records its argv and cwd and writes a journal in Claude Code's format under a temporary CLAUDE_CONFIG_DIR.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../cli/index';
import { agentCall, assistantLine, userLine } from '../testing/claudeJournal';
import { attachCommand, harnessArgv, newSessionArgv, tmuxSessionName } from './launchRules';
import { findOnPath } from './tmux';

const tmux = findOnPath('tmux', process.env);
if (!tmux) console.log('launch tests skipped: tmux is not on PATH (apt-get install tmux)');

const root = mkdtempSync(path.join(tmpdir(), 'pixelfleet-launch-'));
const socket = `pf-test-${process.pid}-${Date.now().toString(36)}`;
afterAll(() => {
  if (tmux) {
    try {
      execFileSync(tmux, ['-L', socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // The server is already gone when every session ended.
    }
  }
  rmSync(root, { recursive: true, force: true });
});

const STANDIN = `#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');
const home = process.env.CLAUDE_CONFIG_DIR;
const args = process.argv.slice(2);
fs.writeFileSync(path.join(home, 'standin-argv.json'), JSON.stringify({ argv: args, cwd: process.cwd() }));
const id = args[args.indexOf('--session-id') + 1];
const folder = path.join(home, 'projects', process.cwd().replace(/[^A-Za-z0-9]/g, '-'));
fs.mkdirSync(folder, { recursive: true });
const lines = fs.readFileSync(path.join(home, 'standin-lines.jsonl'), 'utf8').split('SESSION').join(id);
fs.appendFileSync(path.join(folder, id + '.jsonl'), lines);
process.stdin.setEncoding('utf8');
let typed = '';
process.stdin.on('data', (chunk) => {
  typed += chunk;
  if (typed.includes('/exit')) process.exit(0);
});
setInterval(() => {}, 1000);
`;

function setup() {
  const dir = mkdtempSync(path.join(root, 'case-'));
  const bin = path.join(dir, 'bin');
  const claudeHome = path.join(dir, 'claude');
  mkdirSync(bin);
  mkdirSync(claudeHome);
  writeFileSync(path.join(bin, 'claude'), STANDIN);
  chmodSync(path.join(bin, 'claude'), 0o755);
  const at = new Date().toISOString();
  const context = { sessionId: 'SESSION', at };
  writeFileSync(
    path.join(claudeHome, 'standin-lines.jsonl'),
    [userLine(context, 'Start the work.'), assistantLine(context, 'msg_1', [agentCall('toolu_launch_1', 'Survey the folder', { run_in_background: true })])].join('\n') + '\n',
  );
  const env: NodeJS.ProcessEnv = {
    HOME: dir,
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
    CLAUDE_CONFIG_DIR: claudeHome,
    CODEX_HOME: path.join(dir, 'codex'),
    XDG_DATA_HOME: path.join(dir, 'data'),
    PIXELFLEET_HOME: path.join(dir, 'home'),
    PIXELFLEET_TMUX_SOCKET: socket,
  };
  return { dir, env, claudeHome };
}

async function cli(argv: string[], env: NodeJS.ProcessEnv) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env });
  return { code, stdout, stderr };
}

async function until<T>(read: () => Promise<T | undefined> | T | undefined, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function tmuxHas(session: string): boolean {
  try {
    execFileSync(tmux!, ['-L', socket, 'has-session', '-t', `=${session}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('launch rules', () => {
  it('names the tmux session pf-<slug> and falls back to the id', () => {
    expect(tmuxSessionName({ id: 'p_X', name: 'Ada "Q" $(rm -rf)' })).toBe('pf-ada-q-rm-rf');
    expect(tmuxSessionName({ id: 'p_AB12', name: '日本' })).toBe('pf-p-ab12');
  });

  it('builds argument vectors, never shell strings', () => {
    const prompt = `say "hi" $(touch x) 'q'`;
    expect(harnessArgv({ harness: 'claude', executable: '/bin/claude', cwd: '/a b', prompt, sessionId: 'u-1' })).toEqual(['/bin/claude', '--session-id', 'u-1', prompt]);
    expect(harnessArgv({ harness: 'codex', executable: '/bin/codex', cwd: '/a b' })).toEqual(['/bin/codex', '--cd', '/a b']);
    expect(harnessArgv({ harness: 'opencode', executable: '/bin/opencode', cwd: '/a b', prompt })).toEqual(['/bin/opencode', '/a b', '--prompt', prompt]);
    expect(newSessionArgv({ session: 'pf-a', cwd: '/a b', argv: ['/bin/x', 'y z'], env: { PIXELFLEET_TMUX_SOCKET: 's' } })).toEqual(['-L', 's', 'new-session', '-d', '-s', 'pf-a', '-c', '/a b', '--', '/bin/x', 'y z']);
  });

  it('quotes the attach command for display', () => {
    expect(attachCommand('pf-ada', {})).toBe('tmux attach -t pf-ada');
    expect(attachCommand('pf-ada', { PIXELFLEET_TMUX_SOCKET: "my sock's" })).toBe(`tmux -L 'my sock'\\''s' attach -t pf-ada`);
  });
});

describe.skipIf(!tmux)('agents launch / attach / stop over real tmux', () => {
  it('launches a stand-in Claude in tmux, seats it with the role, prints attach, and stop ends the session', async () => {
    const { dir, env, claudeHome } = setup();
    const cwd = path.join(dir, `project with 'quotes' "and" $(touch pwned) spaces`);
    mkdirSync(cwd);
    const name = `Ada "Q" O'Neil $(touch pwned)`;
    const prompt = `Fix "it" and 'that' $(touch pwned) \`touch pwned\` ; exit`;

    const launched = await cli(['agents', 'launch', '--harness', 'claude', '--role', 'builder', '--cwd', cwd, '--name', name, '--prompt', prompt, '--json'], env);
    expect(launched.stderr).toBe('');
    expect(launched.code).toBe(0);
    const result = JSON.parse(launched.stdout);
    expect(result.persona.name).toBe(name);
    expect(result.persona.role).toBe('builder');
    expect(result.seated).toBe(true);
    expect(result.persona.seat.harness).toBe('claude');
    expect(result.tmuxSession).toBe('pf-ada-q-o-neil-touch-pwned');
    expect(result.attach).toBe(`tmux -L ${socket} attach -t pf-ada-q-o-neil-touch-pwned`);
    expect(tmuxHas(result.tmuxSession)).toBe(true);

    const recorded = await until(() => {
      const file = path.join(claudeHome, 'standin-argv.json');
      return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
    });
    expect(recorded.argv).toEqual(['--session-id', result.persona.seat.sessionId, prompt]);
    expect(recorded.cwd).toBe(cwd);
    expect(existsSync(path.join(cwd, 'pwned'))).toBe(false);
    expect(existsSync(path.join(dir, 'pwned'))).toBe(false);

    const seat = await until(async () => {
      const fleet = await cli(['fleet', '--json'], env);
      const snapshot = JSON.parse(fleet.stdout);
      const found = snapshot.seats.find((entry: { personaId: string; subagents?: { running: number } }) => entry.personaId === result.persona.id);
      return found?.subagents?.running === 1 ? { found, snapshot } : undefined;
    });
    expect(seat.found.id).toBe(`claude:${result.persona.seat.sessionId}`);
    expect(seat.snapshot.personas.find((persona: { id: string }) => persona.id === result.persona.id).role).toBe('builder');

    const attach = await cli(['agents', 'attach', result.persona.id], env);
    expect(attach).toEqual({ code: 0, stdout: `${result.attach}\n`, stderr: '' });

    const stopped = await cli(['agents', 'stop', name], env);
    expect(stopped.stderr).toBe('');
    expect(stopped.code).toBe(0);
    expect(tmuxHas(result.tmuxSession)).toBe(false);
    const journal = path.join(claudeHome, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'), `${result.persona.seat.sessionId}.jsonl`);
    expect(existsSync(journal)).toBe(true);
    const list = JSON.parse((await cli(['agents', 'list', '--json'], env)).stdout);
    expect(list.map((persona: { id: string }) => persona.id)).toContain(result.persona.id);

    const again = await cli(['agents', 'stop', name], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^pixelfleet agents: No tmux session pf-ada-q-o-neil-touch-pwned runs/);
  }, 30_000);

  it('refuses a missing folder, an unknown harness and a harness not on PATH with one line', async () => {
    const { dir, env } = setup();
    const missing = await cli(['agents', 'launch', '--harness', 'claude', '--role', 'builder', '--cwd', path.join(dir, 'nope')], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/does not exist or is not a folder\.\n$/);
    const unknown = await cli(['agents', 'launch', '--harness', 'vim', '--role', 'builder', '--cwd', dir], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split('\n')).toHaveLength(2);
    const noCodex = await cli(['agents', 'launch', '--harness', 'codex', '--role', 'builder', '--cwd', dir], { ...env, PATH: path.join(dir, 'bin') + path.delimiter + path.dirname(tmux!) });
    if (findOnPath('codex', { PATH: path.dirname(tmux!) })) return;
    expect(noCodex.code).toBe(1);
    expect(noCodex.stderr).toMatch(/codex is not on PATH/);
    const list = JSON.parse((await cli(['agents', 'list', '--json'], env)).stdout);
    expect(list).toEqual([]);
  });

  it('says how to install tmux when it is missing', async () => {
    const { dir, env } = setup();
    const result = await cli(['agents', 'launch', '--harness', 'claude', '--role', 'builder', '--cwd', dir], { ...env, PATH: path.join(dir, 'bin') });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^pixelfleet agents: Launch needs tmux, which is not on PATH: install it with .*apt-get install tmux.*\n$/);
  });
});
