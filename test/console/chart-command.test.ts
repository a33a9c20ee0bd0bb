import { describe, expect, it } from 'vitest';
import { CommandError, complete, parseCommand } from '../../src/console/commands.js';
import { type LiveView, LivePoller, liveViewOf } from '../../src/console/live.js';
import { initialState, reducer } from '../../components/state/reducer.js';
import type { ConsoleAction, ConsoleState } from '../../components/state/types.js';
import { type ConsoleActions, resolveKey } from '../../components/keys/registry.js';

const TS = 'coral_query_timeseries';
const started = (id: string, args: Record<string, unknown>): ConsoleAction => ({ type: 'agent', event: { type: 'tool_call_started', id, server: 'colony', tool: TS, args } });
const finished = (id: string, ok: boolean, structured?: Record<string, unknown>, text = 'ok'): ConsoleAction => ({ type: 'agent', event: { type: 'tool_call_finished', id, tool: TS, ok, durationMs: 1, text, structured } });
const result = (signal: string, last: number) => ({ signal, series: [{ label: 'payment', samples: 1, points: [last], min: last, max: last, last }], times: ['2026-12-07T13:00:00.000Z'], onset: null, step: { text: '1m', ms: 60000, count: 1 }, shape: 'count', unit: '{error}' });

describe(':chart', () => {
  it('parses into one coral_query_timeseries call per signal, errors and p95 by default', () => {
    expect(parseCommand(':chart payment')).toEqual({ kind: 'chart', service: 'payment', calls: [
      { key: 'errors', args: { service: 'payment', signal: 'errors' } },
      { key: 'p95', args: { service: 'payment', signal: 'p95' } },
    ] });
    expect(parseCommand(':chart ad requests metric:process.memory.usage --since 30m --step 30s')).toEqual({ kind: 'chart', service: 'ad', calls: [
      { key: 'requests', args: { service: 'ad', signal: 'requests', time_range: '30m', step: '30s' } },
      { key: 'metric:process.memory.usage', args: { service: 'ad', signal: 'metric', metric: 'process.memory.usage', time_range: '30m', step: '30s' } },
    ] });
  });

  it('refuses what it cannot draw and says what it takes', () => {
    expect(() => parseCommand(':chart')).toThrow(/usage: :chart <service>/);
    expect(() => parseCommand(':chart payment p42')).toThrow(CommandError);
    expect(() => parseCommand(':chart payment p42')).toThrow(/signals: requests, errors, error_rate, p50, p95, p99, metric:<name>/);
    expect(() => parseCommand(':chart payment latency_heatmap')).toThrow(/not drawn as a line chart/);
  });

  it('completes service names like :breakdown, then signals', () => {
    const words = { scenarios: [], services: ['payment', 'checkout'] };
    expect(complete(':ch', words)).toEqual([':chart']);
    expect(complete(':chart pa', words)).toEqual([':chart payment']);
    expect(complete(':breakdown pa', words)).toEqual([':breakdown payment']);
    expect(complete(':chart payment p9', words)).toEqual([':chart payment p95', ':chart payment p99']);
    expect(complete(':chart payment errors me', words)).toEqual([':chart payment errors metric:']);
  });

  it('opens the Chart tab, fills each signal in its place, keeps a failure beside the others, and takes a refresh in place', () => {
    let s = initialState({ cols: 120, rows: 40, colony: 'c', source: 's', model: 'm' });
    s = reducer(s, { type: 'chart_open', service: 'payment', signals: ['errors', 'p95'] });
    expect([s.tab, s.chart?.signals]).toEqual(['chart', ['errors', 'p95']]);
    s = reducer(s, started('a', { service: 'payment', signal: 'errors' }));
    s = reducer(s, started('b', { service: 'payment', signal: 'p95' }));
    s = reducer(s, finished('b', false, undefined, 'coral_query_timeseries failed: boom'));
    s = reducer(s, finished('a', true, result('errors', 3)));
    expect(Object.keys(s.chart?.results ?? {})).toEqual(['errors']);
    expect(s.chart?.errors.p95).toMatch(/boom/);
    s = reducer({ ...s, tab: 'traces' }, { type: 'refresh', tool: TS, args: { service: 'payment', signal: 'errors' }, structured: result('errors', 9) });
    expect([s.tab, s.chart?.results.errors.series[0].last]).toEqual(['traces', 9]);
    // A refresh of a signal the chart does not show changes nothing.
    const same = reducer(s, { type: 'refresh', tool: TS, args: { service: 'cart', signal: 'errors' }, structured: result('errors', 1) });
    expect(same).toBe(s);
    // A call the model made for another service opens a chart of its own.
    s = reducer(s, started('c', { service: 'cart', signal: 'requests' }));
    s = reducer(s, finished('c', true, result('requests', 5)));
    expect([s.tab, s.chart?.service, s.chart?.signals]).toEqual(['chart', 'cart', ['requests']]);
    // A latency heatmap is not a line: it stays in the tool calls, the chart as it was.
    const before = s;
    s = reducer(s, started('d', { service: 'cart', signal: 'latency_heatmap' }));
    s = reducer(s, finished('d', true, result('latency_heatmap', 5)));
    expect([s.chart, s.tab]).toEqual([before.chart, 'chart']);
    expect(reducer(s, { type: 'clear_session' }).chart).toBeNull();
  });

  it('is followed by the live refresh, one view per signal, asked again once a step has passed; a new chart drops the old one\'s signals', async () => {
    expect(liveViewOf(TS, { signal: 'metric', metric: 'x' })).toBe('chart:metric:x');
    const asked: string[] = [];
    let now = 0;
    const poller = new LivePoller({ intervalMs: 1e9, now: () => now, onChange: () => undefined, call: async (_id, tool, args) => {
      asked.push(`${tool} ${String(args.signal)}`);
      return { ok: true, text: '', structured: result(String(args.signal), Math.random()) } as never;
    } });
    const view = (signal: string) => liveViewOf(TS, { service: 'payment', signal }) as LiveView;
    poller.followCharts([view('errors'), view('p95')]);
    poller.note(TS, { service: 'payment', signal: 'errors' }, result('errors', 1));
    poller.note(TS, { service: 'payment', signal: 'p95' }, result('p95', 1));
    // A model's time series is not a chart the user opened: not followed.
    poller.note(TS, { service: 'payment', signal: 'requests' }, result('requests', 1));
    // Within the 1-minute step the points cannot have moved: nothing is asked.
    now = 59_999;
    expect(await poller.tick()).toBe(0);
    expect(asked).toEqual([]);
    now = 60_000;
    expect(await poller.tick()).toBe(2);
    expect(asked).toEqual([`${TS} errors`, `${TS} p95`]);
    poller.followCharts([view('requests')]);
    poller.note(TS, { service: 'payment', signal: 'requests' }, result('requests', 1));
    asked.length = 0;
    now = 120_000;
    await poller.tick();
    expect(asked).toEqual([`${TS} requests`]);
  });

  it('c on a Summary or Metrics service charts it (errors and p95), 5 shows the Chart tab', () => {
    const ran: string[] = [];
    const actions = { runCommand: (l: string) => ran.push(l) } as unknown as ConsoleActions;
    const base = initialState({ cols: 120, rows: 40, colony: 'c', source: 's', model: 'm' });
    const summary = { from: '', to: '', previousFrom: '', standOut: [{ service: 'payment' }], services: [], events: [], lookFirst: '' };
    const inSummary = { ...base, focus: 'detail', tab: 'summary', summary: { ...base.summary, data: summary } } as unknown as ConsoleState;
    const inMetrics = { ...base, focus: 'detail', tab: 'metrics', metrics: { args: { service: 'cart' } } } as ConsoleState;
    for (const s of [inSummary, inMetrics]) resolveKey(s, 'c')?.run({ state: s, dispatch: () => undefined, actions, page: 10 }, 'c');
    expect(ran).toEqual([':chart payment', ':chart cart']);
    const seen: ConsoleAction[] = [];
    const inTools: ConsoleState = { ...base, focus: 'tools' };
    resolveKey(inTools, '5')?.run({ state: inTools, dispatch: (a) => seen.push(a), actions, page: 10 }, '5');
    expect(seen).toEqual([{ type: 'tab', tab: 'chart' }]);
  });
});
