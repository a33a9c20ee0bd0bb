/**
 * Load time of the largest demo scenario into an in-memory colony, through the OTLP/JSON decoder.
 * Target (issue 3): <= 3 s on this machine. Measured both ways a load runs: decoded on a worker
 * thread (the default for a DuckDB colony) and on the calling thread; `js_busy_ms` is how long the
 * calling thread (the console's, which also draws) was busy during the load.
 */
import { performance } from 'node:perf_hooks';
import { ColonyStore } from '../src/colony/store/store.js';
import { listScenarios } from '../src/demo/files.js';
import { loadScenario } from '../src/demo/load.js';
import { report } from './report.js';
import { bundleWorker } from '../scripts/worker-bundle.mjs';

// The worker as the built CLI runs it, from its bundled code (load-off-thread.ts reads this global
// when the build has not defined it), not through tsx, whose start-up would be measured instead.
(globalThis as Record<string, unknown>).__CORAL_LOAD_WORKER__ = await bundleWorker('src/demo/load-worker.ts');

const largest = listScenarios().sort((a, b) => b.counts.spans - a.counts.spans)[0];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const runs = { worker: [] as { wall: number; cpu: number; busy: number; first: number }[], here: [] as { wall: number; cpu: number; busy: number; first: number }[] };
let spans = 0;
// Interleaved, so that both ways see the same machine load.
for (let i = 0; i < 3; i++) {
  for (const way of ['worker', 'here'] as const) {
    const store = await ColonyStore.open({ path: ':memory:', memoryLimit: '4GB', compact: true });
    const elu = performance.eventLoopUtilization();
    const cpu = process.cpuUsage();
    const t = performance.now();
    let first = 0;
    const r = await loadScenario(store, largest.name, { newestFirst: true, offThread: way === 'worker', onProgress: () => (first ||= performance.now() - t) });
    const wall = performance.now() - t;
    const c = process.cpuUsage(cpu);
    runs[way].push({ wall, cpu: (c.user + c.system) / 1000, busy: performance.eventLoopUtilization(elu).active, first });
    spans = r.accepted.spans;
    await store.close();
  }
}
for (const way of ['worker', 'here'] as const) {
  const rs = runs[way];
  report({
    bench: 'demo_load_largest',
    decoded_on: way === 'worker' ? 'worker thread' : 'calling thread',
    scenario: largest.name,
    spans,
    compressed_bytes: largest.bytes,
    median_ms: Math.round(median(rs.map((r) => r.wall))),
    max_ms: Math.round(Math.max(...rs.map((r) => r.wall))),
    first_write_ms: Math.round(median(rs.map((r) => r.first))),
    cpu_ms: Math.round(median(rs.map((r) => r.cpu))),
    js_busy_ms: Math.round(median(rs.map((r) => r.busy))),
    target_ms: 3000,
    meets_target: median(rs.map((r) => r.wall)) <= 3000,
  });
}
