/**
 * Hire and launch over real tmux (a private server per test file) and a stand-in `claude` on a temporary PATH that
 * records its argv and cwd and writes a journal in Claude Code's format under a temporary CLAUDE_CONFIG_DIR.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentCall, assistantLine, userLine } from '../../dev/testing/claudeJournal';
import { cli, launchFixture, tmux, until } from '../../dev/testing/launchStandins';
import { agentCharter, attachCommand, claudeRoleStart, harnessArgv, newSessionArgv, parseVersion, sessionOfPersona, terminalArgv, tmuxSessionName } from './launchRules';
import { findOnPath } from './tmux';

if (!tmux) console.log('launch tests skipped: tmux is not on PATH (apt-get install tmux)');

const fixture = launchFixture('pixelfleet-launch-');
const { socket, tmuxHas } = fixture;
afterAll(() => fixture.dispose());

function setup() {
  const context = { sessionId: 'SESSION', at: new Date().toISOString() };
  return fixture.setup([userLine(context, 'Start the work.'), assistantLine(context, 'msg_1', [agentCall('toolu_launch_1', 'Survey the folder', { run_in_background: true })])].join('\n') + '\n');
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

describe('launch rules for roles, renames and terminals', () => {
  it('rule 7: --agent from Claude Code 2.0.59, --append-system-prompt from 1.0.51, else plain and says so', () => {
    const agent = { name: 'tester', charter: '  Break it.\n' };
    expect(parseVersion('2.1.114 (Claude Code)\n')).toEqual([2, 1, 114]);
    expect(parseVersion('Claude Code')).toBeNull();
    expect(claudeRoleStart([2, 0, 59], agent)).toMatchObject({ mode: 'agent', args: ['--agent', 'tester'] });
    expect(claudeRoleStart([10, 0, 0], agent).mode).toBe('agent');
    expect(claudeRoleStart([2, 0, 58], agent)).toMatchObject({ mode: 'append', args: ['--append-system-prompt', 'Break it.'] });
    expect(claudeRoleStart([1, 0, 51], agent).mode).toBe('append');
    expect(claudeRoleStart([1, 0, 50], agent)).toMatchObject({ mode: 'plain', args: [] });
    expect(claudeRoleStart([1, 2, 0], { name: 'tester', charter: ' ' }).mode).toBe('plain');
    expect(claudeRoleStart(null, agent)).toMatchObject({ mode: 'plain', args: [], note: expect.stringMatching(/started plain, without the agent tester/) });
  });

  it('reads the charter of an exported agent after its front matter', () => {
    expect(agentCharter('---\n# pixelfleet-export x\nname: tester\n---\n\nBreak it.\n')).toBe('Break it.');
    expect(agentCharter('No front matter.')).toBe('No front matter.');
  });

  it('rule 6: finds the session that carries the persona id, whatever its name', () => {
    const listing = ' other session\np_ab12 pf-ada\np_ab123 pf-grace\n';
    expect(sessionOfPersona(listing, 'p_ab12')).toBe('pf-ada');
    expect(sessionOfPersona(listing, 'p_ab123')).toBe('pf-grace');
    expect(sessionOfPersona(listing, 'p_zz')).toBeNull();
    expect(sessionOfPersona(listing, '')).toBeNull();
  });

  it('rule 8: the terminal vector is the configured vector, then tmux attach', () => {
    expect(terminalArgv(['xterm', '-title', 'a b', '-e'], '/usr/bin/tmux', 'pf-ada', { PIXELFLEET_TMUX_SOCKET: 's' })).toEqual(['xterm', '-title', 'a b', '-e', '/usr/bin/tmux', '-L', 's', 'attach', '-t', 'pf-ada']);
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

    const recorded = await fixture.recorded(claudeHome);
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
    rmSync(path.join(dir, 'bin', 'codex'));
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
