import { describe, expect, it } from 'vitest';
import { METRIC_TOOLS, SUMMARY_TOOL, TRACE_TOOLS, initialState, noTracesText, reducer } from '../../components/state/reducer.js';
import type { ConsoleAction, ConsoleState, SummaryJson, TraceJson } from '../../components/state/types.js';

/**
 * Where each tool result lands in the console state, what a live refresh keeps, and how agent events
 * build the chat: each case on inputs where a wrong branch gives a different state.
 */
const fresh = (patch: Partial<ConsoleState> = {}): ConsoleState => ({ ...initialState({ cols: 120, rows: 40, colony: 'c', source: 's', model: 'm' }), ...patch });
const started = (id: string, tool: string, args: Record<string, unknown> = {}): ConsoleAction => ({ type: 'agent', event: { type: 'tool_call_started', id, server: 'colony', tool, args } });
const finished = (id: string, tool: string, ok: boolean, text: string, structured?: Record<string, unknown>): ConsoleAction => ({ type: 'agent', event: { type: 'tool_call_finished', id, tool, ok, durationMs: 1, text, structured } });
const call = (id: string, tool: string, ok: boolean, text: string, structured?: Record<string, unknown>, args: Record<string, unknown> = {}) => [started(id, tool, args), finished(id, tool, ok, text, structured)];
const run = (s: ConsoleState, ...actions: ConsoleAction[]) => actions.reduce(reducer, s);

const node = (id: string) => ({ spanId: id, parentSpanId: '', service: 'svc', name: `op ${id}`, kind: 'SERVER', source: 'otlp', offsetMs: 0, durationMs: 10, selfMs: 10, error: false, statusMessage: '', httpStatusCode: null, rpcStatusCode: null, slow: false, orphan: false, merged: null, attributes: {}, events: [], links: [], children: [] });
const trace = (id: string): TraceJson => ({
  traceId: id, start: '2025-12-02T10:30:00Z', startNs: '1764671400000000000', durationMs: 10, spanCount: 1, mergedCount: 0,
  services: ['svc'], depth: 1, incomplete: false, resources: {}, roots: [node(id)],
}) as TraceJson;
const change = (service: string) => ({ service }) as unknown as SummaryJson['services'][number];
const summary = (...services: string[]): SummaryJson & Record<string, unknown> => ({ from: 'a', to: 'b', previousFrom: 'c', standOut: [], services: services.map(change), events: [], lookFirst: '' });

describe('the initial state', () => {
  it('is the chat focused over an empty console, Esc going to the detail pane', () => {
    expect(initialState({ cols: 80, rows: 24, colony: 'col', source: 'src', model: 'mod' })).toEqual({
      cols: 80, rows: 24, focus: 'chat', zoomed: false, lastPane: 'detail', draft: '', draftCursor: 0, historyAt: null, quitArmed: false,
      scroll: { chat: 0, tool: 0, detail: 0, help: 0 }, tab: 'traces', overlay: 'none', command: { text: '', cursor: 0, suggestions: [] },
      chat: [], live: '', busy: false, queued: [], history: [], toolCalls: [], toolCursor: 0, expandedTool: null, turnCalls: [],
      trace: { traces: [], open: null, listCursor: 0, cursor: 0, folded: {}, detail: false, notice: null, sort: 'errors', filter: '', filtering: false, search: '', searching: false },
      columns: { search: null, env: null, view: 'search', cursor: 0, filter: '', filtering: false },
      metrics: null, metricsView: { cursor: 0, sort: 'p95' }, summary: { data: null, timeRange: '30m', error: null, cursor: 0 }, chart: null, commandHistory: [], commandHistoryAt: null,
      status: { colony: 'col', source: 'src', model: 'mod', tokensIn: 0, tokensOut: 0, loading: null, message: null, live: null },
    });
  });
});

describe('which tab a result feeds', () => {
  it('every trace tool fills the traces tab', () => {
    expect([...TRACE_TOOLS]).toEqual(['coral_query_traces', 'coral_get_trace_by_id', 'coral_query_ebpf_traces', 'coral_query_telemetry_spans']);
    for (const tool of TRACE_TOOLS) {
      const s = run(fresh({ tab: 'columns' }), ...call('t', tool, true, '', { traces: [trace('a'.repeat(32))] }));
      expect([s.tab, s.trace.traces.length], tool).toEqual(['traces', 1]);
    }
  });

  it('every metrics tool fills the metrics tab, with the arguments it was called with', () => {
    expect([...METRIC_TOOLS]).toEqual(['coral_query_metrics', 'coral_query_ebpf_http_metrics', 'coral_query_ebpf_grpc_metrics', 'coral_query_ebpf_sql_metrics']);
    for (const tool of METRIC_TOOLS) {
      const s = run(fresh(), ...call('m', tool, true, '', { rows: [1] }, { service: 'cart' }));
      expect([s.tab, s.metrics], tool).toEqual(['metrics', { rows: [1], args: { service: 'cart' } }]);
    }
  });

  it('a result that carries a traces list but is not from a trace tool stays where it belongs', () => {
    const s = run(fresh(), ...call('m', 'coral_query_metrics', true, '', { traces: [trace('a'.repeat(32))] }));
    expect([s.tab, s.trace.traces]).toEqual(['metrics', []]);
    const other = run(fresh({ tab: 'columns' }), ...call('x', 'coral_list_services', true, '', { traces: [trace('a'.repeat(32))] }));
    expect([other.tab, other.trace.traces]).toEqual(['columns', []]);
  });

  it('a trace result without a traces list changes nothing', () => {
    const s = run(fresh({ tab: 'columns' }), ...call('t', 'coral_query_traces', true, '', { other: 1 }));
    expect([s.tab, s.trace.traces]).toEqual(['columns', []]);
  });

  it('new traces bring the span details back to the top', () => {
    const s = run(fresh({ scroll: { chat: 0, tool: 0, detail: 7, help: 0 } }), ...call('t', 'coral_query_traces', true, '', { traces: [trace('a'.repeat(32))] }));
    expect(s.scroll.detail).toBe(0);
  });

  it('the summary tool fills the summary tab with its window (30m when not given), the cursor on the first service', () => {
    expect(SUMMARY_TOOL).toBe('coral_query_summary');
    const withCursor = fresh({ summary: { data: summary('a', 'b', 'c'), timeRange: '1h', error: 'old', cursor: 2 } });
    const s = run(withCursor, ...call('s', SUMMARY_TOOL, true, '', summary('x', 'c'), { time_range: '2h' }));
    expect([s.tab, s.summary.timeRange, s.summary.cursor, s.summary.error, s.summary.data?.services.map((c) => c.service)]).toEqual(['summary', '2h', 0, null, ['x', 'c']]);
    const plain = run(fresh(), ...call('s', SUMMARY_TOOL, true, '', summary('x'), { time_range: 5 }));
    expect(plain.summary.timeRange).toBe('30m');
  });

  it('a summary result without services, or another tool with services, is not a summary', () => {
    expect(run(fresh(), ...call('s', SUMMARY_TOOL, true, '', { other: 1 })).summary.data).toBeNull();
    const s = run(fresh({ tab: 'columns' }), ...call('x', 'coral_list_services', true, '', summary('a')));
    expect([s.tab, s.summary.data]).toEqual(['columns', null]);
  });

  it('a quiet call fills its tab without showing it', () => {
    const s = run(fresh({ tab: 'columns' }), started('s', SUMMARY_TOOL), { type: 'agent', event: { type: 'tool_call_finished', id: 's', tool: SUMMARY_TOOL, ok: true, durationMs: 1, text: '', structured: summary('a') }, quiet: true });
    expect([s.tab, s.summary.data?.services.length]).toEqual(['columns', 1]);
  });
});

describe('failed calls', () => {
  it('a failed summary says so in the summary tab and the status line, keeping its data', () => {
    const before = fresh({ tab: 'traces', summary: { data: summary('a'), timeRange: '1h', error: null, cursor: 0 } });
    const s = run(before, ...call('s', SUMMARY_TOOL, false, 'store down'));
    expect([s.tab, s.summary.error, s.summary.data?.services.length, s.summary.timeRange, s.status.message]).toEqual(['summary', 'query_summary failed: store down', 1, '1h', '✗ query_summary: store down']);
  });

  it('the tool name loses only a leading coral_ or honeycomb_', () => {
    expect(run(fresh(), ...call('x', 'honeycomb_search_columns', false, 'bad')).status.message).toBe('✗ search_columns: bad');
    expect(run(fresh(), ...call('x', 'ext_coral_tool', false, 'bad')).status.message).toBe('✗ ext_coral_tool: bad');
    expect(run(fresh(), ...call('x', 'ext_honeycomb_tool', false, 'bad')).status.message).toBe('✗ ext_honeycomb_tool: bad');
  });

  it('the message is the first line with text in it, or nothing', () => {
    expect(run(fresh(), ...call('x', 'coral_x', false, '   \n  real error  \nmore')).status.message).toBe('✗ x: real error');
    expect(run(fresh(), ...call('x', 'coral_x', false, '')).status.message).toBe('✗ x: ');
  });

  it('only a text starting with "cancel" marks a call cancelled', () => {
    const failed = run(fresh(), ...call('x', 'coral_x', false, 'not cancelled: store down'));
    expect([failed.toolCalls[0].status, failed.status.messageError]).toEqual(['failed', true]);
    const cancelled = run(fresh(), ...call('x', 'coral_x', false, 'Cancelled by the user'));
    expect([cancelled.toolCalls[0].status, cancelled.status.message, cancelled.status.messageError]).toEqual(['cancelled', 'x cancelled', false]);
  });
});

it('a minimum duration that is not a number is not a minimum', () => {
  expect(noTracesText({ min_duration_ms: '500' })).toBe('No traces for any service in the last 1h (try a wider --since)');
});

describe('a live refresh', () => {
  it('updates the traces in place, keeping the open trace', () => {
    const a = trace('a'.repeat(32));
    const s = run(fresh({ tab: 'metrics' }), ...call('t', 'coral_query_traces', true, '', { traces: [a, trace('b'.repeat(32))] }));
    const r = reducer({ ...s, tab: 'metrics' }, { type: 'refresh', tool: 'coral_query_traces', structured: { traces: [trace('c'.repeat(32)), a] } });
    expect([r.tab, r.trace.traces.map((t) => t.traceId[0]), r.trace.traces[r.trace.open as number].traceId]).toEqual(['metrics', ['c', 'a'], a.traceId]);
  });

  it('a refresh of another tool, or without traces, leaves the traces alone', () => {
    const s = run(fresh(), ...call('t', 'coral_query_traces', true, '', { traces: [trace('a'.repeat(32))] }));
    expect(reducer(s, { type: 'refresh', tool: 'coral_query_traces', structured: { other: 1 } })).toBe(s);
    expect(reducer(s, { type: 'refresh', tool: 'coral_list_services', structured: { traces: [] } })).toBe(s);
  });

  it('replaces metrics, keeping the arguments of the query they came from', () => {
    const s = run(fresh(), ...call('m', 'coral_query_metrics', true, '', { rows: [1] }, { service: 'cart' }));
    const r = reducer(s, { type: 'refresh', tool: 'coral_query_metrics', structured: { rows: [2] } });
    expect(r.metrics).toEqual({ rows: [2], args: { service: 'cart' } });
  });

  it('does not bring back metrics that failed or were never there', () => {
    const failed = run(fresh(), ...call('m', 'coral_query_metrics', false, 'down'));
    expect(reducer(failed, { type: 'refresh', tool: 'coral_query_metrics', structured: { rows: [2] } })).toBe(failed);
    const empty = fresh();
    expect(reducer(empty, { type: 'refresh', tool: 'coral_query_metrics', structured: { rows: [2] } })).toBe(empty);
  });

  it('updates the summary keeping its window and the service under the cursor', () => {
    const s = fresh({ summary: { data: summary('a', 'b', 'c'), timeRange: '1h', error: null, cursor: 1 } });
    const r = reducer(s, { type: 'refresh', tool: SUMMARY_TOOL, structured: summary('x', 'y', 'b') });
    expect([r.summary.timeRange, r.summary.cursor, r.summary.data?.services.length]).toEqual(['1h', 2, 3]);
  });

  it('a summary refresh without services, or services from another tool, changes nothing', () => {
    const s = fresh({ summary: { data: summary('a'), timeRange: '1h', error: null, cursor: 0 } });
    expect(reducer(s, { type: 'refresh', tool: SUMMARY_TOOL, structured: { other: 1 } })).toBe(s);
    expect(reducer(s, { type: 'refresh', tool: 'coral_list_services', structured: summary('z') })).toBe(s);
  });
});

describe('agent events in the chat', () => {
  it('a question brings the chat back to its newest lines', () => {
    const s = run(fresh({ scroll: { chat: 5, tool: 0, detail: 0, help: 0 } }), { type: 'agent', event: { type: 'user_message', text: 'q' } });
    expect(s.scroll.chat).toBe(0);
  });

  it('words before a tool call settle, trimmed; blank words leave nothing', () => {
    const said = run(fresh(), { type: 'agent', event: { type: 'text_delta', text: '  looking  ' } }, started('a', 'coral_x'));
    expect(said.chat).toEqual([{ role: 'assistant', text: 'looking' }]);
    const blank = run(fresh(), { type: 'agent', event: { type: 'text_delta', text: '  \n ' } }, started('a', 'coral_x'));
    expect([blank.chat, blank.live]).toEqual([[], '']);
  });

  it('a blank tail at the end of a turn adds no answer', () => {
    const s = run(fresh(), { type: 'agent', event: { type: 'text_delta', text: ' \n' } }, { type: 'agent', event: { type: 'turn_end', reason: 'answered', model: 'm' } });
    expect(s.chat).toEqual([]);
  });

  it('a finished call updates only that call', () => {
    const s = run(fresh(), started('a', 'coral_x'), started('b', 'coral_y'), finished('b', 'coral_y', true, 'ok'));
    expect(s.toolCalls.map((c) => [c.id, c.status, c.text])).toEqual([['a', 'running', undefined], ['b', 'done', 'ok']]);
  });

  it('an answer cites the turn\'s calls by their position when their entries are gone', () => {
    const s = run(fresh(), { type: 'agent', event: { type: 'user_message', text: 'q' } }, started('a', 'coral_x'), { type: 'clear_session' }, { type: 'agent', event: { type: 'message_end', text: 'done' } });
    expect(s.chat.at(-1)).toEqual({ role: 'assistant', text: 'done', citations: [1] });
  });
});
