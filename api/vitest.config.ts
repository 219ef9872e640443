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
    // Vitest's default is one fewer worker than cores: one at a time on a 2-core machine, where most
    // files spend their time waiting on a server process, a socket or a timer rather than on a core.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Each file imported the whole app again in a fresh process (about 5 s a file, 10 minutes a run);
    // every file builds its own app and database, so they can share a worker's loaded modules.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
