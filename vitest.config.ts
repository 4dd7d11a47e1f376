import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['main/**/*.test.ts', 'shared/**/*.test.ts', 'renderer/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Most suites wait on child processes, files, tmux and sockets rather than compute (on 2 cores the suite used about
    // half the CPU with two forks), so four forks fill the gaps. PIXELFLEET_UNIT_WORKERS overrides it.
    maxWorkers: Number(process.env.PIXELFLEET_UNIT_WORKERS) || 4,
    // Suites that run `pixelfleet` as a child expect out/main to be current; build it once up front.
    globalSetup: ['main/dev/build/buildBeforeTests.ts'],
  },
});
