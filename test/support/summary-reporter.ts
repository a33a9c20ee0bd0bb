import { existsSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the plain closing line CI reads ("N passed, N failed"), after vitest's own summary.
 * Modules that failed to load count as failures, so a broken import cannot pass for green.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    failed += unhandledErrors.length;
    // Said once, here, rather than by every test file that skips (test/colony/clickhouse/chdb.ts).
    if (!existsSync('.cache/chdb/node_modules/chdb/package.json')) process.stdout.write('\nClickHouse tests skipped: chdb is not in .cache/chdb. Include them: npm run chdb (~550 MB, not written to package.json), then npm test.\n');
    process.stdout.write(`\n${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}\n`);
  }
}
