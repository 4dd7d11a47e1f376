/** Nothing lost, and the owner is told: a damaged persona store is moved aside and named in the page. */
import { test, expect } from '@playwright/test';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freshHome, removeHome, startHost } from './host';

test('a corrupt persona store is moved aside, kept, and reported in the world', async ({ page }) => {
  const home = await freshHome();
  const damaged = '{"schemaVersion": 2, "revision": 4, "personas": [ {"id": "p_x", "name": "Ada", ';
  await writeFile(join(home, 'personas.json'), damaged);
  await writeFile(join(home, 'settings.json'), JSON.stringify({ workSources: [{ kind: 'github', repo: 'not a repo' }] }));
  const host = await startHost({ home });
  try {
    await page.goto(host.url);
    const notices = page.locator('[data-panel="notices"] [data-notice]');
    await expect(notices.filter({ hasText: 'personas.json.corrupt-' })).toBeVisible();
    await expect(notices.filter({ hasText: 'settings.json' })).toBeVisible();
    const aside = (await readdir(home)).filter((name) => name.startsWith('personas.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(await readFile(join(home, aside[0]), 'utf8')).toBe(damaged);
    await page.screenshot({ path: test.info().outputPath('notices.png') });
  } finally {
    await host.stop();
    await removeHome(home);
  }
});
