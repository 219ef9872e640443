import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // graphql ships CommonJS and ESM builds; Pothos loads one, vite would load the other, and two
  // copies of graphql refuse each other's types. Everyone gets the CommonJS build.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Prisma's schema engine loads its .wasm as an ES module.
    execArgv: ['--experimental-wasm-modules', '--no-warnings=ExperimentalWarning'],
    pool: 'forks',
    // On the embedded database (each file its own PGlite) two files at a time: vitest's default is
    // one at a time on a 2-core machine. On a PostgreSQL server the files meet in the one server, and
    // two at a time timed out there (issue 54 has the figures): vitest's default.
    ...(process.env.TEST_DATABASE_URL ? {} : { maxWorkers: Math.max(2, availableParallelism() - 1) }),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
