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
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
