import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Stryker's sandboxes hold a copy of the tests: never collect them.
    exclude: [...configDefaults.exclude, '.stryker-tmp/**'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    globalSetup: ['./test/support/build-once.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // DuckDB and HTTP servers per file: two cores, so keep parallelism modest.
    maxWorkers: 2,
  },
});
