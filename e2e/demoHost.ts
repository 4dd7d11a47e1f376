/**
 * One demo host per Playwright worker, for tests that only look: they read the world, open panels in their own page
 * and ask for changes the host refuses, so they can share a host instead of starting one each.
 */
import { test as base } from '@playwright/test';
import { freshHome, removeHome, startHost, type RunningHost } from './host';

/** `test` with `sharedDemo`: a `--demo` host on a fresh home, started once per worker and stopped when it ends. */
export const test = base.extend<object, { sharedDemo: RunningHost }>({
  sharedDemo: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from its first parameter.
    async ({}, use) => {
      const home = await freshHome();
      const host = await startHost({ home, args: ['--demo'] });
      try {
        await use(host);
      } finally {
        await host.stop();
        await removeHome(home);
      }
    },
    { scope: 'worker' },
  ],
});

export { expect, type Page } from '@playwright/test';
