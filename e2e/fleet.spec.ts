/** The live fleet in the page: opening a discovered session, appends reaching the badges, station backlogs. */
import { test, expect, type Page } from '@playwright/test';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freshHome, removeHome, startHost, type RunningHost } from './host';
import { whichIsOnTop } from './world.page';

const line = (value: object) => `${JSON.stringify(value)}\n`;
const agentCall = (id: string, message: string, at: string) =>
  line({
    type: 'assistant',
    sessionId: 'e2e-session',
    timestamp: at,
    message: { id: message, role: 'assistant', content: [{ type: 'tool_use', id, name: 'Agent', input: { description: `Check ${id}`, subagent_type: 'Explore', prompt: 'not shown' } }] },
  });

async function agents(page: Page): Promise<{ id: string; role: string; subagents: string }[]> {
  return page.locator('[data-agent]').evaluateAll((nodes) =>
    nodes.map((node) => ({ id: node.getAttribute('data-agent') ?? '', role: node.getAttribute('data-role') ?? '', subagents: node.getAttribute('data-subagents') ?? '' })),
  );
}

test.describe('a session found on this machine', () => {
  let home: string;
  let host: RunningHost;
  let journal: string;

  test.beforeAll(async () => {
    home = await freshHome();
    const folder = join(home, 'claude', 'projects', '-home-owner-src-app');
    await mkdir(folder, { recursive: true });
    journal = join(folder, 'e2e-session.jsonl');
    await writeFile(journal, line({ type: 'user', sessionId: 'e2e-session', cwd: '/home/owner/src/app', timestamp: new Date().toISOString(), message: { role: 'user', content: 'hello' } }));
    // Started as `npm run web` would be: the hint names that command.
    host = await startHost({ home, env: { npm_lifecycle_event: 'web' } });
  });

  test.afterAll(async () => {
    await host?.stop();
    await removeHome(home);
  });

  test('opens from the lobby door, and an append changes its badge within 2 s', async ({ page }) => {
    await page.goto(host.url);
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as { __pixelfleet?: unknown }).__pixelfleet !== undefined)).toBe(true);
    expect(await agents(page)).toEqual([]);
    await expect(page.locator('[data-panel="empty-hint"]')).toBeVisible();
    await expect(page.locator('[data-demo-command]')).toHaveText('npm run web -- --demo');
    await page.locator('[data-lobby-door]').click();
    const candidate = page.locator('[data-candidate="claude:e2e-session"]');
    await expect(candidate).toBeVisible();
    expect(await whichIsOnTop(page, 'lobby')).not.toBe('hint on top');
    // The working folder from the journal, never the project folder's lossy name; today's time.
    await expect(candidate.locator('[data-lobby-folder]')).toHaveText('/home/owner/src/app');
    await expect(candidate.locator('[data-lobby-when]')).toHaveText(/^today \d\d:\d\d$/);
    await candidate.getByRole('button', { name: 'Open' }).click();
    await expect.poll(async () => (await agents(page)).length).toBe(1);
    // The lobby says who holds the session now.
    const name = await page.evaluate(() => window.__pixelfleet!.state().fleet!.personas[0].name);
    await expect(candidate.locator('[data-lobby-holder]')).toHaveText(`● ${name}`);
    await page.keyboard.press('Escape');
    await expect(page.locator('[data-panel="empty-hint"]')).toBeHidden();
    const [agent] = await agents(page);
    expect(agent.role).toBe('');
    expect(agent.subagents).toBe('0');

    await appendFile(journal, agentCall('toolu_e2e_1', 'msg_1', new Date().toISOString()) + agentCall('toolu_e2e_2', 'msg_1', new Date().toISOString()));
    await expect.poll(async () => (await agents(page))[0].subagents, { timeout: 2000, intervals: [100] }).toBe('2');
    await page.screenshot({ path: test.info().outputPath('opened-session.png') });
  });
});

test.describe('the demo fleet', () => {
  let home: string;
  let host: RunningHost;

  test.beforeAll(async () => {
    home = await freshHome();
    host = await startHost({ home, args: ['--demo'] });
  });

  test.afterAll(async () => {
    await host?.stop();
    await removeHome(home);
  });

  test('counts change in the page as the simulated sessions write', async ({ page }) => {
    await page.goto(host.url);
    await expect.poll(async () => (await agents(page)).length).toBeGreaterThanOrEqual(6);
    const first = (await agents(page)).map((agent) => agent.subagents).join(',');
    const firstCursor = await page.evaluate(() => (globalThis as unknown as { __pixelfleet: { state(): { fleet: { cursor: number } } } }).__pixelfleet.state().fleet.cursor);
    await expect.poll(async () => (await agents(page)).map((agent) => agent.subagents).join(','), { timeout: 15_000 }).not.toBe(first);
    // The mirror is synced once per animation frame, the store on arrival: each is polled on its own.
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { __pixelfleet: { state(): { fleet: { cursor: number } } } }).__pixelfleet.state().fleet.cursor), { timeout: 15_000 })
      .toBeGreaterThan(firstCursor);
  });

  test('a station shows its Markdown backlog', async ({ page }) => {
    await page.goto(host.url);
    await expect.poll(() => page.locator('[data-station="builder"]').count()).toBe(1);
    await page.evaluate(() => (globalThis as unknown as { __pixelfleet: { actions: { openBacklog(key: string): void } } }).__pixelfleet.actions.openBacklog('builder'));
    const panel = page.locator('[data-panel="backlog"]');
    await expect(panel).toBeVisible();
    await expect(panel.locator('[data-work-item]').first()).toBeVisible();
    const count = await panel.locator('[data-work-item]').count();
    const stationCount = await page.evaluate(
      () => (globalThis as unknown as { __pixelfleet: { state(): { fleet: { stations: { role: string; backlog: { items: unknown[] } }[] } } } }).__pixelfleet.state().fleet.stations.find((station) => station.role === 'builder')!.backlog.items.length,
    );
    expect(count).toBe(stationCount);
    expect(count).toBeGreaterThan(0);
    await page.screenshot({ path: test.info().outputPath('backlog.png') });
  });
});
