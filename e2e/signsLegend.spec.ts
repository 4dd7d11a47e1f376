/**
 * Issue 38, panels and first run: "Keys and signs" explains the world's signs (team pennants, the drift tag, bubbles,
 * badges, host tags) beside the keys, at 1024×640 and 1920×1080; on an empty fleet the lobby's "No sessions found"
 * says where it looked; at 1920×1080 the reading panels are drawn larger with the world (zoom from --ui-zoom).
 */
import { expect, test } from '@playwright/test';
import { freshHome, removeHome, startHost, type RunningHost } from './host';
import { openWorld } from './world.page';
import { shot } from './shots';

let home: string;
let host: RunningHost;
test.beforeAll(async () => {
  home = await freshHome();
  host = await startHost({ home });
});
test.afterAll(async () => {
  await host?.stop();
  await removeHome(home);
});

for (const size of [{ width: 1024, height: 640, zoom: '1' }, { width: 1920, height: 1080, zoom: '1.5' }]) {
  test(`at ${size.width}×${size.height} Keys and signs explains the signs, and the empty lobby says where it looked`, async ({ page }) => {
    await page.setViewportSize(size);
    await openWorld(page, host);
    expect(await page.evaluate(() => document.documentElement.dataset.uiZoom)).toBe(size.zoom);
    const keys = page.locator('[data-keys]');
    await keys.locator('summary').click();
    const legend = keys.locator('[data-signs-legend]');
    await expect(legend).toBeVisible();
    for (const meaning of ['leads an agent team', 'member of an agent team', 'drift', 'finished its turn', 'subagents running', 'another machine']) {
      await expect(legend, meaning).toContainText(meaning);
    }
    await shot(page, `keys-and-signs-${size.width}x${size.height}`);
    await keys.locator('summary').click();
    await page.locator('[data-lobby-door]').click();
    const lobby = page.locator('[data-panel="lobby"]');
    await expect(lobby).toContainText('No sessions found in the harness homes this app reads', { timeout: 30_000 });
    await expect(lobby).toContainText('CLAUDE_CONFIG_DIR');
    await shot(page, `lobby-empty-${size.width}x${size.height}`);
  });
}
