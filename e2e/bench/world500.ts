/**
 * The 500-agent rows of issue 43: `pixelfleet web --demo --agents 500` shown whole ("Fit all") on a 1920×1080 page
 * while its agents animate — page CPU and frame rate, the host's CPU over the same seconds, and the page's heap.
 */
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { freshHome, removeHome, startHost } from '../host';
import { clockTicks, cpuSeconds } from './measure';
import { atMost, type BenchTable } from './table';

/** Agents of the large demo fleet. */
const AGENTS = 500;

/** How the world area measures a page: frames per second and page CPU (s/s) over `seconds`. */
type Measure = (page: Page, seconds: number) => Promise<{ fps: number; cpu: number }>;

/** Runs the 500-agent figures and adds their three rows. */
export async function benchFiveHundred(log: (line: string) => void, table: BenchTable, measure: Measure): Promise<void> {
  const home = await freshHome('pixelfleet-bench-500-');
  const host = await startHost({ home, args: ['--demo', '--agents', String(AGENTS)] });
  const browser = await chromium.launch({ executablePath: process.env.PIXELFLEET_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.goto(host.url);
    await page.waitForFunction((count) => document.querySelectorAll('[data-agent]').length >= count, AGENTS, { timeout: 120_000 });
    await page.locator('#world > canvas:not(.backdrop)').focus();
    // "Fit all": the whole fleet in the window, as the owner sees it first.
    await page.keyboard.press('f');
    await page.waitForTimeout(1000);
    const ticks = clockTicks();
    const hostBefore = await cpuSeconds(host.pid, ticks);
    const wallBefore = performance.now();
    const looping = await measure(page, 5);
    const hostAfter = await cpuSeconds(host.pid, ticks);
    const hostPercent = hostBefore === null || hostAfter === null ? null : ((hostAfter - hostBefore) / ((performance.now() - wallBefore) / 1000)) * 100;
    const session = await page.context().newCDPSession(page);
    await session.send('Performance.enable');
    const metrics = (await session.send('Performance.getMetrics')).metrics;
    await session.detach();
    const heapBytes = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? null;
    const heapMb = heapBytes === null ? null : heapBytes / 1e6;
    log(`${AGENTS} agents animating at "Fit all" on 1920×1080: ${looping.fps.toFixed(1)} frames/s, page CPU ${(looping.cpu * 1000).toFixed(0)} ms/s; host CPU ${hostPercent === null ? 'n/a' : `${hostPercent.toFixed(1)} % of a core`}; page heap ${heapMb === null ? 'n/a' : `${heapMb.toFixed(0)} MB`}`);
    table.add({ figure: `${AGENTS} agents animating`, goal: atMost(200), value: looping.cpu * 1000, unit: 'ms/s', also: { text: 'at ≥ 15 frames/s', holds: looping.fps >= 15 }, frames: looping.fps });
    table.add({ figure: `${AGENTS} agents: host CPU`, goal: atMost(50), value: hostPercent, unit: '% of a core' });
    table.add({ figure: `${AGENTS} agents: page heap`, goal: atMost(200), value: heapMb, unit: 'MB' });
    await page.close();
  } finally {
    await browser.close();
    await host.stop();
    await removeHome(home);
  }
}
