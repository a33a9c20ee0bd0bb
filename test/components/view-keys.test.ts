import { describe, expect, it } from 'vitest';
import { dispatcher, routeInput } from '../../components/keys/router.js';
import { routeMouse } from '../../components/keys/mouse-route.js';
import { metricRows, operationFilter } from '../../components/panes/metric-rows.js';
import { reducer } from '../../components/state/reducer.js';
import type { ConsoleAction, ConsoleState, SummaryJson } from '../../components/state/types.js';
import { type MouseEvent, splitMouse } from '../../components/screen/mouse.js';
import { finished, fresh, press, pressAll, recorder, span, traceOf } from './key-press.js';

const row = (route: string, p95Ms: number, errorRate: number, requests: number, source = 'otlp') => ({
  source, protocol: 'http', httpRoute: route, httpMethod: 'GET', rpcService: null, rpcMethod: null, dbOperation: null, dbTable: null, requests, errorRate, p50Ms: 1, p95Ms, p99Ms: p95Ms, percentilesAtLeast: false,
});
const METRICS = { service: 'cart', timeRange: '1h', sections: [{ rows: [row('/b', 10, 0.5, 5), row('/a', 30, 0, 50)] }, { rows: [row('/c', 20, 0.1, 500)] }], analysis: '', notes: [] };
const onMetrics = () => finished('coral_query_metrics', METRICS, { service: 'cart' }).reduce(reducer, fresh({ focus: 'detail', tab: 'metrics' }));
const routeAt = (s: ConsoleState) => metricRows(s.metrics, s.metricsView.sort)[s.metricsView.cursor].httpRoute;

describe('the Metrics tab keys', () => {
  it('j/k/↓/↑ move within the rows, g/G go to the ends, PgDn/PgUp page', () => {
    const s = onMetrics();
    expect([routeAt(s), routeAt(press(s, 'j')), routeAt(pressAll(s, ['j', 'j', 'j'])), routeAt(pressAll(s, ['down', 'up']))]).toEqual(['/a', '/c', '/b', '/a']);
    expect([routeAt(press(s, 'G')), routeAt(pressAll(s, ['G', 'g'])), routeAt(press(s, 'pagedown')), routeAt(pressAll(s, ['pagedown', 'pageup']))]).toEqual(['/b', '/a', '/b', '/a']);
  });

  it('s cycles the order: slowest P95, highest error rate, most requests, name', () => {
    const orders = [0, 1, 2, 3, 4].map((n) => metricRows(onMetrics().metrics, pressAll(onMetrics(), Array(n).fill('s')).metricsView.sort).map((r) => r.httpRoute));
    expect(orders).toEqual([['/a', '/c', '/b'], ['/b', '/c', '/a'], ['/c', '/a', '/b'], ['/a', '/b', '/c'], ['/a', '/c', '/b']]);
    // A new order starts at its first row.
    expect(pressAll(onMetrics(), ['j', 's']).metricsView.cursor).toBe(0);
  });

  it("Enter asks for the service's traces; the list that comes back is shown filtered to the row's operation", () => {
    const actions = recorder();
    const s = press(press(onMetrics(), 'j'), 'return', actions);
    expect(actions.calls).toEqual(['traces of cart']);
    const traces = [traceOf([span('r', [], { attributes: { 'http.route': '/c' } })]), traceOf([span('x')], { traceId: 'ab'.repeat(16) })];
    const shown = finished('coral_query_traces', { traces, matchedTraces: 2 }, { service: 'cart', max_traces: 50 }, 'u').reduce(reducer, s);
    expect([shown.tab, shown.trace.open, shown.trace.filter]).toEqual(['traces', null, '/c']);
  });

  it('the filter word of a row: its route, gRPC method or table', () => {
    expect(operationFilter({ ...row('/api/cart', 1, 0, 1) })).toBe('/api/cart');
    expect(operationFilter({ ...row('', 1, 0, 1), protocol: 'grpc', rpcMethod: 'GetCart' })).toBe('GetCart');
    expect(operationFilter({ ...row('', 1, 0, 1), protocol: 'sql', dbOperation: 'SELECT', dbTable: 'orders' })).toBe('orders');
  });
});

const change = (service: string) => ({ service, sources: ['otlp'], status: 'healthy', ratePerSec: 1, prevRatePerSec: 1, requests: 1, errors: 0, prevRequests: 1, prevErrors: 0, errorRate: 0, prevErrorRate: 0 });
const SUMMARY = { from: '', to: '', previousFrom: '', standOut: [change('payment')], services: [change('payment'), change('ad'), change('cart'), change('checkout')], events: [], lookFirst: '' } as unknown as SummaryJson;
const onSummary = () => finished('coral_query_summary', SUMMARY as unknown as Record<string, unknown>).reduce(reducer, fresh({ focus: 'detail', tab: 'summary' }));

/** Keys typed through the router, as the terminal sends them. */
function type(s: ConsoleState, keys: string[], actions = recorder()): ConsoleState {
  const ref = { current: s };
  const route = dispatcher(ref, () => undefined);
  for (const k of keys) {
    if (k === 'ctrl+y') routeInput(() => ref.current, 'y', { ctrl: true }, { dispatch: route, actions });
    else routeInput(() => ref.current, k, k === '\r' ? { return: true } : k === '\x1b' ? { escape: true } : {}, { dispatch: route, actions });
  }
  return ref.current;
}

describe('the Summary tab keys', () => {
  it('g/G go to the first and last service, PgDn/PgUp page', () => {
    expect([press(onSummary(), 'G').summary.cursor, pressAll(onSummary(), ['G', 'g']).summary.cursor, press(onSummary(), 'pagedown').summary.cursor]).toEqual([3, 0, 3]);
  });

  it('/ finds a service as its name is typed; Enter keeps the cursor there, Esc clears the search', () => {
    const s = type(onSummary(), ['/', 'c', 'h']);
    expect([s.summary.cursor, s.summary.searching]).toEqual([3, true]);
    expect(type(s, ['\r']).summary.cursor).toBe(3);
    const cleared = type(type(s, ['\r']), ['\x1b']);
    expect([cleared.summary.search, cleared.summary.cursor, cleared.focus]).toEqual(['', 3, 'detail']);
    // While typing, j is a letter of the name, not a move.
    expect(type(onSummary(), ['/', 'j']).summary.search).toBe('j');
  });
});

describe('copying with y', () => {
  const called = () => [
    { type: 'agent', event: { type: 'tool_call_started', id: 'a', server: 'colony', tool: 'coral_query_traces', args: {} }, seq: 1 },
    { type: 'agent', event: { type: 'tool_call_finished', id: 'a', tool: 'coral_query_traces', ok: true, durationMs: 1, text: 'the whole result' } },
    { type: 'agent', event: { type: 'message_end', text: 'payment fails since the deploy' } },
  ] as ConsoleAction[];

  it("y in the tool calls copies the call's result and says so", () => {
    const actions = recorder();
    const s = press(called().reduce(reducer, fresh({ focus: 'tools' })), 'y', actions);
    expect(actions.calls).toEqual(['copy the whole result']);
    expect(s.status.message).toBe('Copied the result of [1] coral_query_traces (16 characters)');
  });

  it('Ctrl-Y in the chat copies the last answer, and types nothing', () => {
    const actions = recorder();
    const s = type(called().reduce(reducer, fresh()), ['ctrl+y'], actions);
    expect([actions.calls, s.draft]).toEqual([['copy payment fails since the deploy'], '']);
    expect(s.status.message).toMatch(/^Copied the last answer/);
  });

  it('y with nothing to copy says so', () => {
    const actions = recorder();
    expect(press(fresh({ focus: 'tools' }), 'y', actions).status.message).toBe('Nothing to copy: no tool call yet');
    expect(actions.calls).toEqual([]);
  });
});

describe('the mouse', () => {
  it('reports are taken out of the input, a cut-off one kept for the next read; a lone Esc stays a key', () => {
    expect(splitMouse('', 'a\x1b[<64;10;5Mb\x1b[<0;3;4M\x1b[<0;3;4m')).toEqual({ text: 'ab', events: [{ kind: 'wheel-up', x: 9, y: 4 }, { kind: 'click', x: 2, y: 3 }], carry: '' });
    const cut = splitMouse('', 'j\x1b[<65;1');
    expect(cut).toEqual({ text: 'j', events: [], carry: '\x1b[<65;1' });
    expect(splitMouse(cut.carry, ';2M')).toEqual({ text: '', events: [{ kind: 'wheel-down', x: 0, y: 1 }], carry: '' });
    expect(splitMouse('', '\x1b')).toEqual({ text: '\x1b', events: [], carry: '' });
    // Motion and other buttons are dropped.
    expect(splitMouse('', '\x1b[<35;1;1M\x1b[<2;1;1M').events).toEqual([]);
  });

  const mouse = (s: ConsoleState, e: MouseEvent) => {
    const ref = { current: s };
    routeMouse(s, e, { dispatch: dispatcher(ref, () => undefined), actions: recorder() });
    return ref.current;
  };
  const list = () => press(finished('coral_query_traces', { traces: [0, 1, 2, 3, 4, 5].map((i) => traceOf([span(`s${i}`)], { traceId: String(i).repeat(32) })) }).reduce(reducer, fresh({ focus: 'detail' })), 'escape');

  it('a click focuses the pane under it (120x40: the chat top left, the tool calls below it, the view on the right)', () => {
    expect([mouse(fresh(), { kind: 'click', x: 100, y: 5 }).focus, mouse(fresh({ focus: 'detail' }), { kind: 'click', x: 5, y: 37 }).focus, mouse(fresh({ focus: 'detail' }), { kind: 'click', x: 5, y: 2 }).focus]).toEqual(['detail', 'tools', 'chat']);
    // The status bar is no pane.
    expect(mouse(fresh(), { kind: 'click', x: 100, y: 39 }).focus).toBe('chat');
  });

  it('the wheel moves the pane under the pointer three rows, focused or not; over the chat it scrolls the chat', () => {
    const s = { ...list(), focus: 'chat' as const };
    const down = mouse(s, { kind: 'wheel-down', x: 100, y: 10 });
    expect([down.trace.listCursor, down.focus]).toEqual([3, 'chat']);
    expect(mouse(down, { kind: 'wheel-up', x: 100, y: 10 }).trace.listCursor).toBe(0);
    expect(mouse(s, { kind: 'wheel-up', x: 5, y: 5 }).scroll.chat).toBe(3);
  });
});
