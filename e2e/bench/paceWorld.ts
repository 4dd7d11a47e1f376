/**
 * The world-bench row of issue 41: the still world page with the pace panel open and nothing changing. The panel
 * asks main once when opened and once a minute; it should add nothing to the idle page (< 5 ms/s).
 */
import type { Page } from '@playwright/test';
import { below, type BenchTable } from './table';

type Measure = (page: Page, seconds: number) => Promise<{ fps: number; cpu: number }>;

/** Opens the pace panel on the still page, measures it idle, and closes it again. */
export async function benchIdleWithPacePanel(page: Page, measure: Measure, log: (line: string) => void, table: BenchTable): Promise<void> {
  const opened = await page.evaluate(async () => {
    const pace = (window as unknown as { __pixelfleetPace?: { open(): Promise<void>; shown(): { open: boolean } } }).__pixelfleetPace;
    if (!pace) return false;
    await pace.open();
    return pace.shown().open;
  });
  if (!opened) {
    log('idle world page with the pace panel open: not measured — the panel did not open');
    table.add({ figure: 'idle world page with the pace panel open', goal: below(5), value: null, unit: 'ms/s' });
    return;
  }
  await page.waitForFunction(() => (window as unknown as { __pixelfleet: { ticker(): { running: boolean } } }).__pixelfleet.ticker().running === false, null, { timeout: 60_000 }).catch(() => undefined);
  const idle = await measure(page, 3);
  log(`idle world page with the pace panel open: ${idle.fps.toFixed(1)} frames/s, page CPU ${(idle.cpu * 1000).toFixed(1)} ms/s`);
  table.add({ figure: 'idle world page with the pace panel open', goal: below(5), value: idle.cpu * 1000, unit: 'ms/s' });
  await page.evaluate(() => (window as unknown as { __pixelfleetPace: { close(): void } }).__pixelfleetPace.close());
}
