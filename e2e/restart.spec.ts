/**
 * A host that survives its own restart: browser mode keeps its token (and the port it listened on) in the app home,
 * so a page left open says "reconnecting…" while the host is away, keeps its world, and comes back by itself with
 * one whole read once the host runs again — without reloading.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import type { FleetSnapshot } from '../shared/schemas';
import { followFleet } from './fleetFollower';
import { freshHome, removeHome, startHost, type RunningHost } from './host';

let home: string;
const hosts: RunningHost[] = [];

test.beforeAll(async () => {
  home = await freshHome();
});

test.afterAll(async () => {
  for (const host of hosts) await host.stop();
  await removeHome(home);
});

function pageSeats(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const fleet = (window as unknown as { __pixelfleet?: { state(): { fleet: FleetSnapshot | null } } }).__pixelfleet?.state().fleet;
    return fleet ? fleet.seats.map((seat) => seat.id).sort() : [];
  });
}

test('an open page reconnects to the restarted host and heals by one whole read, without reloading', async ({ page }) => {
  const first = await startHost({ home, args: ['--demo', '--agents', '3'], recordedPort: true });
  hosts.push(first);
  const tokenFile = await stat(join(home, 'web-token.json'));
  expect(tokenFile.mode & 0o777).toBe(0o600);

  await page.goto(first.url);
  await expect.poll(async () => (await pageSeats(page)).length, { timeout: 30_000 }).toBeGreaterThan(0);
  const seatsBefore = await pageSeats(page);
  // A mark only this document carries: a reload would lose it.
  await page.evaluate(() => ((window as unknown as { restartMark: number }).restartMark = 29));
  await expect(page.locator('#connection')).toBeHidden();

  await first.stop();
  await expect(page.locator('#connection')).toHaveAttribute('data-connection', 'reconnecting', { timeout: 15_000 });
  await expect(page.locator('#connection')).toHaveText('reconnecting…');
  // Never a blank world: what the page showed stays while it waits.
  expect(await pageSeats(page)).toEqual(seatsBefore);
  await expect(page.locator('canvas').first()).toBeVisible();

  // The demo restarted on the same home: the same token, and the port recorded with it.
  const second = await startHost({ home, args: ['--demo', '--agents', '3'], recordedPort: true });
  hosts.push(second);
  expect(second.token).toBe(first.token);
  expect(second.port).toBe(first.port);

  await expect(page.locator('#connection')).toBeHidden({ timeout: 30_000 });
  expect(await page.evaluate(() => (window as unknown as { restartMark?: number }).restartMark)).toBe(29);
  const follower = await followFleet(second);
  try {
    const fleet = await follower.until((snapshot) => snapshot.seats.length > 0);
    await expect.poll(() => pageSeats(page), { timeout: 30_000 }).toEqual(fleet.seats.map((seat) => seat.id).sort());
  } finally {
    follower.close();
  }
});

test('--new-token rotates the kept token: a page holding the old one is refused', async ({ request }) => {
  const host = await startHost({ home, args: ['--new-token'], recordedPort: false });
  hosts.push(host);
  const old = hosts[0].token;
  expect(host.token).not.toBe(old);
  expect((await request.get(`${host.origin}/?token=${old}`)).status()).toBe(401);
  expect((await request.get(host.url)).status()).toBe(200);
});
