/**
 * Load time of the largest demo scenario into an in-memory colony, through the OTLP/JSON decoder.
 * Target (issue 3): <= 3 s on this machine.
 */
import { ColonyStore } from '../src/colony/store/store.js';
import { listScenarios } from '../src/demo/files.js';
import { loadScenario } from '../src/demo/load.js';
import { report } from './report.js';

const largest = listScenarios().sort((a, b) => b.counts.spans - a.counts.spans)[0];
const runs: number[] = [];
let spans = 0;
for (let i = 0; i < 3; i++) {
  const store = await ColonyStore.open({ path: ':memory:', threads: 2, memoryLimit: '4GB' });
  const t = performance.now();
  const r = await loadScenario(store, largest.name);
  runs.push(performance.now() - t);
  spans = r.accepted.spans;
  await store.close();
}
runs.sort((a, b) => a - b);
report({
  bench: 'demo_load_largest',
  scenario: largest.name,
  spans,
  compressed_bytes: largest.bytes,
  median_ms: Math.round(runs[1]),
  max_ms: Math.round(runs[2]),
  target_ms: 3000,
  meets_target: runs[1] <= 3000,
});
