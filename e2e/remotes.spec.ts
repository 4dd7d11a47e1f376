/**
 * Fleets across machines: a host with two remotes reached through a stand-in `ssh` (main/edges/remote/fixtures/
 * stand-in-ssh.mjs) that runs `pixelfleet serve --stdio` locally, each in a home of its own.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { freshHome, removeHome, ROOT, startHost, type RunningHost } from './host';
import { openWorld } from './world.page';

const PIXELFLEET = join(ROOT, 'main', 'edges', 'cli', 'pixelfleet.mjs');
const STAND_IN = join(ROOT, 'main', 'edges', 'remote', 'fixtures', 'stand-in-ssh.mjs');

let root: string;
let host: RunningHost;

/** Runs the pixelfleet command with an app home. */
function pixelfleet(home: string, args: string[]): string {
  return execFileSync(process.execPath, [PIXELFLEET, ...args], { cwd: ROOT, env: { ...process.env, PIXELFLEET_HOME: home, HOME: home }, encoding: 'utf8' });
}

test.beforeAll(async () => {
  root = await freshHome('pixelfleet-remotes-e2e-');
  const local = join(root, 'local');
  await mkdir(local, { recursive: true });
  // alpha runs a small demo fleet (seated agents); beta has one hired agent.
  await writeFile(join(root, 'alpha.args'), JSON.stringify(['--demo', '--agents', '2']));
  pixelfleet(join(root, 'beta'), ['agents', 'hire', '--name', 'Bea', '--role', 'tester']);
  for (const name of ['alpha', 'beta']) pixelfleet(local, ['remote', 'add', name, name, '--command', `${process.execPath} ${PIXELFLEET}`]);
  expect(JSON.parse(pixelfleet(local, ['remote', 'list', '--json'])).map((remote: { name: string }) => remote.name)).toEqual(['alpha', 'beta']);
  host = await startHost({ home: local, env: { PIXELFLEET_SSH: STAND_IN, PIXELFLEET_STANDIN_ROOT: root } });
});

test.afterAll(async () => {
  await host?.stop();
  await removeHome(root);
});

test('remote agents appear tagged with their host; a role set on one lands in its own store; a killed remote greys, then returns', async ({ page }, info) => {
  await openWorld(page, host);
  const alpha = page.locator('[data-agent][data-host="alpha"]');
  const bea = page.locator('[data-agent][data-host="beta"]');
  await expect(alpha).toHaveCount(2, { timeout: 60_000 });
  await expect(bea).toHaveCount(1);
  await expect(bea).toHaveText('Bea');
  await expect(bea).toHaveAttribute('data-role', 'tester');
  const beaId = (await bea.getAttribute('data-agent'))!;
  expect(beaId.startsWith('@beta:p_')).toBe(true);
  for (const id of await alpha.evaluateAll((buttons) => buttons.map((button) => (button as HTMLElement).dataset.agent!))) expect(id.startsWith('@alpha:')).toBe(true);

  // The role goes to beta's own persona store, and comes back through beta's patches.
  await page.evaluate((id) => window.__pixelfleet!.actions.setRole(id, 'reviewer'), beaId);
  await expect(bea).toHaveAttribute('data-role', 'reviewer', { timeout: 30_000 });
  expect(await readFile(join(root, 'beta', 'personas.json'), 'utf8')).toContain('"reviewer"');
  expect(await readFile(join(root, 'local', 'personas.json'), 'utf8').catch(() => '')).not.toContain('Bea');

  // alpha dies and cannot be reached for a while: its agents stay, greyed, and the world says since when.
  // From here on, the page records the fewest alpha agents its store ever held (it must stay 2: never removed).
  await page.evaluate(() => {
    const count = () => window.__pixelfleet!.state().fleet!.personas.filter((persona) => (persona as { host?: string }).host === 'alpha').length;
    const watch = window as unknown as { fewestAlpha: number };
    watch.fewestAlpha = count();
    setInterval(() => (watch.fewestAlpha = Math.min(watch.fewestAlpha, count())), 5);
  });
  await writeFile(join(root, 'alpha.down'), '');
  process.kill(Number(await readFile(join(root, 'alpha.pid'), 'utf8')), 'SIGKILL');
  await expect(page.locator('[data-agent][data-host="alpha"][data-unreachable="true"]')).toHaveCount(2, { timeout: 30_000 });
  await expect(page.locator('[data-notice="remote-unreachable:alpha"]')).toContainText(/alpha unreachable since \d\d:\d\d/);
  await expect(bea).toHaveAttribute('data-unreachable', 'false');
  const [unknownBadge] = await alpha.evaluateAll((buttons) => buttons.map((button) => (button as HTMLElement).dataset.subagents));
  expect(unknownBadge).toBe('?');
  await page.screenshot({ path: info.outputPath('remote-unreachable.png') });

  // alpha comes back: the same agents, no longer greyed, and never removed in between.
  await rm(join(root, 'alpha.down'));
  await expect(page.locator('[data-agent][data-host="alpha"][data-unreachable="false"]')).toHaveCount(2, { timeout: 90_000 });
  await expect(page.locator('[data-notice="remote-unreachable:alpha"]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { fewestAlpha: number }).fewestAlpha)).toBe(2);
  await page.screenshot({ path: info.outputPath('remote-back.png') });
});
