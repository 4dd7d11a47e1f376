/**
 * Dispatch over real parts: a real git repository, a Markdown backlog in the app home's settings, real tmux (a private
 * server for this file) and stand-in harnesses on a temporary PATH that record their argv and cwd
 * (main/dev/testing/launchStandins.ts) or read what is typed into their terminal (terminalStandin.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assistantLine, userLine } from '../../dev/testing/claudeJournal';
import { cli, launchFixture, tmux, until } from '../../dev/testing/launchStandins';
import { installQuestionStandin } from '../../dev/testing/terminalStandin';
import { claudeProjectFolder } from '../terminal/adoption';

if (!tmux) console.log('dispatch tests skipped: tmux is not on PATH (apt-get install tmux)');

const fixture = launchFixture('pixelfleet-dispatch-');
afterAll(() => fixture.dispose());

const HOSTILE_TITLE = `--force $(touch pwned) "double" 'single' \`touch pwned\``;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
}

/** A case: stand-ins, a committed git repository, and a Markdown backlog named in settings.json. */
function setup() {
  const context = { sessionId: 'SESSION', at: new Date().toISOString() };
  const made = fixture.setup([userLine(context, 'Start.'), assistantLine(context, 'msg_1', [{ type: 'text', text: 'On it.' }])].join('\n') + '\n');
  const home = made.env.PIXELFLEET_HOME!;
  const backlog = path.join(home, 'backlog');
  mkdirSync(backlog, { recursive: true });
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ workSources: [{ kind: 'markdown', dir: 'backlog' }] }));
  writeFileSync(path.join(backlog, 'retry.md'), '---\nlabels: [builder]\nstatus: todo\n---\n# Add a retry budget\n\nCap retries per minute.\nSurface a gentle notice.\n');
  writeFileSync(path.join(backlog, 'pwned.md'), `---\ntitle: ${JSON.stringify(HOSTILE_TITLE)}\nlabels: [builder]\n---\nDo not run $(touch pwned) or \`touch pwned\`.\n`);
  writeFileSync(path.join(backlog, 'long.md'), `---\nlabels: [tester]\n---\n# A long item\n\n${'A line of the long body.\n'.repeat(600)}`);
  const repo = path.join(made.dir, 'repo with space');
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(repo, 'README.md'), 'hello\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'first');
  return { ...made, home, backlog, repo };
}

async function items(env: NodeJS.ProcessEnv, label: string): Promise<Array<{ id: string; title: string; dispatch: unknown }>> {
  const listed = await cli(['work-items', '--label', label, '--json'], env);
  return JSON.parse(listed.stdout).items;
}

function branches(repo: string): string[] {
  return git(repo, 'branch', '--format=%(refname:short)').trim().split('\n');
}

/** Everything a refusal must leave as it was: personas, dispatches, branches, worktrees, tmux sessions. */
async function state(env: NodeJS.ProcessEnv, repo: string) {
  const personas = JSON.parse((await cli(['agents', 'list', '--json'], env)).stdout);
  const store = path.join(env.PIXELFLEET_HOME!, 'dispatches.json');
  return { personas, dispatches: existsSync(store) ? readFileSync(store, 'utf8') : null, branches: branches(repo), worktrees: git(repo, 'worktree', 'list', '--porcelain'), files: readdirSync(repo).sort() };
}

describe.skipIf(!tmux)('work-items dispatch over real git, tmux and a Markdown backlog', () => {
  it('--worktree adds the worktree and branch, starts the harness there with the item’s text, and is remembered until done', async () => {
    const { env, repo, claudeHome, backlog } = setup();
    const dispatched = await cli(['work-items', 'dispatch', 'retry.md', '--harness', 'claude', '--role', 'builder', '--name', 'Ada', '--cwd', repo, '--worktree', '--json'], env);
    expect(dispatched.stderr).toBe('');
    expect(dispatched.code).toBe(0);
    const result = JSON.parse(dispatched.stdout);
    const worktree = path.join(repo, '.pixelfleet', 'worktrees', 'add-a-retry-budget');
    expect(result).toEqual({ personaId: expect.any(String), persona: 'Ada', itemId: 'retry.md', cwd: worktree, branch: 'pf/add-a-retry-budget', worktree });
    expect(Object.keys(result)).toEqual(['personaId', 'persona', 'itemId', 'cwd', 'branch', 'worktree']);
    expect(branches(repo)).toContain('pf/add-a-retry-budget');
    expect(git(worktree, 'rev-parse', 'HEAD')).toBe(git(repo, 'rev-parse', 'HEAD'));
    expect(git(worktree, 'branch', '--show-current').trim()).toBe('pf/add-a-retry-budget');

    const recorded = await fixture.recorded(claudeHome);
    expect(recorded.cwd).toBe(worktree);
    expect(recorded.argv.at(-1)).toBe(`Add a retry budget\n${new URL(`file://${path.join(backlog, 'retry.md')}`).href}\n\n# Add a retry budget\n\nCap retries per minute.\nSurface a gentle notice.`);

    const listed = (await items(env, 'builder')).find((item) => item.id === 'retry.md')!;
    expect(listed.dispatch).toEqual({ personaId: result.personaId, persona: 'Ada', at: expect.any(String), branch: 'pf/add-a-retry-budget', worktree });
    expect((await items(env, 'builder')).find((item) => item.id === 'pwned.md')!.dispatch).toBeNull();
    const again = await cli(['work-items', 'dispatch', 'retry.md', '--harness', 'claude', '--role', 'builder', '--cwd', repo], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already dispatched to Ada/);
    // The owner's backlog file is read, never written.
    expect(readFileSync(path.join(backlog, 'retry.md'), 'utf8')).toMatch(/^---\nlabels: \[builder\]\nstatus: todo\n---\n/);

    writeFileSync(path.join(worktree, 'change.txt'), 'x\n');
    writeFileSync(path.join(worktree, 'README.md'), 'changed\n');
    const dirty = await cli(['work-items', 'done', 'retry.md', '--remove-worktree'], env);
    expect(dirty.code).toBe(1);
    expect(dirty.stderr).toMatch(/has 2 changed files; commit or discard them first/);
    expect(existsSync(worktree)).toBe(true);
    expect((await items(env, 'builder')).find((item) => item.id === 'retry.md')!.dispatch).not.toBeNull();

    git(worktree, 'checkout', '--', 'README.md');
    execFileSync('rm', [path.join(worktree, 'change.txt')]);
    const done = await cli(['work-items', 'done', 'retry.md', '--remove-worktree'], env);
    expect(done).toEqual({ code: 0, stdout: 'Marked retry.md done and removed its worktree (its branch stays).\n', stderr: '' });
    expect(existsSync(worktree)).toBe(false);
    expect(branches(repo)).toContain('pf/add-a-retry-budget');
    expect((await items(env, 'builder')).find((item) => item.id === 'retry.md')!.dispatch).toBeNull();
    await cli(['agents', 'stop', 'Ada'], env);
  }, 60_000);

  it('an item titled with $(…), quotes, backticks and a leading dash is one verbatim argument and creates no file', async () => {
    const { dir, env, repo, claudeHome } = setup();
    const dispatched = await cli(['work-items', 'dispatch', 'pwned.md', '--harness', 'claude', '--role', 'builder', '--cwd', repo, '--worktree', '--json'], env);
    expect(dispatched.stderr).toBe('');
    const result = JSON.parse(dispatched.stdout);
    expect(result.branch).toBe('pf/force-touch-pwned-double-single-touch-pwned');
    const recorded = await fixture.recorded(claudeHome);
    expect(recorded.argv.at(-1)).toBe(`${HOSTILE_TITLE}\n${new URL(`file://${path.join(env.PIXELFLEET_HOME!, 'backlog', 'pwned.md')}`).href}\n\nDo not run $(touch pwned) or \`touch pwned\`.`);
    for (const folder of [dir, repo, result.worktree, env.PIXELFLEET_HOME!, process.cwd()]) expect(existsSync(path.join(folder, 'pwned'))).toBe(false);
    await cli(['agents', 'stop', result.personaId], env);
  }, 60_000);

  it('refusals change nothing: an unknown item, a folder outside git, an existing branch or folder, a bad role, no harness', async () => {
    const { dir, env, repo } = setup();
    const before = await state(env, repo);
    const outside = path.join(dir, 'not a repo');
    mkdirSync(outside);
    git(repo, 'branch', 'pf/add-a-retry-budget');
    const withBranch = await state(env, repo);
    const cases: Array<[string[], RegExp]> = [
      [['nope.md', '--harness', 'claude', '--role', 'builder', '--cwd', repo], /No work item has the id "nope\.md"/],
      [['pwned.md', '--harness', 'claude', '--role', 'builder', '--cwd', outside, '--worktree'], /is not inside a git repository .*A worktree needs one; nothing was done\./],
      [['retry.md', '--harness', 'claude', '--role', 'builder', '--cwd', repo, '--worktree'], /The branch pf\/add-a-retry-budget already exists/],
      [['pwned.md', '--harness', 'claude', '--role', '!bad', '--cwd', repo, '--worktree'], /A role starts with a letter or digit/],
      [['pwned.md', '--harness', 'claude', '--role', 'builder', '--cwd', path.join(dir, 'missing')], /does not exist or is not a folder/],
    ];
    for (const [args, message] of cases) {
      const refused = await cli(['work-items', 'dispatch', ...args], env);
      expect(refused.code, args.join(' ')).toBe(1);
      expect(refused.stderr).toMatch(message);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
      expect(await state(env, repo)).toEqual(withBranch);
    }
    git(repo, 'branch', '-D', 'pf/add-a-retry-budget');
    mkdirSync(path.join(repo, '.pixelfleet', 'worktrees', 'add-a-retry-budget'), { recursive: true });
    const folder = await cli(['work-items', 'dispatch', 'retry.md', '--harness', 'claude', '--role', 'builder', '--cwd', repo, '--worktree'], env);
    expect(folder.stderr).toMatch(/The folder .*add-a-retry-budget already exists; nothing was done\./);
    expect(branches(repo)).toEqual(before.branches);
    execFileSync('rm', ['-r', path.join(repo, '.pixelfleet')]);
    // The harness is missing after the checks pass: the worktree made for it is taken back, nobody is hired.
    const noHarness = await cli(['work-items', 'dispatch', 'retry.md', '--harness', 'codex', '--role', 'builder', '--cwd', repo, '--worktree'], { ...env, PATH: path.dirname(tmux!) + path.delimiter + '/usr/bin' });
    if (!existsSync('/usr/bin/codex')) {
      expect(noHarness.code).toBe(1);
      expect(noHarness.stderr).toMatch(/codex is not on PATH/);
      expect(await state(env, repo)).toEqual(before);
    }
    const usage = await cli(['work-items', 'dispatch', 'retry.md', '--harness', 'claude', '--role', 'builder', '--persona', 'Ada', '--cwd', repo], env);
    expect(usage.code).toBe(2);
    expect(await state(env, repo)).toEqual(before);
    const undispatch = await cli(['work-items', 'undispatch', 'retry.md'], env);
    expect(undispatch.code).toBe(1);
    expect(undispatch.stderr).toBe('pixelfleet work-items: retry.md has no active dispatch; nothing was changed.\n');
    const done = await cli(['work-items', 'done', 'retry.md'], env);
    expect(done.code).toBe(1);
    expect(done.stderr).toMatch(/No active dispatch of the item "retry\.md"/);
  }, 60_000);

  it('--persona types the item into a running agent’s terminal; a persona with no terminal is refused and nothing changes', async () => {
    const { dir, env, repo, claudeHome } = setup();
    installQuestionStandin(path.join(dir, 'bin'));
    const launched = await cli(['agents', 'launch', '--harness', 'claude', '--role', 'builder', '--cwd', repo, '--name', 'Bo', '--json'], env);
    const persona = JSON.parse(launched.stdout).persona;
    await until(async () => ((await cli(['agents', 'peek', 'Bo'], env)).stdout.includes('Which colour') ? true : undefined));

    const hired = await cli(['agents', 'hire', '--name', 'Cy', '--role', 'builder'], env);
    expect(hired.code).toBe(0);
    const before = await state(env, repo);
    const refused = await cli(['work-items', 'dispatch', 'retry.md', '--persona', 'Cy', '--cwd', repo, '--worktree'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^pixelfleet: Cy has no terminal Pixelfleet can type into \(.+\); nothing was done\. \(unavailable\)\n$/);
    expect(await state(env, repo)).toEqual(before);

    const wrongHarness = await cli(['work-items', 'dispatch', 'pwned.md', '--harness', 'codex', '--persona', 'Bo', '--cwd', repo], env);
    expect(wrongHarness.stderr).toMatch(/Bo runs claude, not codex; nothing was done\./);
    expect(await state(env, repo)).toEqual(before);
    const sent = await cli(['work-items', 'dispatch', 'pwned.md', '--harness', 'claude', '--persona', 'Bo', '--cwd', repo, '--json'], env);
    expect(sent.stderr).toBe('');
    expect(JSON.parse(sent.stdout)).toEqual({ personaId: persona.id, persona: 'Bo', itemId: 'pwned.md', cwd: repo, branch: null, worktree: null });
    const url = new URL(`file://${path.join(env.PIXELFLEET_HOME!, 'backlog', 'pwned.md')}`).href;
    const typed = `${HOSTILE_TITLE} ${url} Do not run $(touch pwned) or \`touch pwned\`.`;
    const answer = await until(() => {
      const file = path.join(claudeProjectFolder(claudeHome, repo), `${persona.seat.sessionId}.jsonl`);
      const last = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line)).at(-1);
      return last?.type === 'user' && Array.isArray(last.message.content) ? last.message.content[0].content : undefined;
    });
    expect(answer).toBe(typed);
    expect(existsSync(path.join(repo, 'pwned'))).toBe(false);
    expect((await items(env, 'builder')).find((item) => item.id === 'pwned.md')!.dispatch).toMatchObject({ personaId: persona.id, persona: 'Bo', branch: null, worktree: null });

    const cleared = await cli(['work-items', 'undispatch', 'pwned.md'], env);
    expect(cleared).toEqual({ code: 0, stdout: 'Forgot the dispatch of pwned.md; the agent and any worktree stay.\n', stderr: '' });
    expect((await items(env, 'builder')).find((item) => item.id === 'pwned.md')!.dispatch).toBeNull();

    // Bo now works on its answer, so it is refused; another agent that waits takes the next item in its own worktree,
    // in the folder settings.json names (relative to the repository), and is told where to work.
    const busy = await cli(['work-items', 'dispatch', 'retry.md', '--persona', 'Bo', '--cwd', repo], env);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/Bo is working; give it the item when it stops, or pick another agent\. Nothing was done\./);
    const second = JSON.parse((await cli(['agents', 'launch', '--harness', 'claude', '--role', 'builder', '--cwd', repo, '--name', 'Di', '--json'], env)).stdout).persona;
    await until(async () => ((await cli(['agents', 'peek', 'Di'], env)).stdout.includes('Which colour') ? true : undefined));
    writeFileSync(path.join(env.PIXELFLEET_HOME!, 'settings.json'), JSON.stringify({ workSources: [{ kind: 'markdown', dir: 'backlog' }], worktreeDir: 'trees' }));
    const withTree = await cli(['work-items', 'dispatch', 'retry.md', '--persona', second.id, '--cwd', repo, '--worktree', '--json'], env);
    expect(withTree.stderr).toBe('');
    const worktree = path.join(repo, 'trees', 'add-a-retry-budget');
    expect(JSON.parse(withTree.stdout)).toEqual({ personaId: second.id, persona: 'Di', itemId: 'retry.md', cwd: worktree, branch: 'pf/add-a-retry-budget', worktree });
    expect(git(worktree, 'branch', '--show-current').trim()).toBe('pf/add-a-retry-budget');
    await until(() => (readFileSync(path.join(claudeProjectFolder(claudeHome, repo), `${second.seat.sessionId}.jsonl`), 'utf8').includes(`Work in the git worktree ${worktree} (branch pf/add-a-retry-budget).`) ? true : undefined));
    const table = await cli(['work-items', '--label', 'builder'], env);
    expect(table.stdout).toMatch(/retry\.md\s+todo\s+builder\s+Add a retry budget {2}→ Di\n/);
    // Done without --remove-worktree: the worktree stays, the item is no longer dispatched.
    expect(await cli(['work-items', 'done', 'retry.md'], env)).toEqual({ code: 0, stdout: 'Marked retry.md done.\n', stderr: '' });
    expect(existsSync(worktree)).toBe(true);
    expect((await items(env, 'builder')).find((item) => item.id === 'retry.md')!.dispatch).toBeNull();
    const store = JSON.parse(readFileSync(path.join(env.PIXELFLEET_HOME!, 'dispatches.json'), 'utf8'));
    expect(store.dispatches.map((record: { itemId: string; doneAt: string | null }) => [record.itemId, record.doneAt !== null])).toEqual([['retry.md', true]]);
    // Nothing of the prompt is stored: the record names the item, not its text.
    expect(readFileSync(path.join(env.PIXELFLEET_HOME!, 'dispatches.json'), 'utf8')).not.toContain('Cap retries per minute');

    // A damaged store is moved aside and said; the next dispatch starts from an empty one.
    writeFileSync(path.join(env.PIXELFLEET_HOME!, 'dispatches.json'), '{ nope');
    const damaged = await cli(['work-items', '--label', 'builder', '--json'], env);
    expect(damaged.code).toBe(0);
    expect(damaged.stderr).toMatch(/^warning: The dispatch store could not be read; it was moved aside to .*dispatches\.json\.corrupt-/);
    expect(readdirSync(env.PIXELFLEET_HOME!).filter((name) => name.startsWith('dispatches.json.corrupt-'))).toHaveLength(1);
    expect(JSON.parse((await cli(['work-items', '--label', 'builder', '--json'], env)).stdout).items.every((item: { dispatch: unknown }) => item.dispatch === null)).toBe(true);
    await cli(['agents', 'stop', 'Bo'], env);
    await cli(['agents', 'stop', 'Di'], env);
  }, 90_000);
});
