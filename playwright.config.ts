import { defineConfig } from '@playwright/test';

/** Debian's Chromium, started as the machine's closed network requires. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Four workers by default: every spec starts its own hosts on fresh homes, free ports (`--port 0`) and private tmux
 * sockets, so files never share state, and a test mostly waits on its host and browser (on 2 cores the suite used
 * about a quarter of the CPU with two workers). PIXELFLEET_E2E_WORKERS overrides it (1 to run the files one after
 * another).
 */
const WORKERS = Number(process.env.PIXELFLEET_E2E_WORKERS) || 4;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.PIXELFLEET_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'off',
  },
});
