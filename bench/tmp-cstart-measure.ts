import { ColonyStore } from '../src/colony/store/store.js';
import { loadScenario } from '../src/demo/load.js';
import { createToolContext } from '../src/colony/tools/types.js';
import { summaryTool } from '../src/colony/tools/summary.js';
import { runTool } from '../src/colony/tools/run.js';
import { nowNs } from '../src/core/time.js';
import { SUMMARY_INSTANCE_KEYS } from '../src/colony/unified/instance-evidence.js';
import { timeSummaryCalls } from './summary-calls.js';
const name = process.argv[2] ?? 'cart-view-regression';
const end = nowNs();
let t = performance.now();
const store = await ColonyStore.open({ path: ':memory:', memoryLimit: '4GB', compact: true });
console.log('open', Math.round(performance.now() - t));
t = performance.now();
await loadScenario(store, name, { endAtNs: end, newestFirst: true });
console.log('load', Math.round(performance.now() - t));
const ctx = createToolContext(store, () => end);
for (let i = 0; i < 3; i++) {
  t = performance.now();
  await runTool(summaryTool, ctx, { time_range: '30m' });
  console.log('summary', Math.round(performance.now() - t));
}
const W = 30n * 60_000_000_000n;
const range = { fromNs: end - W, toNs: end };
const prev = { fromNs: end - 2n * W, toNs: end - W };
const hs = await store.serviceHealth(range);
const served = hs.filter((h) => h.requests > 0).map((h) => h.serviceName);
for (let i = 0; i < 2; i++) {
  t = performance.now();
  await Promise.all(served.map((service) => store.breakdownRows({ service, range, baseline: prev, keys: SUMMARY_INSTANCE_KEYS })));
  console.log('breakdownRows x', served.length, Math.round(performance.now() - t));
}
for (const c of await timeSummaryCalls(store, end, 3)) console.log(c.call, Math.round(c.p50));
for (const [n, fn] of [['operationSpanP95 x2', () => Promise.all([store.operationSpanP95(range), store.operationSpanP95(prev)])], ['messagingDelays x2', () => Promise.all([store.messagingDelays(range), store.messagingDelays(prev)])], ['nodeCpu x2', () => Promise.all([store.nodeCpu(range), store.nodeCpu(prev)])]] as const) {
  t = performance.now(); await fn(); t = performance.now(); await fn();
  console.log(n, Math.round(performance.now() - t));
}
await store.close();
