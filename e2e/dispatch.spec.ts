/**
 * Giving work from the world (issue 40) in the demo, in browser mode: a backlog card dragged with the real mouse onto a
 * station opens its launch dialog prefilled with the item; launched (in its own git worktree) with a stand-in Claude
 * Code on the host's PATH in a private tmux server, the new agent shows the item's title, branch and changed files on
 * its card, and the card says "→ <name>". A card dropped on a demo agent (working, and without a terminal) is refused and
 * recorded nowhere; one dropped on a launched agent that waits for input is typed into its terminal.
 */
import { test, expect, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { freshHome, removeHome, startHost, type RunningHost, tmuxPath } from './host';
import { askHost, dragCard, openWorld } from './world.page';
import { QUESTION_STANDIN } from '../main/dev/testing/terminalStandin';

/** A stand-in `claude`: records its argv and cwd, writes a journal (its first prompt as the user turn) for its session id. */
const STANDIN = `#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');
const home = process.env.CLAUDE_CONFIG_DIR;
const args = process.argv.slice(2);
if (args[0] === '--version') { process.stdout.write('2.1.114 (Claude Code)\\n'); process.exit(0); }
fs.writeFileSync(path.join(home, 'standin-argv.json'), JSON.stringify({ argv: args, cwd: process.cwd() }));
const id = args[args.indexOf('--session-id') + 1];
const folder = path.join(home, 'projects', process.cwd().replace(/[^A-Za-z0-9]/g, '-'));
fs.mkdirSync(folder, { recursive: true });
const at = new Date().toISOString();
fs.appendFileSync(path.join(folder, id + '.jsonl'), JSON.stringify({ type: 'user', sessionId: id, cwd: process.cwd(), timestamp: at, uuid: 'u1', message: { role: 'user', content: args[args.length - 1] } }) + '\\n');
process.stdin.on('data', (chunk) => { if (String(chunk).includes('/exit')) process.exit(0); });
setInterval(() => {}, 1000);
`;

const ITEM = '05-date-helper-handles-leap-years.md';
const TITLE = 'Date helper handles leap years';

const tmux = tmuxPath();
if (!tmux) console.log('e2e/dispatch.spec.ts: skipped — tmux is not on PATH (apt-get install tmux).');

interface DispatchHook {
  state(): { fleet: { personas: { id: string; name: string; role?: string }[]; seats: { personaId: string }[] } | null; dispatches: { itemId: string; personaId: string; persona: string; branch: string | null; changedFiles: number | null }[] };
  actions: { openBacklog(key: string | null): void };
  screenPosition(kind: 'agent' | 'station', id: string): { x: number; y: number } | null;
}

const hook = (page: Page) => page.evaluate.bind(page);

test.describe('give work from the world', () => {
  test.skip(!tmux, 'tmux is not on PATH (apt-get install tmux)');
  const socket = `pf-e2e-dispatch-${process.pid}-${Date.now().toString(36)}`;
  let home: string;
  let host: RunningHost;
  let project: string;

  test.beforeAll(async () => {
    home = await freshHome();
    const bin = join(home, 'bin');
    await mkdir(bin, { recursive: true });
    await writeFile(join(bin, 'claude'), STANDIN);
    await chmod(join(bin, 'claude'), 0o755);
    project = join(home, `project 'q' $(x)`);
    await mkdir(project);
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd: project });
    git('init', '-q', '-b', 'main');
    await writeFile(join(project, 'README.md'), 'hello\n');
    git('add', '.');
    git('commit', '-q', '-m', 'first');
    // The launched stand-in writes where the demo's discovery looks, so the new agent is seated like the demo's own.
    host = await startHost({ home, args: ['--demo'], env: { PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`, PIXELFLEET_TMUX_SOCKET: socket, CLAUDE_CONFIG_DIR: join(home, 'demo', 'claude') } });
  });

  test.afterAll(async () => {
    await host?.stop();
    try {
      execFileSync(tmux!, ['-L', socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // Every session already ended.
    }
    if (home) await removeHome(home);
  });

  test('a card dragged onto a station launches an agent with the item; its card shows the title and worktree', async ({ page }) => {
    await openWorld(page, host);
    const evaluate = hook(page);
    await evaluate(() => (window as unknown as { __pixelfleet: DispatchHook }).__pixelfleet.actions.openBacklog('builder'));
    const card = page.locator(`[data-panel="backlog"] [data-work-card="${ITEM}"]`);
    await expect(card).toContainText(TITLE);
    await expect(card).not.toHaveAttribute('data-dispatched-to');

    // Onto a demo agent: it has no terminal Pixelfleet can type into, so the owner is told and nothing is recorded.
    const demoAgent = await evaluate(() => (window as unknown as { __pixelfleet: DispatchHook }).__pixelfleet.state().fleet!.seats[0].personaId);
    const agentAt = await evaluate((id) => (window as unknown as { __pixelfleet: DispatchHook }).__pixelfleet.screenPosition('agent', id), demoAgent);
    expect(agentAt, 'a demo agent is on screen').not.toBeNull();
    await dragCard(page, ITEM, agentAt!);
    // (A demo agent is working, or idle without a terminal: either way it cannot take input now.)
    await expect(page.locator('[data-message="error"]').last()).toContainText(/was not given to .*(is working|has no terminal Pixelfleet can type into).*Nothing was done|nothing was done/);
    expect(await evaluate(() => (window as unknown as { __pixelfleet: DispatchHook }).__pixelfleet.state().dispatches.length)).toBe(0);

    // Onto the tester station: its launch dialog opens, prefilled with the item's prompt and a worktree toggle.
    const station = await evaluate(() => (window as unknown as { __pixelfleet: DispatchHook }).__pixelfleet.screenPosition('station', 'tester'));
    expect(station, 'the tester station is on screen').not.toBeNull();
    await dragCard(page, ITEM, station!);
    const panel = page.locator('[data-panel="launch"]');
    await expect(panel).toBeVisible();
    await expect(page.locator('[data-panel="backlog"]')).toBeHidden();
    await expect(panel).toHaveAttribute('data-launch-for', 'tester');
    await expect(panel).toHaveAttribute('data-launch-item', ITEM);
    await expect(panel.locator('[data-launch-prompt]')).toHaveValue(new RegExp(`^${TITLE}\\nfile://.*${ITEM}\\n\\n# ${TITLE}\\n\\nFix and cover 29 February\\.$`));
    await panel.locator('[data-launch-harness="claude"] input').check();
    await panel.locator('[data-launch-folder]').fill(project);
    await panel.locator('[data-launch-name]').fill('Ada');
    await panel.locator('[data-launch-worktree]').check();
    await page.screenshot({ path: test.info().outputPath('dispatch-dialog.png') });
    await panel.locator('[data-launch-submit]').click();
    await expect(panel).toBeHidden({ timeout: 60_000 });

    const findId = () => evaluate(() => (window as unknown as { __pixelfleet: DispatchHook }).__pixelfleet.state().fleet!.personas.find((persona) => persona.name === 'Ada')?.id ?? null);
    await expect.poll(findId).not.toBeNull();
    const id = (await findId())!;
    await expect(page.locator(`[data-agent="${id}"]`)).toHaveAttribute('data-role', 'tester');
    await expect.poll(() => evaluate((personaId) => (window as unknown as { __pixelfleet: DispatchHook }).__pixelfleet.screenPosition('agent', personaId) !== null, id)).toBe(true);

    // The harness started in the item's own worktree with the item's text as its prompt.
    const worktree = join(project, '.pixelfleet', 'worktrees', 'date-helper-handles-leap-years');
    const recorded = JSON.parse(await readFile(join(home, 'demo', 'claude', 'standin-argv.json'), 'utf8'));
    expect(recorded.cwd).toBe(worktree);
    expect(recorded.argv.at(-1)).toMatch(new RegExp(`^${TITLE}\\n`));
    expect(existsSync(join(project, 'pwned'))).toBe(false);

    // The card says to whom it went; the agent's card shows the item, its branch and its changed files.
    await evaluate(() => (window as unknown as { __pixelfleet: DispatchHook }).__pixelfleet.actions.openBacklog('builder'));
    await expect(card).toHaveAttribute('data-dispatched-to', id);
    await expect(card.locator('[data-work-card-dispatch]')).toHaveText(' → Ada');
    await evaluate(() => (window as unknown as { __pixelfleet: DispatchHook }).__pixelfleet.actions.openBacklog(null));
    await page.locator(`[data-agent="${id}"]`).evaluate((button: HTMLElement) => button.click());
    const dispatch = page.locator(`[data-panel="tray"] [data-agent-dispatch="${ITEM}"]`);
    await expect(dispatch.locator('[data-agent-dispatch-title]')).toHaveText(TITLE);
    await expect(dispatch.locator('[data-agent-dispatch-branch]')).toHaveText(' · pf/date-helper-handles-leap-years');
    await expect(dispatch.locator('[data-agent-dispatch-changes]')).toHaveText(' · 0 files changed');
    await page.screenshot({ path: test.info().outputPath('dispatched.png') });
  });

  test('a card dropped on an agent that waits for input is typed into its terminal', async ({ page }) => {
    // This agent's Claude Code stand-in asks a question and reads the answer from its terminal (terminalStandin.ts).
    await writeFile(join(home, 'bin', 'claude'), QUESTION_STANDIN);
    const launched = await askHost(host, 'agents.launch', { harness: 'claude', role: 'reviewer', cwd: project, name: 'Bo' });
    expect(launched.ok, JSON.stringify(launched.error)).toBe(true);
    const bo = (launched.value as { persona: { id: string; seat: { sessionId: string } } }).persona;
    await openWorld(page, host);
    const evaluate = hook(page);
    await expect.poll(() => evaluate((id) => (window as unknown as { __pixelfleet: DispatchHook }).__pixelfleet.screenPosition('agent', id) !== null, bo.id)).toBe(true);
    await evaluate(() => (window as unknown as { __pixelfleet: DispatchHook }).__pixelfleet.actions.openBacklog('reviewer'));
    const item = '08-review-the-cache-invalidation-change.md';
    await expect(page.locator(`[data-panel="backlog"] [data-work-card="${item}"]`)).toBeVisible();
    // The agent walks to its station first; drop where it stands once it is there.
    await expect.poll(() => page.locator(`[data-agent="${bo.id}"]`).getAttribute('data-role')).toBe('reviewer');
    const at = await evaluate((id) => (window as unknown as { __pixelfleet: DispatchHook }).__pixelfleet.screenPosition('agent', id), bo.id);
    await dragCard(page, item, at!);
    await expect(page.locator('[data-message="info"]').last()).toHaveText(/^Gave "Review the cache invalidation change" to Bo\./);
    await expect(page.locator(`[data-panel="backlog"] [data-work-card="${item}"]`)).toHaveAttribute('data-dispatched-to', bo.id);
    // The stand-in recorded the typed line as its answer: the item's title, link and body on one line.
    const journal = join(home, 'demo', 'claude', 'projects', project.replace(/[^A-Za-z0-9]/g, '-'), `${bo.seat.sessionId}.jsonl`);
    await expect
      .poll(async () => {
        const last = JSON.parse((await readFile(journal, 'utf8')).trim().split('\n').at(-1)!);
        return last.type === 'user' && Array.isArray(last.message.content) ? String(last.message.content[0].content) : null;
      })
      .toMatch(/^Review the cache invalidation change file:\/\/\S+08-review-the-cache-invalidation-change\.md # Review the cache invalidation change Check the eviction order under load\.$/);
    await page.screenshot({ path: test.info().outputPath('given.png') });
  });
});
