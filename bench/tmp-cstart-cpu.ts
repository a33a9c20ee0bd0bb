import { ColonyStore } from '../src/colony/store/store.js';
import { loadScenario } from '../src/demo/load.js';
import { createToolContext } from '../src/colony/tools/types.js';
import { summaryTool } from '../src/colony/tools/summary.js';
import { runTool } from '../src/colony/tools/run.js';
import { nowNs } from '../src/core/time.js';
const name = process.argv[2] ?? 'cart-view-regression';
const end = nowNs();
const cpu = async (label: string, fn: () => Promise<unknown>) => {
  const c = process.cpuUsage(); const t = performance.now();
  await fn();
  const d = process.cpuUsage(c);
  console.log(label, 'wall', Math.round(performance.now() - t), 'cpu', Math.round((d.user + d.system) / 1000));
};
const store = await ColonyStore.open({ path: ':memory:', memoryLimit: '4GB', compact: true });
await cpu('load', () => loadScenario(store, name, { endAtNs: end, newestFirst: true }));
const ctx = createToolContext(store, () => end);
for (const w of ['30m', '30m', '5m', '5m']) await cpu(`summary ${w}`, () => runTool(summaryTool, ctx, { time_range: w }));
await store.close();
