import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The vitest configuration Stryker runs (npm run mutate): the unit and component tests of the
 * mutated cores. Left out: tests that run the built bundle (a mutant in the sandbox's src never
 * reaches dist/coral.js, so they could not tell mutants apart), hence no build step either; the
 * receiver's load test (it checks concurrency, not logic, and outlasts its timeout once instrumented);
 * and the ink console test, whose fixed waits between keys fail under instrumentation on a busy
 * machine (the state and key cores it drives have pure tests of their own).
 *
 * MUTATE_TESTS=dir-or-file[,...] narrows the tests to those paths: Stryker's initial run executes every
 * included test, so a run on one file is much cheaper with only its tests, e.g.
 *   MUTATE_TESTS=test/colony/unified npm run mutate -- --mutate src/colony/unified/histogram.ts
 */
const only = (process.env.MUTATE_TESTS ?? '').split(',').map((p) => p.trim().replace(/\/$/, '')).filter(Boolean);

export default defineConfig({
  test: {
    include: only.length > 0 ? only.map((p) => (/\.tsx?$/.test(p) ? p : `${p}/**/*.test.{ts,tsx}`)) : ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: [...configDefaults.exclude, '.stryker-tmp/**', 'test/cli.test.ts', 'test/console-smoke.test.ts', 'test/agent/ask-cli.test.ts', 'test/colony/transports.test.ts', 'test/components/console.test.tsx'],
    testNamePattern: /^(?!.*loses nothing from 20 concurrent clients)/,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    maxWorkers: 1,
  },
});
