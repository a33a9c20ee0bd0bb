import { afterEach, describe, expect, it } from 'vitest';
import { BINDINGS, hintsFor, resolveKey } from '../../components/keys/registry.js';
import { initialState, reducer } from '../../components/state/reducer.js';
import type { ConsoleState, TraceJson } from '../../components/state/types.js';
import { timingBar, visibleRows, windowStart } from '../../components/trace/rows.js';
import { SMALL, mount as mountApp, node, tick, trace } from './fixtures.js';

let cleanup: (() => void) | null = null;
afterEach(() => cleanup?.());

function mount(t?: TraceJson) {
  const m = mountApp({ traces: t ? [t] : undefined });
  cleanup = m.app.unmount;
  return m;
}

/** A 10,000-span trace: a root with 100 children of 99 children each. */
function bigTrace(): TraceJson {
  let n = 0;
  const kids = Array.from({ length: 100 }, (_, i) => node(`c${i}`, `svc-${i % 7}`, `op ${i}`, i % 2 ? 'ebpf' : 'otlp', i, 50, Array.from({ length: 98 }, (_, j) => node(`c${i}-${j}`, 'leaf', `leaf ${n++}`, 'otlp', i, 1))));
  return trace([node('root', 'frontend', 'GET /big', 'otlp', 0, 100, kids)], 1 + 100 * 99);
}

describe('trace tree (pure parts)', () => {
  it('folds, windows and draws timing bars on a shared ruler', () => {
    expect(visibleRows(SMALL.roots, {}).map((r) => `${r.prefix} ${r.node.name}`)).toEqual(['└─ GET /', '   ├─ PlaceOrder', '   │  └─ Charge', '   └─ Convert']);
    expect(visibleRows(SMALL.roots, { a: true }).map((r) => r.node.name)).toEqual(['GET /', 'PlaceOrder', 'Convert']);
    expect(windowStart(100, 50, 10, 0)).toBe(41);
    expect(windowStart(100, 45, 10, 41)).toBe(41);
    expect(windowStart(5, 4, 10)).toBe(0);
    expect(timingBar(50, 25, 100, 8)).toBe('    ██  ');
  });
});

describe('the console (ink-testing-library)', () => {
  it('shows the tree with [eBPF] and [OTLP] tags, error and slow markers, and folds with Enter', async () => {
    const { app, keys } = mount(SMALL);
    await keys();
    let frame = app.lastFrame() ?? '';
    expect(frame).toMatch(/frontend: GET \/ +\[OTLP\]/);
    expect(frame).toMatch(/payment: Charge +\[eBPF\] ✗/);
    expect(frame).toContain('✗');
    expect(frame).toContain('← SLOW');
    app.stdin.write('\t');
    await tick();
    app.stdin.write('\t');
    await tick();
    app.stdin.write('j');
    await tick();
    app.stdin.write('\r');
    await tick();
    frame = app.lastFrame() ?? '';
    expect(frame).toContain('▸');
    expect(frame).not.toContain('payment: Charge');
    app.stdin.write(']');
    await tick();
    expect(app.lastFrame()).toContain('payment: Charge');
  });

  it('jumps to the next slow or error span with n, and opens span details with d', async () => {
    const { app } = mount(SMALL);
    await tick();
    for (const k of ['\t', '\t', 'n', 'd']) {
      app.stdin.write(k);
      await tick();
    }
    const frame = app.lastFrame() ?? '';
    expect(frame).toContain('span a1');
    expect(frame).toContain('ERROR Invalid token');
    expect(frame).toContain('http.route = "/x"');
  });

  it('draws only the rows that fit, even for a 10,000-span trace, and pages through it', async () => {
    const { app } = mount(bigTrace());
    await tick(100);
    let frame = app.lastFrame() ?? '';
    expect(frame).toContain('9901 spans');
    expect(frame).toMatch(/rows 1-\d+ of 9901/);
    expect(frame.split('\n').length).toBeLessThanOrEqual(40);
    for (const k of ['\t', '\t', 'G']) {
      app.stdin.write(k);
      await tick(60);
    }
    frame = app.lastFrame() ?? '';
    expect(frame).toMatch(/rows \d+-9901 of 9901/);
    expect(frame).toContain('leaf 9799');
  });

  it('shows tool calls with their states and expands one', async () => {
    const { app, engine } = mount();
    engine.emit({ type: 'agent', event: { type: 'tool_call_started', id: '1', server: 'colony', tool: 'coral_query_summary', args: {} } });
    engine.emit({ type: 'agent', event: { type: 'tool_call_started', id: '2', server: 'colony', tool: 'coral_query_metrics', args: { service: 'payment' } } });
    engine.emit({ type: 'agent', event: { type: 'tool_call_finished', id: '1', tool: 'coral_query_summary', ok: true, durationMs: 42, text: 'Stand out: payment' } });
    engine.emit({ type: 'agent', event: { type: 'tool_call_started', id: '3', server: 'colony', tool: 'coral_query_traces', args: {} } });
    engine.emit({ type: 'agent', event: { type: 'tool_call_finished', id: '3', tool: 'coral_query_traces', ok: false, durationMs: 7, text: 'coral_query_traces failed: timeout' } });
    await tick();
    let frame = app.lastFrame() ?? '';
    expect(frame).toMatch(/✓ query_summary .*42ms/);
    expect(frame).toMatch(/⋯ query_metrics service=payment/);
    expect(frame).toMatch(/✗ query_traces .*7ms/);
    app.stdin.write('\t');
    await tick();
    app.stdin.write('k');
    await tick();
    app.stdin.write('k');
    await tick();
    app.stdin.write('\r');
    await tick();
    frame = app.lastFrame() ?? '';
    expect(frame).toContain('Stand out: payment');
  });

  it('streams the answer, sends questions, and cancels the running turn with Ctrl-C', async () => {
    const { app, engine } = mount();
    await tick();
    app.stdin.write('why is checkout slow?');
    await tick();
    app.stdin.write('\r');
    await tick();
    expect(engine.asked).toEqual(['why is checkout slow?']);
    engine.emit({ type: 'agent', event: { type: 'user_message', text: 'why is checkout slow?' } });
    engine.emit({ type: 'agent', event: { type: 'text_delta', text: 'Finding: payment ' } });
    await tick();
    expect(app.lastFrame()).toContain('Finding: payment');
    app.stdin.write('\u0003');
    await tick();
    expect(engine.cancelled).toBe(1);
    engine.emit({ type: 'agent', event: { type: 'turn_end', reason: 'cancelled', model: 'm' } });
    await tick();
    expect(app.lastFrame()).toContain('Cancelled');
  });

  it('builds the help overlay from the registry', async () => {
    const m = mountApp({ rows: 60 });
    cleanup = m.app.unmount;
    const { app } = m;
    await tick();
    app.stdin.write('\u001b');
    await tick();
    app.stdin.write('\t');
    await tick();
    app.stdin.write('?');
    await tick();
    const frame = app.lastFrame() ?? '';
    for (const b of BINDINGS.filter((x) => x.scope === 'traces')) expect(frame).toContain(b.description);
    // The commands are further down: the help scrolls.
    app.stdin.write('G');
    await tick();
    expect(app.lastFrame()).toContain(':traces [service] [--min 500ms]');
  });
});

describe('key registry', () => {
  const state = (patch: Partial<ConsoleState>): ConsoleState => ({ ...initialState({ cols: 100, rows: 30, colony: 'c', source: 's', model: 'm' }), ...patch });
  it('gives typing keys to the chat input and the focused pane\'s keys first', () => {
    expect(resolveKey(state({ focus: 'chat' }), 'q')).toBeUndefined();
    expect(resolveKey(state({ focus: 'tools' }), 'q')?.id).toBe('quit');
    expect(resolveKey(state({ focus: 'detail', tab: 'traces' }), 'return')?.id).toBe('trace.fold');
    expect(resolveKey(state({ focus: 'chat' }), 'tab')?.id).toBe('focus.next');
    expect(hintsFor(state({ focus: 'detail', tab: 'traces' }))[0].description).toBe('move');
  });

  it('moves the trace cursor through the reducer within bounds', () => {
    let s = state({ focus: 'detail' });
    s = reducer(s, { type: 'agent', event: { type: 'tool_call_finished', id: 'x', tool: 'coral_query_traces', ok: true, durationMs: 1, text: '', structured: { traces: [SMALL] } } });
    s = reducer(s, { type: 'trace_move', delta: 10 });
    expect(s.trace.cursor).toBe(3);
    s = reducer(s, { type: 'trace_next_flagged', delta: -1 });
    expect(s.trace.cursor).toBe(2);
  });
});
