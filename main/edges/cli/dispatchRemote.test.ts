/**
 * `work-items dispatch --host` (issue 42) over the stand-in ssh (PIXELFLEET_SSH): the backlog is this host's, the git
 * repository, the worktree, tmux and the agent are the remote's ("beta", a home of its own under the stand-in's root),
 * and the record stays here. Real git, real tmux (a private server), stand-in harnesses on PATH.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assistantLine, userLine } from '../../dev/testing/claudeJournal';
import { cli, launchFixture, tmux, until } from '../../dev/testing/launchStandins';
import { installQuestionStandin } from '../../dev/testing/terminalStandin';
import { claudeProjectFolder } from '../../core/terminal/adoption';

if (!tmux) console.log('dispatch --host tests skipped: tmux is not on PATH (apt-get install tmux)');

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const STAND_IN = path.join(ROOT, 'main', 'edges', 'remote', 'fixtures', 'stand-in-ssh.mjs');
const PIXELFLEET = `${process.execPath} ${path.join(ROOT, 'main', 'edges', 'cli', 'pixelfleet.mjs')}`;

const fixture = launchFixture('pixelfleet-dispatch-remote-');
afterAll(() => fixture.dispose());

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
}

/** A local home with a Markdown backlog and the remote beta (and, when asked, dead: down); beta holds a committed repository. */
async function setup(withDead = false) {
  const context = { sessionId: 'SESSION', at: new Date().toISOString() };
  const made = fixture.setup([userLine(context, 'Start.'), assistantLine(context, 'msg_1', [{ type: 'text', text: 'On it.' }])].join('\n') + '\n');
  const env: NodeJS.ProcessEnv = { ...made.env, PIXELFLEET_SSH: STAND_IN, PIXELFLEET_STANDIN_ROOT: made.dir };
  const home = env.PIXELFLEET_HOME!;
  const backlog = path.join(home, 'backlog');
  mkdirSync(backlog, { recursive: true });
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ workSources: [{ kind: 'markdown', dir: 'backlog' }] }));
  writeFileSync(path.join(backlog, 'retry.md'), '---\nlabels: [builder]\nstatus: todo\n---\n# Add a retry budget\n\nCap retries per minute.\n');
  // beta's own homes, as the stand-in ssh sets them for its command: the stand-in harness reads its lines there.
  const beta = path.join(made.dir, 'beta');
  mkdirSync(path.join(beta, 'claude'), { recursive: true });
  writeFileSync(path.join(beta, 'claude', 'standin-lines.jsonl'), readFileSync(path.join(made.claudeHome, 'standin-lines.jsonl')));
  const repo = path.join(beta, 'project');
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(repo, 'README.md'), 'hello\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'first');
  expect((await cli(['remote', 'add', 'beta', 'beta', '--command', PIXELFLEET], env)).code).toBe(0);
  if (withDead) {
    expect((await cli(['remote', 'add', 'dead', 'dead', '--command', PIXELFLEET], env)).code).toBe(0);
    writeFileSync(path.join(made.dir, 'dead.down'), '');
  }
  return { ...made, env, home, beta, repo };
}

/** What a refused dispatch must leave as it was, on both machines. */
function state(home: string, beta: string, repo: string) {
  const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : null);
  return {
    dispatches: read(path.join(home, 'dispatches.json')),
    localPersonas: read(path.join(home, 'personas.json')),
    remotePersonas: read(path.join(beta, 'personas.json')),
    branches: git(repo, 'branch', '--format=%(refname:short)'),
    worktrees: git(repo, 'worktree', 'list', '--porcelain'),
  };
}

describe.skipIf(!tmux)('work-items dispatch --host over the stand-in ssh', () => {
  it('--worktree makes the worktree in the remote’s repository, launches the agent there, and keeps the record here', async () => {
    const { env, home, beta, repo } = await setup();
    const dispatched = await cli(['work-items', 'dispatch', 'retry.md', '--host', 'beta', '--harness', 'claude', '--role', 'builder', '--name', 'Ada', '--cwd', repo, '--worktree', '--json'], env);
    expect(dispatched.stderr).toBe('');
    expect(dispatched.code).toBe(0);
    const result = JSON.parse(dispatched.stdout);
    const worktree = path.join(repo, '.pixelfleet', 'worktrees', 'add-a-retry-budget');
    // The same shape as a local dispatch; the persona's id names its host.
    expect(Object.keys(result)).toEqual(['personaId', 'persona', 'itemId', 'cwd', 'branch', 'worktree']);
    expect(result).toEqual({ personaId: expect.stringMatching(/^@beta:p_/), persona: 'Ada', itemId: 'retry.md', cwd: worktree, branch: 'pf/add-a-retry-budget', worktree });
    expect(git(worktree, 'branch', '--show-current').trim()).toBe('pf/add-a-retry-budget');
    // The harness ran on beta (its Claude home), in the worktree, with the item's text built here.
    const recorded = await fixture.recorded(path.join(beta, 'claude'));
    expect(recorded.cwd).toBe(worktree);
    expect(recorded.argv.at(-1)).toBe(`Add a retry budget\n${new URL(`file://${path.join(home, 'backlog', 'retry.md')}`).href}\n\n# Add a retry budget\n\nCap retries per minute.`);
    // Ada is beta's persona, not this host's; the record is this host's, naming beta.
    expect(JSON.parse(readFileSync(path.join(beta, 'personas.json'), 'utf8')).personas.map((persona: { name: string }) => persona.name)).toEqual(['Ada']);
    expect(existsSync(path.join(home, 'personas.json'))).toBe(false);
    expect(existsSync(path.join(beta, 'dispatches.json'))).toBe(false);
    const store = JSON.parse(readFileSync(path.join(home, 'dispatches.json'), 'utf8'));
    expect(store.dispatches).toEqual([expect.objectContaining({ itemId: 'retry.md', personaId: result.personaId, host: 'beta', worktree, branch: 'pf/add-a-retry-budget' })]);
    const listed = JSON.parse((await cli(['work-items', '--label', 'builder', '--json'], env)).stdout).items;
    expect(listed[0].dispatch).toEqual({ personaId: result.personaId, persona: 'Ada', at: expect.any(String), branch: 'pf/add-a-retry-budget', worktree });
    // The fleet here shows Ada as beta's agent, seated there.
    const seatOf = async () => (JSON.parse((await cli(['fleet', '--json'], env)).stdout) as { seats: Array<{ personaId: string; host?: string }> }).seats.find((seat) => seat.personaId === result.personaId);
    expect(await until(seatOf, 30_000)).toMatchObject({ host: 'beta' });

    // A worktree on beta is not removed from here: said, and nothing changes; done alone marks it.
    const before = state(home, beta, repo);
    const remove = await cli(['work-items', 'done', 'retry.md', '--remove-worktree'], env);
    expect(remove.code).toBe(1);
    expect(remove.stderr).toMatch(/The worktree .* is on beta: remove it there/);
    expect(state(home, beta, repo)).toEqual(before);
    expect(await cli(['work-items', 'done', 'retry.md'], env)).toEqual({ code: 0, stdout: 'Marked retry.md done.\n', stderr: '' });
    expect(existsSync(worktree)).toBe(true);
    await cli(['agents', 'stop', result.personaId], env);
  }, 90_000);

  it('an unknown host, a host that is down, or a refusal on the remote changes nothing on either machine; exit 1', async () => {
    const { env, home, beta, repo, dir } = await setup(true);
    const before = state(home, beta, repo);
    const order = ['retry.md', '--harness', 'claude', '--role', 'builder', '--cwd', repo, '--worktree'];
    const cases: Array<[string[], RegExp]> = [
      [['--host', 'nosuch', ...order], /^pixelfleet: No remote is named nosuch\. \(not_found\)\n$/],
      [['--host', 'dead', ...order], /^pixelfleet: dead is unreachable since .*\n$/],
      // Checked on beta: a folder there that is not a repository, before anything is made.
      [['retry.md', '--host', 'beta', '--harness', 'claude', '--role', 'builder', '--cwd', dir, '--worktree'], /is not inside a git repository .*A worktree needs one; nothing was done\./],
      [['--host', 'beta', '--persona', '@dead:p_x', ...order.slice(0, 1), '--cwd', repo], /"@dead:p_x" is an agent of dead, not of beta; nothing was done\./],
    ];
    for (const [args, message] of cases) {
      const refused = await cli(['work-items', 'dispatch', ...args], env);
      expect(refused.code, args.join(' ')).toBe(1);
      // The host's log of dead's link (its retries) aside, the refusal is one line.
      const said = refused.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('pixelfleet: remote dead: '));
      expect(said).toHaveLength(1);
      expect(`${said[0]}\n`).toMatch(message);
      expect(state(home, beta, repo)).toEqual(before);
    }
    // The same words and exit as `agents launch --host`.
    const launch = await cli(['agents', 'launch', '--host', 'nosuch', '--harness', 'claude', '--role', 'builder', '--cwd', repo], env);
    expect(launch.code).toBe(1);
    expect(launch.stderr).toContain('No remote is named nosuch.');
  }, 90_000);

  it('--persona of a remote agent types the item into its terminal on its host', async () => {
    const { env, home, beta, repo, dir } = await setup();
    installQuestionStandin(path.join(dir, 'bin'));
    const launched = JSON.parse((await cli(['agents', 'launch', '--host', 'beta', '--harness', 'claude', '--role', 'builder', '--cwd', repo, '--name', 'Bo', '--json'], env)).stdout);
    const bo: string = launched.persona.id;
    expect(bo.startsWith('@beta:p_')).toBe(true);
    await until(async () => ((await cli(['agents', 'peek', bo], env)).stdout.includes('Which colour') ? true : undefined), 30_000);
    // By its name on --host, or by its id as this host shows it (the page's drop sends that).
    const sent = await cli(['work-items', 'dispatch', 'retry.md', '--host', 'beta', '--persona', 'Bo', '--cwd', repo, '--json'], env);
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    expect(JSON.parse(sent.stdout)).toEqual({ personaId: bo, persona: 'Bo', itemId: 'retry.md', cwd: repo, branch: null, worktree: null });
    const url = new URL(`file://${path.join(home, 'backlog', 'retry.md')}`).href;
    const journal = () => readFileSync(path.join(claudeProjectFolder(path.join(beta, 'claude'), repo), `${launched.persona.seat.sessionId}.jsonl`), 'utf8');
    await until(() => (journal().includes(`Add a retry budget ${url} # Add a retry budget Cap retries per minute.`) ? true : undefined), 30_000);
    expect(JSON.parse(readFileSync(path.join(home, 'dispatches.json'), 'utf8')).dispatches).toEqual([expect.objectContaining({ itemId: 'retry.md', personaId: bo, host: 'beta' })]);
    expect((await cli(['work-items', 'undispatch', 'retry.md'], env)).code).toBe(0);
    await cli(['agents', 'stop', bo], env);
  }, 90_000);
});
