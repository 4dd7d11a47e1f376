/**
 * The world at a glance: 6, 60 and 200 demo agents in three window sizes. Fit must fill the limiting side of the
 * window (measured from the world's own bounds) and no two labels may overlap. Screenshots are kept as artifacts.
 */
import { test, expect, type Page } from '@playwright/test';
import { TOOLBAR_INSET } from '../renderer/world/layout';
import { freshHome, removeHome, startHost } from './host';
import { openWorld } from './world.page';

// Each test holds its own host on a fresh home, so the file's tests may run on different workers at once.
test.describe.configure({ mode: 'parallel' });

const WINDOWS = [
  { width: 1024, height: 640 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
];

interface Label {
  kind: string;
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** How much of the window's limiting side the fitted world covers. */
function fillOf(view: { zoom: number; width: number; height: number }, size: { width: number; height: number }): number {
  return Math.max((view.width * view.zoom) / size.width, (view.height * view.zoom) / (size.height - TOOLBAR_INSET));
}

function overlapping(labels: Label[]): [Label, Label][] {
  const pairs: [Label, Label][] = [];
  labels.forEach((first, index) => {
    for (const second of labels.slice(index + 1)) {
      // Shared edges are not overlaps: rectangles are half-open.
      if (first.x < second.x + second.width - 0.5 && second.x < first.x + first.width - 0.5 && first.y < second.y + second.height - 0.5 && second.y < first.y + first.height - 0.5) pairs.push([first, second]);
    }
  });
  return pairs;
}

async function agentsDrawn(page: Page, count: number): Promise<void> {
  await expect.poll(() => page.evaluate(() => window.__pixelfleet!.state().fleet?.personas.length ?? 0), { timeout: 60_000 }).toBe(count);
}

for (const count of [6, 60, 200]) {
  test(`${count} demo agents fill each window, no labels overlap, and the view re-fits unless the owner moved it`, async ({ page }) => {
    test.setTimeout(240_000);
    const home = await freshHome();
    const host = await startHost({ home, args: ['--demo', '--agents', String(count)] });
    try {
      await page.setViewportSize(WINDOWS[0]);
      await openWorld(page, host);
      await agentsDrawn(page, count);
      for (const size of WINDOWS) {
        await page.setViewportSize(size);
        await expect.poll(async () => fillOf(await page.evaluate(() => window.__pixelfleet!.view()), size), { timeout: 20_000 }).toBeGreaterThanOrEqual(0.85);
        const view = await page.evaluate(() => window.__pixelfleet!.view());
        // Inside the window, below the toolbar band.
        expect(view.offsetX).toBeGreaterThanOrEqual(0);
        expect(view.offsetY).toBeGreaterThanOrEqual(TOOLBAR_INSET);
        expect(view.offsetX + view.width * view.zoom).toBeLessThanOrEqual(size.width + 0.5);
        expect(view.offsetY + view.height * view.zoom).toBeLessThanOrEqual(size.height + 0.5);
        await page.screenshot({ path: test.info().outputPath(`world-${count}-agents-${size.width}x${size.height}.png`) });
        const labels = await page.evaluate(() => window.__pixelfleet!.labels());
        expect(labels.filter((label) => label.kind === 'sign').length).toBeGreaterThanOrEqual(7);
        expect(labels.filter((label) => label.kind === 'name').length).toBe(view.zoom >= 1 ? count : 0);
        expect(overlapping(labels).map(([first, second]) => `${first.kind} ${first.id} × ${second.kind} ${second.id}`), `${size.width}×${size.height}`).toEqual([]);
        // Every agent has its own desk, and no desk covers another agent's name, badge or bubble.
        const seats = await page.evaluate(() => window.__pixelfleet!.seating());
        expect(seats).toHaveLength(count);
        const desks: Label[] = seats.map((seat) => ({ kind: 'desk', id: seat.id, ...seat.desk }));
        const covered = desks.flatMap((desk) => overlapping([desk, ...labels.filter((label) => label.id !== desk.id && label.kind !== 'sign' && label.kind !== 'count')]).filter(([first]) => first === desk));
        expect(covered.map(([desk, label]) => `desk ${desk.id} × ${label.kind} ${label.id}`), `${size.width}×${size.height}`).toEqual([]);
      }
      // Zoomed by the owner: a new window size keeps the view; F fits again.
      await page.keyboard.press('-');
      const moved = await page.evaluate(() => window.__pixelfleet!.view());
      await page.setViewportSize(WINDOWS[1]);
      // The page handles a resize in its resize event, which comes before the next frame: wait for the size, then a frame.
      await page.waitForFunction(({ width, height }) => innerWidth === width && innerHeight === height, WINDOWS[1]);
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      expect(await page.evaluate(() => window.__pixelfleet!.view())).toMatchObject({ zoom: moved.zoom, offsetX: moved.offsetX, offsetY: moved.offsetY });
      await page.keyboard.press('f');
      await expect.poll(async () => fillOf(await page.evaluate(() => window.__pixelfleet!.view()), WINDOWS[1]), { timeout: 20_000 }).toBeGreaterThanOrEqual(0.85);
    } finally {
      await host.stop();
      await removeHome(home);
    }
  });
}
