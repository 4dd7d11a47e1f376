/**
 * Hire and launch from the world in browser mode: the station's menu opens the launch panel, a stand-in Claude Code
 * (a script on the host's PATH that writes a journal in Claude Code's format) starts in a private tmux server, and
 * the new character walks in to the station with its role; its card shows the attach command.
 */
import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { freshHome, removeHome, startHost, type RunningHost, tmuxPath } from './host';
import { openWorld, whichIsOnTop } from './world.page';

/** A stand-in `claude`: records its argv, writes a journal under CLAUDE_CONFIG_DIR for the session id it was given. */
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
const line = (value) => JSON.stringify(value) + '\\n';
fs.appendFileSync(path.join(folder, id + '.jsonl'),
  line({ type: 'user', sessionId: id, cwd: process.cwd(), timestamp: at, uuid: 'u1', message: { role: 'user', content: args[args.length - 1] } }) +
  line({ type: 'assistant', sessionId: id, cwd: process.cwd(), timestamp: at, uuid: 'a1', message: { id: 'msg_1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_e2e_launch', name: 'Agent', input: { description: 'Survey', subagent_type: 'Explore', prompt: 'not shown', run_in_background: true } }] } }));
process.stdin.on('data', (chunk) => { if (String(chunk).includes('/exit')) process.exit(0); });
setInterval(() => {}, 1000);
`;

const tmux = tmuxPath();
if (!tmux) console.log('e2e/launch.spec.ts: skipped — tmux is not on PATH (apt-get install tmux).');

test.describe('hire and launch from a station', () => {
  test.skip(!tmux, 'tmux is not on PATH (apt-get install tmux)');
  const socket = `pf-e2e-${process.pid}-${Date.now().toString(36)}`;
  let home: string;
  let host: RunningHost;
  let project: string;

  test.beforeAll(async () => {
    home = await freshHome();
    const bin = join(home, 'bin');
    await mkdir(bin, { recursive: true });
    await mkdir(join(home, 'claude'), { recursive: true });
    await writeFile(join(bin, 'claude'), STANDIN);
    await chmod(join(bin, 'claude'), 0o755);
    project = join(home, `my project 'q' $(x)`);
    await mkdir(project);
    host = await startHost({ home, env: { PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`, PIXELFLEET_TMUX_SOCKET: socket } });
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

  test('launch from the station menu: the new character walks in to the station with its role', async ({ page }) => {
    await openWorld(page, host);
    const station = await page.evaluate(() => window.__pixelfleet!.screenPosition('station', 'tester'));
    expect(station, 'the tester station is on screen').not.toBeNull();
    await page.mouse.click(station!.x, station!.y, { button: 'right' });
    const menu = page.locator('[data-panel="station-menu"]');
    await expect(menu).toBeVisible();
    await expect(menu).toHaveAttribute('data-station-menu-for', 'tester');
    await page.screenshot({ path: test.info().outputPath('station-menu.png') });
    await menu.locator('[data-menu-action="launch"]').click();

    const panel = page.locator('[data-panel="launch"]');
    await expect(panel).toBeVisible();
    // On this empty home the first-run hint shows too: the open panel covers it, not the other way round.
    await expect(page.locator('[data-panel="empty-hint"]')).toBeVisible();
    // (A short window, so that the two overlap; then back to the test's size.)
    await page.setViewportSize({ width: 1100, height: 440 });
    await expect.poll(() => whichIsOnTop(page, 'launch')).toBe('panel on top');
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(panel.locator('[data-launch-harness="claude"] input')).toBeEnabled();
    for (const other of ['codex', 'opencode']) {
      const greyed = panel.locator(`[data-launch-harness="${other}"]`);
      if (await greyed.locator('input').isDisabled()) await expect(greyed).toContainText(`${other} is not on PATH`);
    }
    await expect(panel.locator('[data-launch-name]')).not.toHaveValue('');
    await panel.locator('[data-launch-harness="claude"] input').check();
    await panel.locator('[data-launch-folder]').fill(join(home, 'missing folder'));
    await panel.locator('[data-launch-name]').fill(`Ada "Q" $(x)`);
    await panel.locator('[data-launch-prompt]').fill(`Start with 'this' $(touch pwned)`);
    await panel.locator('[data-launch-submit]').click();
    await expect(panel.locator('[data-launch-error]')).toContainText('does not exist or is not a folder');
    expect(await page.evaluate(() => window.__pixelfleet!.state().fleet!.personas.length)).toBe(0);

    await panel.locator('[data-launch-folder]').fill(project);
    await page.screenshot({ path: test.info().outputPath('launch-panel.png') });
    await panel.locator('[data-launch-submit]').click();
    await expect(panel).toBeHidden({ timeout: 30_000 });

    const findId = () => page.evaluate(() => window.__pixelfleet!.state().fleet!.personas.find((persona) => persona.name === 'Ada "Q" $(x)')?.id ?? null);
    await expect.poll(findId).not.toBeNull();
    const id = (await findId())!;
    const persona = await page.evaluate((personaId) => window.__pixelfleet!.state().fleet!.personas.find((entry) => entry.id === personaId), id);
    expect(persona?.role).toBe('tester');
    // Seated, standing at the tester station in the world, and its badge counts the stand-in's running subagent.
    await expect.poll(() => page.evaluate((personaId) => window.__pixelfleet!.state().fleet!.seats.find((seat) => seat.personaId === personaId)?.subagents?.running ?? null, id)).toBe(1);
    await expect(page.locator(`[data-agent="${id}"]`)).toHaveAttribute('data-role', 'tester');
    await expect.poll(() => page.evaluate((personaId) => window.__pixelfleet!.screenPosition('agent', personaId) !== null, id)).toBe(true);

    const recorded = JSON.parse(await readFile(join(home, 'claude', 'standin-argv.json'), 'utf8'));
    expect(recorded).toEqual({ argv: ['--session-id', expect.any(String), `Start with 'this' $(touch pwned)`], cwd: project });
    expect(existsSync(join(project, 'pwned'))).toBe(false);

    // The card of the launched agent shows how to attach.
    await page.locator(`[data-agent="${id}"]`).evaluate((button: HTMLElement) => button.click());
    const attach = page.locator('[data-panel="tray"] [data-attach-command]');
    await expect(attach).toHaveText(`tmux -L ${socket} attach -t pf-ada-q-x`);
    await expect(page.locator('[data-panel="tray"] [data-attach-copy]')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('launched.png') });
  });
});
