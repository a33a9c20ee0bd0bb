import { afterEach } from 'vitest';
import { render } from 'ink-testing-library';
import { App, type EngineLike } from '../../components/App.js';
import { initialState } from '../../components/state/reducer.js';
import type { TraceJson, TraceNodeJson } from '../../components/state/types.js';
import type { EngineEvent } from '../../src/console/engine.js';

/** Shared by the console's component tests: span trees, a fake engine, and a mounted App. */
export function node(id: string, service: string, name: string, source: 'ebpf' | 'otlp', offsetMs: number, durationMs: number, children: TraceNodeJson[] = [], extra: Partial<TraceNodeJson> = {}): TraceNodeJson {
  return { spanId: id, parentSpanId: '', service, name, kind: 'SERVER', source, offsetMs, durationMs, selfMs: durationMs, error: false, statusMessage: '', httpStatusCode: null, rpcStatusCode: null, slow: false, orphan: false, merged: null, attributes: { 'http.route': '/x' }, events: [], links: [], children, ...extra };
}

export function trace(roots: TraceNodeJson[], spanCount: number): TraceJson {
  return { traceId: 'ab'.repeat(16), start: '2025-12-02T10:30:00Z', startNs: '1764671400000000000', durationMs: 100, spanCount, mergedCount: 0, services: ['frontend', 'checkout'], depth: 3, incomplete: false, resources: {}, roots };
}

export const SMALL = trace([node('r', 'frontend', 'GET /', 'otlp', 0, 100, [
  node('a', 'checkout', 'PlaceOrder', 'otlp', 5, 60, [node('a1', 'payment', 'Charge', 'ebpf', 10, 40, [], { error: true, statusMessage: 'Invalid token' })]),
  node('b', 'currency', 'Convert', 'ebpf', 70, 5, [], { slow: true }),
])], 4);

export class FakeEngine implements EngineLike {
  listener: ((e: EngineEvent) => void) | null = null;
  /** Events emitted before the console subscribed (its effect runs after the first frame). */
  private early: EngineEvent[] = [];
  private onSubscribe: () => void = () => undefined;
  readonly subscribed = new Promise<void>((r) => (this.onSubscribe = r));
  asked: string[] = [];
  commands: string[] = [];
  opened: string[] = [];
  paused: boolean[] = [];
  cancelled = 0;
  closed = 0;
  subscribe(l: (e: EngineEvent) => void) {
    this.listener = l;
    for (const e of this.early.splice(0)) l(e);
    this.onSubscribe();
    return () => undefined;
  }
  emit(e: EngineEvent) {
    if (this.listener) this.listener(e);
    else this.early.push(e);
  }
  async ask(q: string) {
    this.asked.push(q);
  }
  cancel() {
    this.cancelled++;
  }
  runCommand(line: string) {
    this.commands.push(line);
  }
  openService(service: string) {
    this.opened.push(service);
  }
  setLivePaused(paused: boolean) {
    this.paused.push(paused);
  }
  completions(line: string) {
    return [':traces', ':metrics'].filter((c) => c.startsWith(line));
  }
  async close() {
    this.closed++;
  }
}

export const tick = (ms = 60) => new Promise((r) => setTimeout(r, ms));

export function mount(o: { cols?: number; rows?: number; traces?: TraceJson[] } = {}) {
  const engine = new FakeEngine();
  const copied: string[] = [];
  const copy = (text: string) => void copied.push(text);
  const initial = initialState({ cols: o.cols ?? 140, rows: o.rows ?? 40, colony: 'embedded', source: 'demo: payment-failure', model: 'replay:payment-failure (recorded)' });
  const app = render(<App initial={initial} engine={engine} copy={copy} />);
  // ink-testing-library's terminal is 100 columns; ink lays the root out at that width and cuts.
  Object.defineProperty(app.stdout, 'columns', { value: o.cols ?? 140 });
  Object.defineProperty(app.stdout, 'rows', { value: o.rows ?? 40 });
  app.rerender(<App initial={initial} engine={engine} copy={copy} />);
  if (o.traces) engine.emit({ type: 'agent', event: { type: 'tool_call_finished', id: 'x', tool: 'coral_query_traces', ok: true, durationMs: 5, text: '', structured: { traces: o.traces } } });
  /** Writes keys one at a time, as a person types them. */
  const keys = async (...ks: string[]) => {
    // The console subscribes in an effect; its first events render a turn of the loop later.
    await engine.subscribed;
    await new Promise((r) => setImmediate(r));
    for (const k of ks) {
      app.stdin.write(k);
      await tick(30);
    }
    await tick();
  };
  return { engine, app, keys, copied, frame: () => app.lastFrame() ?? '' };
}

export const KEY = { tab: '\t', shiftTab: '\u001b[Z', esc: '\u001b', enter: '\r', ctrlC: '\u0003', ctrlU: '\u0015', pageUp: '\u001b[5~', pageDown: '\u001b[6~', home: '\u001b[H', end: '\u001b[F', backspace: '\u007f' } as const;

/** A `mount` that unmounts what it mounted after each test of the file that calls it. */
export function mountPerTest(): (o?: Parameters<typeof mount>[0]) => ReturnType<typeof mount> {
  let cleanup: (() => void) | null = null;
  afterEach(() => cleanup?.());
  return (o = {}) => {
    const m = mount(o);
    cleanup = m.app.unmount;
    return m;
  };
}

