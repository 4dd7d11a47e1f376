/** Screenshots of fixed screens: kept as test artifacts, and copied to PIXELFLEET_SHOTS when that names a folder. */
import { test, type Page } from '@playwright/test';

/** Saves a screenshot of the page as an artifact of the running test (and into PIXELFLEET_SHOTS when set). */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
  if (process.env.PIXELFLEET_SHOTS) await page.screenshot({ path: `${process.env.PIXELFLEET_SHOTS}/${name}.png` });
}
