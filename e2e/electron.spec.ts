/** The desktop app through Playwright's Electron support — only where the Electron binary exists. */
import { test, expect, _electron as electron } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
// @ts-expect-error plain ESM helper without types
import { findElectronBinary } from '../main/dev/build/electronBinary.mjs';
import { freshHome, removeHome, ROOT } from './host';

const binary = findElectronBinary() as { ok: true; executable: string } | { ok: false; reason: string };

test.describe('desktop app', () => {
  test.skip(!binary.ok, `Electron e2e skipped: ${binary.ok ? '' : binary.reason}`);
  if (!binary.ok) console.log(`e2e/electron.spec.ts: skipped — ${binary.reason}.`);

  test('opens the world with the six stations', async () => {
    if (!binary.ok) return;
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build', '--config', 'electron.config.ts'], { cwd: ROOT, stdio: 'inherit' });
    const home = await freshHome();
    const app = await electron.launch({ executablePath: binary.executable, args: [ROOT], env: { ...process.env, PIXELFLEET_HOME: home } });
    try {
      const page = await app.firstWindow();
      await expect
        .poll(() => page.evaluate(() => document.querySelectorAll('[data-station]').length))
        .toBeGreaterThanOrEqual(7);
      const isolated = await page.evaluate(() => typeof (globalThis as { require?: unknown }).require === 'undefined');
      expect(isolated).toBe(true);
    } finally {
      await app.close();
      await removeHome(home);
    }
  });
});
