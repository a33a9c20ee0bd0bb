/**
 * Keypress to next frame on a 10,000- and a 100,000-span trace (target P95 <= 12 ms). Bundled and
 * run by console.bench.tsx with React's production build and colours on (a moved cursor changes
 * the frame). The frame is ink's whole frame, as the terminal screen receives it.
 */
import { loadavg } from 'node:os';
import { render } from 'ink-testing-library';
import { App, type EngineLike } from '../components/App.js';
import { initialState } from '../components/state/reducer.js';
import type { TraceJson, TraceNodeJson } from '../components/state/types.js';
import type { EngineEvent } from '../src/console/engine.js';
import { report } from './report.js';

const COLS = 160;
const ROWS = 50;
const TARGET_P95_MS = 12;

function node(id: string, service: string, name: string, offsetMs: number, durationMs: number, children: TraceNodeJson[] = []): TraceNodeJson {
  return { spanId: id, parentSpanId: '', service, name, kind: 'SERVER', source: id.length % 2 ? 'ebpf' : 'otlp', offsetMs, durationMs, selfMs: 1, error: false, statusMessage: '', httpStatusCode: null, rpcStatusCode: null, slow: id.endsWith('7'), orphan: false, merged: null, attributes: {}, events: [], links: [], children };
}

/** A root with `fan` children of `fan - 1` children each: fan² spans. */
function bigTrace(fan: number): TraceJson {
  const kids = Array.from({ length: fan }, (_, i) => node(`c${i}`, `svc-${i % 7}`, `op ${i}`, i, 50, Array.from({ length: fan - 1 }, (_, j) => node(`c${i}-${j}`, 'leaf', `leaf ${j}`, i, 1))));
  return { traceId: 'ab'.repeat(16), start: '', startNs: '0', durationMs: 200, spanCount: fan * fan + 1, mergedCount: 0, services: [], depth: 3, incomplete: false, resources: {}, roots: [node('root', 'frontend', 'GET /big', 0, 200, kids)] };
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function keypressLatency(fan: number): Promise<void> {
  const trace = bigTrace(fan);
  let listener: (e: EngineEvent) => void = () => undefined;
  const engine: EngineLike = { subscribe: (l) => ((listener = l), () => undefined), ask: async () => undefined, cancel: () => undefined, runCommand: () => undefined, completions: () => [], close: async () => undefined };
  const initial = initialState({ cols: COLS, rows: ROWS, colony: 'c', source: 's', model: 'm' });
  const app = render(<App initial={initial} engine={engine} />);
  // ink-testing-library's terminal is 100 columns: the frame is laid out at the console's width.
  Object.defineProperty(app.stdout, 'columns', { value: COLS });
  Object.defineProperty(app.stdout, 'rows', { value: ROWS });
  app.rerender(<App initial={initial} engine={engine} />);
  await tick(50);
  listener({ type: 'agent', event: { type: 'tool_call_finished', id: 'x', tool: 'coral_query_traces', ok: true, durationMs: 1, text: '', structured: { traces: [trace] } } });
  await tick(300);
  // Esc leaves the chat input for the trace view.
  app.stdin.write('\u001b');
  await tick(100);
  // Each key changes the frame: a cycle of 50 keys jumps to the top, folds and unfolds the first
  // parent span, moves down, and jumps to the bottom. One cycle warms up (JIT, caches) unmeasured.
  const cycle = (i: number) => (i % 50 === 0 ? 'g' : i % 50 === 1 ? 'j' : i % 50 === 2 || i % 50 === 3 ? '\r' : i % 50 === 49 ? 'G' : 'j');
  const samples: number[] = [];
  const cpu: number[] = [];
  let noFrame = 0;
  for (let i = -50; i < 300; i++) {
    const before = app.lastFrame();
    const t = performance.now();
    const c = process.cpuUsage();
    app.stdin.write(cycle(i));
    while (app.lastFrame() === before && performance.now() - t < 1000) await new Promise((r) => setImmediate(r));
    if (i < 0) continue;
    if (app.lastFrame() === before) noFrame++;
    samples.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
  }
  app.unmount();
  const pct = (xs: number[], p: number) => Number([...xs].sort((a, b) => a - b)[Math.floor(xs.length * p)].toFixed(2));
  const p95 = pct(samples, 0.95);
  // On a shared machine wall time includes waiting for a core; CPU time is what the frame costs.
  report({ bench: 'console_keypress_to_frame', spans: trace.spanCount, keys: samples.length, keys_without_frame: noFrame, p50_ms: pct(samples, 0.5), p95_ms: p95, cpu_p50_ms: pct(cpu, 0.5), cpu_p95_ms: pct(cpu, 0.95), target_p95_ms: TARGET_P95_MS, meets_target: p95 <= TARGET_P95_MS && noFrame === 0, load: loadavg().map((l) => Number(l.toFixed(2))) });
}

await keypressLatency(100);
await keypressLatency(316);
