/**
 * Issue 42's update-cost figure: a page showing 3 stand-in remotes of 100 demo agents each against a page showing the
 * same 300 demo agents run locally. Both hosts run side by side and both pages are measured over the same seconds, so
 * a busy machine stretches both alike. Reduced motion is on in both, so the page CPU is what the fleet's updates cost
 * (receiving, applying, drawing the changes), not the sprites' animation. Also counted: the fleet updates each page
 * received and their bytes (the traffic the page must take in).
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { freshHome, removeHome, ROOT, startHost, type RunningHost } from '../host';
import { connect } from './world';

const PIXELFLEET = join(ROOT, 'main', 'edges', 'cli', 'pixelfleet.mjs');
const STAND_IN = join(ROOT, 'main', 'edges', 'remote', 'fixtures', 'stand-in-ssh.mjs');
/** Remotes compared, and demo agents on each. */
export const REMOTES = 3;
/** Demo agents on each remote. */
export const AGENTS_EACH = 100;
/** Seconds the pages run with every agent on them before counting (the first snapshot is not an update). */
const SETTLE_SECONDS = 10;
/** Seconds measured. */
const MEASURE_SECONDS = 45;
/** Most seconds for a fleet to be whole on its page. */
const ARRIVE_SECONDS = 240;

/** What one page did over the measured seconds. */
export interface PageCost {
  /** Page main-thread task time, ms per second. */
  cpuMsPerSecond: number;
  /** Fleet updates (whole snapshots and patches) received per second. */
  updatesPerSecond: number;
  /** Bytes of those updates per second. */
  bytesPerSecond: number;
  /** Seat changes in those updates per second (a seat sent again unchanged is not one). */
  seatChangesPerSecond: number;
  /** Page CPU per seat change, ms: the update cost whatever the rate the hosts manage on a busy machine. */
  cpuMsPerSeatChange: number;
}

/** The fleet updates a page's socket received while counting, and the seat changes in them. */
interface Tally {
  counting: boolean;
  updates: number;
  bytes: number;
  /** Seats that arrived different from their last version (or left): the changes the page had to apply. */
  seatChanges: number;
}

/** Follows a page's fleet updates: each seat's last version, so a seat sent again unchanged is not counted as a change. */
function follow(tally: Tally) {
  const seats = new Map<string, string>();
  const take = (seat: { id: string }) => {
    const text = JSON.stringify(seat);
    if (seats.get(seat.id) === text) return;
    seats.set(seat.id, text);
    if (tally.counting) tally.seatChanges += 1;
  };
  return (text: string) => {
    // Events start with their name; answers to the page's own requests are not updates.
    const whole = text.startsWith('{"event":"fleet.changed"');
    if (!whole && !text.startsWith('{"event":"fleet.patched"')) return;
    const message = JSON.parse(text) as { payload: { snapshot?: { seats: { id: string }[] }; patch?: { seats?: { set?: { id: string }[]; removed?: string[] } } } };
    if (tally.counting) {
      tally.updates += 1;
      tally.bytes += Buffer.byteLength(text);
    }
    if (whole) {
      const now = message.payload.snapshot!.seats;
      for (const id of seats.keys()) if (!now.some((seat) => seat.id === id) && seats.delete(id) && tally.counting) tally.seatChanges += 1;
      now.forEach(take);
      return;
    }
    message.payload.patch?.seats?.set?.forEach(take);
    for (const id of message.payload.patch?.seats?.removed ?? []) if (seats.delete(id) && tally.counting) tally.seatChanges += 1;
  };
}

/** A page on a host, with reduced motion, following the fleet updates its socket receives. */
async function openCounted(browser: Browser, host: RunningHost) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const tally: Tally = { counting: false, updates: 0, bytes: 0, seatChanges: 0 };
  const take = follow(tally);
  page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => take(typeof payload === 'string' ? payload : payload.toString('utf8'))));
  await page.goto(host.url);
  return { page, tally };
}

/** Seats on a page now (0 before its first snapshot). */
function seatsShown(page: Page): Promise<number> {
  return page.evaluate(() => (window.__pixelfleet?.state().fleet as { seats: unknown[] } | null | undefined)?.seats.length ?? 0);
}

/** Page task seconds so far, through the DevTools protocol. */
async function taskClock(page: Page) {
  const session = await page.context().newCDPSession(page);
  await session.send('Performance.enable');
  return async () => (await session.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? 0;
}

/** Starts the local 300 and the 3 × 100 hosts, measures both pages together; the remote page's cost ÷ the local one's. */
export async function remotePageCost(log: (line: string) => void): Promise<{ local: PageCost; spread: PageCost; ratio: number } | null> {
  const total = REMOTES * AGENTS_EACH;
  const localHome = await freshHome('pixelfleet-bench-page-300-');
  const root = await freshHome('pixelfleet-bench-page-3x100-');
  const hosts: RunningHost[] = [];
  let browser: Browser | null = null;
  try {
    const home = join(root, 'local');
    for (let index = 1; index <= REMOTES; index += 1) {
      await writeFile(join(root, `box${index}.args`), JSON.stringify(['--demo', '--agents', String(AGENTS_EACH)]));
      execFileSync(process.execPath, [PIXELFLEET, 'remote', 'add', `box${index}`, `box${index}`, '--command', `${process.execPath} ${PIXELFLEET}`], { cwd: ROOT, env: { ...process.env, PIXELFLEET_HOME: home } });
    }
    // One after the other, the remotes first (a 100-agent demo that starts slowly misses its link's hello and is
    // restarted), so no start competes with another's; both then run side by side.
    const started = performance.now();
    const spread = await startHost({ home, env: { PIXELFLEET_SSH: STAND_IN, PIXELFLEET_STANDIN_ROOT: root } });
    hosts.push(spread);
    const remotes = await connect(spread);
    const remoteSeats = async () => ((await remotes.ask('fleet.read', {})).value as { seats: unknown[] } | undefined)?.seats.length ?? 0;
    while ((await remoteSeats()) < total && performance.now() - started < ARRIVE_SECONDS * 1000) await new Promise((resolve) => setTimeout(resolve, 500));
    remotes.close();
    const spreadReady = performance.now();
    const local = await startHost({ home: localHome, args: ['--demo', '--agents', String(total)] });
    hosts.push(local);
    log(`the ${REMOTES} remotes' agents were in their host's world in ${((spreadReady - started) / 1000).toFixed(1)} s; the ${total}-agent local host printed its URL ${((performance.now() - spreadReady) / 1000).toFixed(1)} s later`);
    browser = await chromium.launch({ executablePath: process.env.PIXELFLEET_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const pages = [await openCounted(browser, local), await openCounted(browser, spread)];
    // Every agent in each host's world (asked as the page asks), and each page showing a fleet.
    const asks = await Promise.all([local, spread].map((host) => connect(host)));
    const hostSeats = () => Promise.all(asks.map(async ({ ask }) => ((await ask('fleet.read', {})).value as { seats: { id: string; host?: string }[] } | undefined)?.seats ?? []));
    const deadline = performance.now() + ARRIVE_SECONDS * 1000;
    for (;;) {
      const [held, shown] = await Promise.all([hostSeats(), Promise.all(pages.map(({ page }) => seatsShown(page)))]);
      if (held.every((seats) => seats.length >= total) && shown.every((count) => count > 0)) break;
      if (performance.now() > deadline) {
        const perHost = held[1].reduce((counts, seat) => counts.set(seat.host ?? 'local', (counts.get(seat.host ?? 'local') ?? 0) + 1), new Map<string, number>());
        log(`${REMOTES} remotes × ${AGENTS_EACH} against ${total} local: not every agent reached its host in ${ARRIVE_SECONDS} s (${held[0].length} local; ${[...perHost].map(([name, count]) => `${name} ${count}`).join(', ')})`);
        for (const line of spread.output().split('\n').filter((text) => text.includes('remote ')).slice(-5)) log(`  host of the remotes: ${line}`);
        for (const { close } of asks) close();
        return null;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    for (const { close } of asks) close();
    log(`every agent in both hosts' worlds ${((performance.now() - started) / 1000).toFixed(1)} s after the first host started`);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
    const clocks = await Promise.all(pages.map(({ page }) => taskClock(page)));
    const before = await Promise.all(clocks.map((clock) => clock()));
    for (const { tally } of pages) tally.counting = true;
    const from = performance.now();
    await new Promise((resolve) => setTimeout(resolve, MEASURE_SECONDS * 1000));
    const after = await Promise.all(clocks.map((clock) => clock()));
    for (const { tally } of pages) tally.counting = false;
    const seconds = (performance.now() - from) / 1000;
    const shownAfter = await Promise.all(pages.map(({ page }) => seatsShown(page)));
    log(`seats on the pages after measuring: ${shownAfter[0]} local, ${shownAfter[1]} from the remotes`);
    const [localCost, spreadCost] = pages.map(({ tally }, index): PageCost => ({
      cpuMsPerSecond: ((after[index] - before[index]) * 1000) / seconds,
      updatesPerSecond: tally.updates / seconds,
      bytesPerSecond: tally.bytes / seconds,
      seatChangesPerSecond: tally.seatChanges / seconds,
      cpuMsPerSeatChange: ((after[index] - before[index]) * 1000) / Math.max(tally.seatChanges, 1),
    }));
    const line = (cost: PageCost) =>
      `page CPU ${cost.cpuMsPerSecond.toFixed(1)} ms/s; ${cost.updatesPerSecond.toFixed(2)} fleet updates/s (${(cost.cpuMsPerSecond / Math.max(cost.updatesPerSecond, 1e-9)).toFixed(1)} ms each), ${cost.seatChangesPerSecond.toFixed(1)} seat changes/s (${cost.cpuMsPerSeatChange.toFixed(2)} ms each), ${(cost.bytesPerSecond / 1024).toFixed(1)} KiB/s`;
    log(`${total} demo agents local (reduced motion, ${MEASURE_SECONDS} s side by side): ${line(localCost)}`);
    log(`${REMOTES} remotes × ${AGENTS_EACH} demo agents: ${line(spreadCost)}`);
    log(`ratios (remotes ÷ local): page CPU per seat change ${(spreadCost.cpuMsPerSeatChange / localCost.cpuMsPerSeatChange).toFixed(2)}×, page CPU per second ${(spreadCost.cpuMsPerSecond / localCost.cpuMsPerSecond).toFixed(2)}×, seat changes per second ${(spreadCost.seatChangesPerSecond / Math.max(localCost.seatChangesPerSecond, 1e-9)).toFixed(2)}×`);
    if (localCost.seatChangesPerSecond === 0 || spreadCost.seatChangesPerSecond === 0) return null;
    // Per seat change: one host census of 300 seats gets less of a busy machine than three of 100, so it sends fewer
    // changes per second; what each change costs the page is the figure that does not depend on that share.
    return { local: localCost, spread: spreadCost, ratio: spreadCost.cpuMsPerSeatChange / localCost.cpuMsPerSeatChange };
  } finally {
    await browser?.close();
    await Promise.all(hosts.map((host) => host.stop()));
    // A host that never printed its URL may still be writing its demo: its folder is left, not the error hidden.
    for (const folder of [localHome, root]) await removeHome(folder).catch((error: Error) => log(`could not remove ${folder}: ${error.message}`));
  }
}
