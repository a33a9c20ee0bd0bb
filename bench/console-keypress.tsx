/**
 * Keypress to next frame on a 10,000-span trace (target P95 <= 16 ms). Bundled and run by
 * console.bench.tsx with React's production build and colours on (a moved cursor changes the frame).
 */
import { render } from 'ink-testing-library';
import { App, type EngineLike } from '../components/App.js';
import { initialState } from '../components/state/reducer.js';
import type { TraceJson, TraceNodeJson } from '../components/state/types.js';
import type { EngineEvent } from '../src/console/engine.js';
import { report } from './report.js';

function node(id: string, service: string, name: string, offsetMs: number, durationMs: number, children: TraceNodeJson[] = []): TraceNodeJson {
  return { spanId: id, parentSpanId: '', service, name, kind: 'SERVER', source: id.length % 2 ? 'ebpf' : 'otlp', offsetMs, durationMs, selfMs: 1, error: false, statusMessage: '', httpStatusCode: null, rpcStatusCode: null, slow: false, orphan: false, merged: null, attributes: {}, events: [], children };
}

async function keypressLatency(): Promise<void> {
  const kids = Array.from({ length: 100 }, (_, i) => node(`c${i}`, `svc-${i % 7}`, `op ${i}`, i, 50, Array.from({ length: 99 }, (_, j) => node(`c${i}-${j}`, 'leaf', `leaf ${j}`, i, 1))));
  const trace: TraceJson = { traceId: 'ab'.repeat(16), start: '', startNs: '0', durationMs: 200, spanCount: 10_001, mergedCount: 0, services: [], depth: 3, incomplete: false, resources: {}, roots: [node('root', 'frontend', 'GET /big', 0, 200, kids)] };
  let listener: (e: EngineEvent) => void = () => undefined;
  const engine: EngineLike = { subscribe: (l) => ((listener = l), () => undefined), ask: async () => undefined, cancel: () => undefined, runCommand: () => undefined, completions: () => [], close: async () => undefined };
  const app = render(<App initial={initialState({ cols: 160, rows: 50, colony: 'c', source: 's', model: 'm' })} engine={engine} />);
  listener({ type: 'agent', event: { type: 'tool_call_finished', id: 'x', tool: 'coral_query_traces', ok: true, durationMs: 1, text: '', structured: { traces: [trace] } } });
  await new Promise((r) => setTimeout(r, 200));
  for (const k of ['\t', '\t']) {
    app.stdin.write(k);
    await new Promise((r) => setTimeout(r, 50));
  }
  const samples: number[] = [];
  for (let i = 0; i < 300; i++) {
    const before = app.lastFrame();
    const t = performance.now();
    app.stdin.write(i % 50 === 49 ? 'G' : i % 50 === 0 ? 'g' : 'j');
    while (app.lastFrame() === before && performance.now() - t < 1000) await new Promise((r) => setImmediate(r));
    samples.push(performance.now() - t);
  }
  app.unmount();
  samples.sort((a, b) => a - b);
  const p95 = samples[Math.floor(samples.length * 0.95)];
  report({ bench: 'console_keypress_to_frame', spans: 10_001, keys: samples.length, p50_ms: Number(samples[Math.floor(samples.length / 2)].toFixed(2)), p95_ms: Number(p95.toFixed(2)), target_p95_ms: 16, meets_target: p95 <= 16 });
}


await keypressLatency();
