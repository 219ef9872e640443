import { defineConfig } from 'vitest/config';

// Browser tests: one API server for the run (globalSetup), files one after another (2 cores).
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['e2e/globalSetup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: ['default', ['json', { outputFile: 'test-results/e2e.json' }]],
  },
});
