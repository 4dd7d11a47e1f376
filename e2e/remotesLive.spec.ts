/**
 * One fleet across machines, live (issue 42): a running host with no remotes; two stand-in remotes (the stand-in
 * `ssh`, main/edges/remote/fixtures/stand-in-ssh.mjs) are added while it runs and their agents appear; an agent
 * launched on one with `agents launch --host` asks a question that is answered from the page and acknowledged by its
 * journal there; `usage --json` counts the remotes; a remote removed leaves — all without restarting the host.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { installQuestionStandin } from '../main/dev/testing/terminalStandin';
import { freshHome, removeHome, ROOT, startHost, type RunningHost, tmuxPath } from './host';
import { openWorld } from './world.page';

const PIXELFLEET = join(ROOT, 'main', 'edges', 'cli', 'pixelfleet.mjs');
const STAND_IN = join(ROOT, 'main', 'edges', 'remote', 'fixtures', 'stand-in-ssh.mjs');

const tmux = tmuxPath();
if (!tmux) console.log('e2e/remotesLive.spec.ts: skipped — tmux is not on PATH (apt-get install tmux).');

test.describe('remotes join and leave a running host', () => {
  test.skip(!tmux, 'tmux is not on PATH (apt-get install tmux)');
  const socket = `pf-e2e-remote-${process.pid}-${Date.now().toString(36)}`;
  let root: string;
  let local: string;
  let host: RunningHost;
  let env: NodeJS.ProcessEnv;

  /** The pixelfleet command on the local home, through the stand-in ssh (as the host reaches its remotes). */
  const pixelfleet = (args: string[]) => execFileSync(process.execPath, [PIXELFLEET, ...args], { cwd: ROOT, env: { ...env, PIXELFLEET_HOME: local }, encoding: 'utf8' });

  test.beforeAll(async () => {
    root = await freshHome('pixelfleet-remotes-live-e2e-');
    local = join(root, 'local');
    const bin = join(root, 'bin');
    await mkdir(local, { recursive: true });
    await mkdir(bin, { recursive: true });
    await mkdir(join(root, 'beta', 'project'), { recursive: true });
    installQuestionStandin(bin);
    await writeFile(join(root, 'alpha.args'), JSON.stringify(['--demo', '--agents', '2']));
    env = { ...process.env, HOME: local, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`, PIXELFLEET_TMUX_SOCKET: socket, PIXELFLEET_SSH: STAND_IN, PIXELFLEET_STANDIN_ROOT: root };
    host = await startHost({ home: local, env: { PATH: env.PATH, PIXELFLEET_TMUX_SOCKET: socket, PIXELFLEET_SSH: STAND_IN, PIXELFLEET_STANDIN_ROOT: root } });
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

  test('added live → agents appear; a remote question answered from the page; usage counts it; removed → leaves', async ({ page }, info) => {
    // Two remotes join, an agent is launched on one and answered, then one leaves: one long story, beside another worker.
    test.setTimeout(180_000);
    await openWorld(page, host);
    await expect(page.locator('[data-agent]')).toHaveCount(0);
    const pageLoads = await page.evaluate(() => performance.timeOrigin);

    // beta joins while the host runs, then Ada is launched there through the host's own ssh call.
    expect(pixelfleet(['remote', 'add', 'beta', 'beta', '--command', `${process.execPath} ${PIXELFLEET}`])).toContain('without a restart');
    const launched = JSON.parse(pixelfleet(['agents', 'launch', '--host', 'beta', '--harness', 'claude', '--role', 'builder', '--cwd', join(root, 'beta', 'project'), '--name', 'Ada', '--json']));
    expect(launched).toMatchObject({ host: 'beta', seated: true, persona: { name: 'Ada' } });
    const adaId: string = launched.persona.id;
    expect(adaId.startsWith('@beta:p_')).toBe(true);
    const ada = page.locator(`[data-agent="${adaId}"]`);
    await expect(ada).toHaveAttribute('data-host', 'beta', { timeout: 30_000 });

    // alpha joins too: its two demo agents appear beside Ada, with no restart of the host.
    pixelfleet(['remote', 'add', 'alpha', 'alpha', '--command', `${process.execPath} ${PIXELFLEET}`]);
    await expect(page.locator('[data-agent][data-host="alpha"]')).toHaveCount(2, { timeout: 30_000 });
    await page.screenshot({ path: info.outputPath('remotes-joined.png') });

    // Ada's question, answered from the needs-you entry: typed on beta, acknowledged by beta's journal, entry gone.
    const entry = page.locator(`[data-queue-entry="${adaId}"]`);
    await expect(entry).toHaveAttribute('data-why', 'question', { timeout: 30_000 });
    // alpha's demo agents may wait too and push Ada's entry behind "+N more": the strip's host filter shows beta's alone.
    await page.locator('[data-needs-you-host-filter]').selectOption('beta');
    const box = page.locator(`[data-needs-you-queue] [data-reply-for="${adaId}"]`);
    await box.locator('[data-reply-input]').fill('Teal, from the host');
    await box.locator('[data-reply-input]').press('Enter');
    const projects = join(root, 'beta', 'claude', 'projects');
    const journals = () => (existsSync(projects) ? readdirSync(projects, { recursive: true }).filter((name) => String(name).endsWith('.jsonl')).map((name) => readFileSync(join(projects, String(name)), 'utf8')).join('') : '');
    await expect.poll(journals, { timeout: 30_000 }).toContain('Teal, from the host');
    await expect(entry).toHaveCount(0, { timeout: 30_000 });
    // The host's history holds Ada's transitions and the reply, each naming beta.
    await expect
      .poll(() => (JSON.parse(pixelfleet(['history', '--json'])).events as Array<{ type: string; personaId: string | null; host?: string }>).filter((event) => event.personaId === adaId).map((event) => `${event.type}@${event.host}`), { timeout: 30_000 })
      .toEqual(expect.arrayContaining(['needs-you.entered@beta', 'reply.sent@beta']));

    // Ada's terminal panel: the live pane on beta, streamed back over beta's link.
    await ada.evaluate((button: HTMLElement) => button.click());
    await page.locator('[data-panel="tray"] [data-act-row] [data-open-terminal]').click();
    const panel = page.locator('[data-panel="terminal"]');
    await expect(panel).toHaveAttribute('data-terminal-for', adaId);
    await expect(panel.locator('[data-terminal-state]')).toHaveAttribute('data-terminal-state', 'live', { timeout: 30_000 });
    await expect(panel.locator('.xterm-rows')).toContainText('Which colour should the button be?');
    execFileSync(tmux!, ['-L', socket, 'send-keys', '-t', 'pf-ada', '-l', 'remote-echo']);
    await expect(panel.locator('.xterm-rows')).toContainText('remote-echo');
    await page.screenshot({ path: info.outputPath('remote-terminal.png') });
    await panel.locator('[data-close]').click();

    // Usage counts the remotes: one `hosts` entry each, alpha's rows named by host and inside the total.
    const usage = JSON.parse(pixelfleet(['usage', '--json']));
    expect(usage.hosts.map((entry: { host: string }) => entry.host)).toEqual(['beta', 'alpha']);
    const alphaRows = usage.seats.filter((row: { host?: string }) => row.host === 'alpha');
    expect(alphaRows.length).toBeGreaterThan(0);
    const alphaInput = alphaRows.reduce((sum: number, row: { totals: { input: number } }) => sum + row.totals.input, 0);
    expect(usage.total.totals.input).toBeGreaterThanOrEqual(alphaInput);
    // The HUD's open total on the page counts the remote seats too (the host itself runs none).
    await expect(page.locator('[data-usage-hud]')).toHaveAttribute('data-usage-known', 'true', { timeout: 30_000 });
    await expect
      .poll(() => page.evaluate(() => (window.__pixelfleet!.state().fleet as { usage?: { open: { totals: { input: number } } } } | null)?.usage?.open.totals.input ?? 0), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(alphaInput);

    // alpha is removed: its agents leave; beta's stream and Ada stay; the page never reloaded.
    pixelfleet(['remote', 'remove', 'alpha']);
    await expect(page.locator('[data-agent][data-host="alpha"]')).toHaveCount(0, { timeout: 30_000 });
    await expect(ada).toHaveAttribute('data-host', 'beta');
    await expect(ada).toHaveAttribute('data-unreachable', 'false');
    expect(await page.evaluate(() => performance.timeOrigin)).toBe(pageLoads);
    await page.screenshot({ path: info.outputPath('remote-removed.png') });
  });
});
