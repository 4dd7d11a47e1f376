import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['main/**/*.test.ts', 'shared/**/*.test.ts', 'renderer/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Suites that run `pixelfleet` as a child expect out/main to be current; build it once up front.
    globalSetup: ['main/dev/build/buildBeforeTests.ts'],
  },
});
