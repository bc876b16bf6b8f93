import { defineConfig } from 'vitest/config';

// Integration tests start real servers and load real models: give them room,
// and run files in forked processes so a native crash fails one file, not the run.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
