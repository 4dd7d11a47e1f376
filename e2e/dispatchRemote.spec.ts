/**
 * Giving work to a remote agent from the world (issue 42): the host's backlog card dropped on an agent that runs on a
 * stand-in remote (the stand-in `ssh`, main/edges/remote/fixtures/stand-in-ssh.mjs) is typed into that agent's terminal
 * on its own machine; the host keeps the record ("→ Bo" on the card). Real tmux (a private server), the question-asking
 * stand-in Claude Code on PATH.
 */
import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { installQuestionStandin } from '../main/dev/testing/terminalStandin';
import { freshHome, removeHome, ROOT, startHost, type RunningHost, tmuxPath } from './host';
import { askHost, dragCard, openWorld } from './world.page';

const PIXELFLEET = join(ROOT, 'main', 'edges', 'cli', 'pixelfleet.mjs');
const STAND_IN = join(ROOT, 'main', 'edges', 'remote', 'fixtures', 'stand-in-ssh.mjs');
const ITEM = 'cache.md';

const tmux = tmuxPath();
if (!tmux) console.log('e2e/dispatchRemote.spec.ts: skipped — tmux is not on PATH (apt-get install tmux).');

test.describe('give work to a remote agent from the world', () => {
  test.skip(!tmux, 'tmux is not on PATH (apt-get install tmux)');
  const socket = `pf-e2e-dispatch-remote-${process.pid}-${Date.now().toString(36)}`;
  let root: string;
  let host: RunningHost;

  test.beforeAll(async () => {
    root = await freshHome('pixelfleet-dispatch-remote-e2e-');
    const local = join(root, 'local');
    const bin = join(root, 'bin');
    await mkdir(join(local, 'backlog'), { recursive: true });
    await mkdir(bin, { recursive: true });
    await mkdir(join(root, 'beta', 'project'), { recursive: true });
    installQuestionStandin(bin);
    await writeFile(join(local, 'settings.json'), JSON.stringify({ workSources: [{ kind: 'markdown', dir: 'backlog' }] }));
    await writeFile(join(local, 'backlog', ITEM), '---\nlabels: [builder]\n---\n# Check the cache eviction\n\nUnder load.\n');
    const env = { PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`, PIXELFLEET_TMUX_SOCKET: socket, PIXELFLEET_SSH: STAND_IN, PIXELFLEET_STANDIN_ROOT: root };
    execFileSync(process.execPath, [PIXELFLEET, 'remote', 'add', 'beta', 'beta', '--command', `${process.execPath} ${PIXELFLEET}`], { cwd: ROOT, env: { ...process.env, ...env, PIXELFLEET_HOME: local } });
    host = await startHost({ home: local, env });
  });

  test.afterAll(async () => {
    await host?.stop();
    try {
      execFileSync(tmux!, ['-L', socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // Every session already ended.
    }
    if (root) await removeHome(root);
  });

  test('a card dropped on a remote agent that waits is typed into its terminal there', async ({ page }) => {
    const project = join(root, 'beta', 'project');
    // The host answers before its link to beta has said hello; a launch refused as "not connected yet" changed nothing.
    let launched = await askHost(host, 'agents.launch', { host: 'beta', harness: 'claude', role: 'builder', cwd: project, name: 'Bo' });
    await expect
      .poll(
        async () => {
          if (!launched.ok && /not connected yet/.test(launched.error?.message ?? '')) launched = await askHost(host, 'agents.launch', { host: 'beta', harness: 'claude', role: 'builder', cwd: project, name: 'Bo' });
          return launched.ok || !/not connected yet/.test(launched.error?.message ?? '');
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    expect(launched.ok, JSON.stringify(launched.error)).toBe(true);
    const bo = (launched.value as { persona: { id: string } }).persona;
    expect(bo.id.startsWith('@beta:p_')).toBe(true);
    await openWorld(page, host);
    const agent = page.locator(`[data-agent="${bo.id}"]`);
    await expect(agent).toHaveAttribute('data-host', 'beta', { timeout: 30_000 });
    // Bo asks its question first, so it waits for input; then it stands at the builders' station.
    await expect(page.locator(`[data-queue-entry="${bo.id}"]`)).toHaveAttribute('data-why', 'question', { timeout: 30_000 });
    await expect.poll(() => agent.getAttribute('data-role')).toBe('builder');
    await page.evaluate(() => (window as unknown as { __pixelfleet: { actions: { openBacklog(key: string | null): void } } }).__pixelfleet.actions.openBacklog('builder'));
    await expect(page.locator(`[data-panel="backlog"] [data-work-card="${ITEM}"]`)).toBeVisible();
    await expect.poll(() => page.evaluate((id) => window.__pixelfleet!.screenPosition('agent', id), bo.id)).not.toBeNull();
    const at = await page.evaluate((id) => window.__pixelfleet!.screenPosition('agent', id), bo.id);
    await dragCard(page, ITEM, at!);
    await expect(page.locator('[data-message="info"]').last()).toHaveText(/^Gave "Check the cache eviction" to Bo\./);
    await expect(page.locator(`[data-panel="backlog"] [data-work-card="${ITEM}"]`)).toHaveAttribute('data-dispatched-to', bo.id);
    // Typed on beta: its stand-in recorded the line as the answer, in beta's own Claude home.
    const projects = join(root, 'beta', 'claude', 'projects');
    const journals = () => (existsSync(projects) ? readdirSync(projects, { recursive: true }).filter((name) => String(name).endsWith('.jsonl')).map((name) => readFileSync(join(projects, String(name)), 'utf8')).join('') : '');
    await expect.poll(journals, { timeout: 30_000 }).toMatch(/"content":"Check the cache eviction file:\/\/\S+cache\.md # Check the cache eviction Under load\."/);
    // The record is the host's, naming beta; beta keeps none.
    const store = JSON.parse(readFileSync(join(root, 'local', 'dispatches.json'), 'utf8'));
    expect(store.dispatches).toEqual([expect.objectContaining({ itemId: ITEM, personaId: bo.id, host: 'beta', doneAt: null })]);
    expect(existsSync(join(root, 'beta', 'dispatches.json'))).toBe(false);
    await page.screenshot({ path: test.info().outputPath('given-remote.png') });
  });
});
