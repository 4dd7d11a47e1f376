/**
 * The fleet and the jobs board travel as changes: over a busy demo fleet, a client that applies only changes (and the
 * page itself) holds exactly what a whole read gives at the same cursor.
 */
import { test, expect, type Page } from '@playwright/test';
import type { JobBoard } from '../shared/jobs';
import type { FleetSnapshot } from '../shared/schemas';
import { followFleet, type FleetFollower } from './fleetFollower';
import { freshHome, removeHome, startHost, type RunningHost } from './host';

let host: RunningHost;
let home: string;

test.beforeAll(async () => {
  home = await freshHome();
  host = await startHost({ home, args: ['--demo', '--agents', '40'] });
});

test.afterAll(async () => {
  await host?.stop();
  await removeHome(home);
});

/** Reads whole until a read lands on the cursor `held()` holds at that moment; returns both. */
async function pinned<T extends { cursor?: number; revision?: number }>(read: () => Promise<T>, held: () => Promise<T | null>, key: 'cursor' | 'revision'): Promise<{ read: T; held: T }> {
  for (let attempt = 0; attempt < 60; attempt++) {
    const whole = await read();
    const mine = await held();
    if (mine && whole[key] === mine[key]) return { read: whole, held: mine };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no whole read landed on the held ${key} in 60 attempts`);
}

test('a client applying only changes to a busy fleet holds exactly what a whole read gives', async () => {
  const follower: FleetFollower = await followFleet(host);
  try {
    await expect.poll(() => follower.counts.patches, { timeout: 30_000 }).toBeGreaterThan(20);
    await expect.poll(() => follower.counts.jobsPatches, { timeout: 30_000 }).toBeGreaterThan(5);
    const fleet = await pinned(async () => (await follower.ask('fleet.read', {})).value as FleetSnapshot, async () => follower.fleet(), 'cursor');
    expect(fleet.held).toEqual(fleet.read);
    const jobs = await pinned(async () => (await follower.ask('jobs.list', { all: true })).value as JobBoard, async () => follower.jobs(), 'revision');
    expect({ ...jobs.held, at: '', cursor: 0 }).toEqual({ ...jobs.read, at: '', cursor: 0 });
    // Changes are far smaller than whole snapshots: 40 agents' snapshot is tens of kilobytes, a change a few hundred bytes.
    const whole = JSON.stringify(fleet.read).length;
    expect(follower.counts.bytes / (follower.counts.patches + follower.counts.jobsPatches)).toBeLessThan(whole / 4);
    expect(follower.counts.healed).toBeLessThanOrEqual(1);
  } finally {
    follower.close();
  }
});

/** The page's fleet, as its store holds it. */
function pageFleet(page: Page): Promise<FleetSnapshot | null> {
  return page.evaluate(() => (window as unknown as { __pixelfleet: { state(): { fleet: FleetSnapshot | null } } }).__pixelfleet.state().fleet);
}

test('the page follows the busy fleet by its changes and holds what a whole read gives', async ({ page }) => {
  const follower = await followFleet(host);
  try {
    await page.goto(host.url);
    const counters = () => page.evaluate(() => (window as unknown as { __pixelfleet?: { state(): { counters: { fleetReads: number; fleetPatches: number } } } }).__pixelfleet?.state().counters ?? null);
    await expect.poll(async () => (await counters())?.fleetPatches ?? 0, { timeout: 30_000 }).toBeGreaterThan(20);
    const fleet = await pinned(async () => (await follower.ask('fleet.read', {})).value as FleetSnapshot, () => pageFleet(page), 'cursor');
    expect(fleet.held).toEqual(fleet.read);
    // One read at start, at most one more to heal a change that crossed it; the rest were changes.
    expect((await counters())!.fleetReads).toBeLessThanOrEqual(2);
  } finally {
    follower.close();
  }
});
