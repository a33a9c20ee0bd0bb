/**
 * Porcelain tools: latency on the largest demo scenario and on a 1,000,000-span colony
 * (targets P50 <= 50 ms and <= 150 ms), and token economy: for five investigation questions, the
 * tokens of the porcelain answers against the tokens of the plumbing calls that give the same facts
 * (target <= 50%). Tokens are estimated as characters / 4.
 */
import { ColonyStore } from '../src/colony/store/store.js';
import { loadScenario } from '../src/demo/load.js';
import { listScenarios } from '../src/demo/files.js';
import { toolByName } from '../src/colony/tools/index.js';
import { runTool } from '../src/colony/tools/run.js';
import { CHARS_PER_TOKEN, type ToolContext, createToolContext } from '../src/colony/tools/types.js';
import { nowNs } from '../src/core/time.js';
import { END, populate, porcelainCases } from './synthetic.js';
import { report, timeRuns } from './report.js';

const RUNS = 15;

async function call(ctx: ToolContext, tool: string, args: Record<string, unknown>): Promise<string> {
  const def = toolByName(tool);
  if (!def) throw new Error(tool);
  return (await runTool(def, ctx, args)).text;
}

async function latency(label: string, ctx: ToolContext, service: string, targetMs: number, spans: number): Promise<void> {
  for (const [tool, args] of porcelainCases(service)) {
    const ms = (await timeRuns(() => call(ctx, tool, args), RUNS)).p50;
    report({ bench: `porcelain_latency_${label}`, tool, args, spans, p50_ms: Number(ms.toFixed(1)), target_ms: targetMs, meets_target: ms <= targetMs });
  }
}

// 1. The largest demo scenario.
const largest = listScenarios().sort((a, b) => b.counts.spans - a.counts.spans)[0];
const demo = await ColonyStore.open({ path: ':memory:', threads: 2, memoryLimit: '4GB' });
await loadScenario(demo, largest.name);
await latency('demo', createToolContext(demo, nowNs), 'checkout', 50, largest.counts.spans);

// 2. Token economy on the demo scenarios: the same facts, porcelain vs plumbing.
const questions: { scenario: string; question: string; porcelain: [string, Record<string, unknown>][]; plumbing: [string, Record<string, unknown>][] }[] = [
  {
    scenario: 'payment-failure', question: 'Where should I look first?',
    porcelain: [['coral_query_summary', {}]],
    plumbing: [['coral_get_service_health', { time_range: '30m' }], ['coral_get_service_health', { time_range: '1h' }], ['coral_get_service_topology', { time_range: '30m' }], ['coral_query_events', { time_range: '1h' }]],
  },
  {
    scenario: 'payment-failure', question: 'What are payment\'s rate, errors and latency, by both sources?',
    porcelain: [['coral_query_metrics', { service: 'payment' }]],
    plumbing: [['coral_query_ebpf_grpc_metrics', { service: 'payment' }], ['coral_query_telemetry_spans', { service: 'payment', max_traces: 50 }]],
  },
  {
    scenario: 'recommendation-cache-failure', question: 'Why are product pages slow?',
    porcelain: [['coral_query_summary', {}]],
    plumbing: [['coral_get_service_health', { time_range: '30m' }], ['coral_get_service_health', { time_range: '1h' }], ['coral_query_telemetry_metrics', { service: 'recommendation' }], ['coral_query_events', { time_range: '1h' }]],
  },
  {
    scenario: 'kafka-queue-problems', question: 'Show me the slowest checkout requests.',
    porcelain: [['coral_query_traces', { service: 'checkout', min_duration_ms: 80, max_traces: 3 }]],
    plumbing: [['coral_query_ebpf_traces', { service: 'checkout', min_duration_ms: 80, max_traces: 3 }], ['coral_query_telemetry_spans', { service: 'checkout', min_duration_ms: 80, max_traces: 3 }]],
  },
  {
    scenario: 'product-catalog-failure', question: 'Which product-catalog operation fails?',
    porcelain: [['coral_query_metrics', { service: 'product-catalog' }]],
    plumbing: [['coral_query_ebpf_grpc_metrics', { service: 'product-catalog' }], ['coral_query_ebpf_sql_metrics', { service: 'product-catalog' }], ['coral_query_telemetry_spans', { service: 'product-catalog', max_traces: 50 }]],
  },
];
let porcelainTotal = 0;
let plumbingTotal = 0;
const loaded = new Map<string, ToolContext>([[largest.name, createToolContext(demo, nowNs)]]);
for (const q of questions) {
  let ctx = loaded.get(q.scenario);
  if (!ctx) {
    const store = await ColonyStore.open({ path: ':memory:', threads: 2, memoryLimit: '2GB' });
    await loadScenario(store, q.scenario);
    ctx = createToolContext(store, nowNs);
    loaded.set(q.scenario, ctx);
  }
  const tokens = async (calls: [string, Record<string, unknown>][]) => {
    let n = 0;
    for (const [tool, args] of calls) n += Math.ceil((await call(ctx, tool, args)).length / CHARS_PER_TOKEN);
    return n;
  };
  const porcelain = await tokens(q.porcelain);
  const plumbing = await tokens(q.plumbing);
  porcelainTotal += porcelain;
  plumbingTotal += plumbing;
  report({ bench: 'token_economy_question', scenario: q.scenario, question: q.question, porcelain_tokens: porcelain, plumbing_tokens: plumbing });
}
report({ bench: 'token_economy', porcelain_tokens: porcelainTotal, plumbing_tokens: plumbingTotal, ratio: Number((porcelainTotal / plumbingTotal).toFixed(2)), target_ratio: 0.5, meets_target: porcelainTotal <= 0.5 * plumbingTotal });
for (const c of loaded.values()) await c.store.close();

// 3. A colony of 1,000,000 spans.
const big = await ColonyStore.open({ path: ':memory:', threads: 2, memoryLimit: '8GB' });
await populate(big, Number(process.env.BENCH_PORCELAIN_SPANS ?? 1_000_000), 200_000);
await latency('1m_spans', createToolContext(big, () => END), 'svc-3', 150, (await big.counts()).spans);
await big.close();
