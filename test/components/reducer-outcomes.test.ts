import { describe, expect, it } from 'vitest';
import { initialState, noTracesText, reducer } from '../../components/state/reducer.js';
import type { ConsoleAction, ConsoleState } from '../../components/state/types.js';

const fresh = (patch: Partial<ConsoleState> = {}): ConsoleState => ({ ...initialState({ cols: 120, rows: 40, colony: 'c', source: 's', model: 'm' }), ...patch });
const started = (id: string, tool: string, args: Record<string, unknown> = {}): ConsoleAction => ({ type: 'agent', event: { type: 'tool_call_started', id, server: 'colony', tool, args } });
const finished = (id: string, tool: string, ok: boolean, text: string, structured?: Record<string, unknown>): ConsoleAction => ({ type: 'agent', event: { type: 'tool_call_finished', id, tool, ok, durationMs: 1, text, structured } });
const run = (s: ConsoleState, ...actions: ConsoleAction[]) => actions.reduce(reducer, s);

describe('what an empty trace result says', () => {
  it('names the service or trace asked for, the window and the slowness asked for', () => {
    expect(noTracesText({ service: 'cart', time_range: '30m' })).toBe('No traces for cart in the last 30m (try a wider --since)');
    expect(noTracesText({ trace_id: 'abc' })).toBe('No traces for trace abc in the last 1h (try a wider --since)');
    expect(noTracesText({ min_duration_ms: 500 })).toBe('No traces for any service slower than 500ms in the last 1h (try a wider --since or a lower --min)');
    expect(noTracesText({ min_duration_ms: 0 })).toBe('No traces for any service in the last 1h (try a wider --since)');
    expect(noTracesText({ service: 7, trace_id: 8, time_range: 9 })).toBe('No traces for any service in the last 1h (try a wider --since)');
  });

  it('shows that text in the traces tab, from the arguments of the call that asked', () => {
    const s = run(fresh({ tab: 'columns' }), started('t1', 'coral_query_traces', { service: 'cart', time_range: '5m' }), finished('t1', 'coral_query_traces', true, '', { traces: [] }));
    expect([s.tab, s.trace.notice]).toEqual(['traces', { text: 'No traces for cart in the last 5m (try a wider --since)', error: false }]);
  });
});

describe('failed and cancelled calls', () => {
  it('say what failed, first line only, in the status line and in the tab the tool feeds', () => {
    const t = run(fresh({ tab: 'columns' }), started('t1', 'coral_query_traces'), finished('t1', 'coral_query_traces', false, '\n  bad arguments \nmore'));
    expect([t.tab, t.trace.notice, t.status.message, t.status.messageError]).toEqual(['traces', { text: 'query_traces failed: bad arguments', error: true }, '✗ query_traces: bad arguments', true]);
    const m = run(fresh(), started('m1', 'coral_query_ebpf_grpc_metrics'), finished('m1', 'coral_query_ebpf_grpc_metrics', false, 'store down'));
    expect([m.tab, m.metrics]).toEqual(['metrics', { error: 'query_ebpf_grpc_metrics failed: store down' }]);
    const h = run(fresh(), started('h1', 'honeycomb_search_columns'), finished('h1', 'honeycomb_search_columns', false, 'no key'));
    expect([h.tab, h.status.message]).toEqual(['traces', '✗ search_columns: no key']);
  });

  it('marks a call stopped by Ctrl-C as cancelled, quietly', () => {
    const s = run(fresh(), started('t1', 'coral_query_traces'), finished('t1', 'coral_query_traces', false, 'Cancelled by the user'));
    expect(s.toolCalls[0].status).toBe('cancelled');
    expect([s.status.message, s.status.messageError, s.trace.notice]).toEqual(['query_traces cancelled', false, null]);
  });

  it('on a cancelled turn, marks only this turn\'s running calls cancelled', () => {
    let s = run(fresh(), started('old', 'coral_query_summary'));
    s = run(s, { type: 'agent', event: { type: 'user_message', text: 'q' } }, started('a', 'coral_query_summary'), started('b', 'coral_query_metrics'), finished('b', 'coral_query_metrics', true, 'ok'));
    s = run(s, { type: 'agent', event: { type: 'turn_end', reason: 'cancelled', model: 'm' } });
    expect(s.toolCalls.map((c) => [c.id, c.status])).toEqual([['old', 'running'], ['a', 'cancelled'], ['b', 'done']]);
    const answered = run(fresh(), started('a', 'coral_query_summary'), { type: 'agent', event: { type: 'turn_end', reason: 'answered', model: 'm' } });
    expect(answered.toolCalls[0].status).toBe('running');
  });

  it('clears an old status message when a new call starts, and moves the cursor to it', () => {
    const s = run(fresh(), { type: 'status', patch: { message: 'old', messageError: true } }, started('a', 'x'), started('b', 'y'));
    expect([s.status.message, s.status.messageError, s.toolCursor]).toEqual([null, false, 1]);
  });
});

describe('smaller state changes', () => {
  it('arms and disarms quitting, restoring the message only it set', () => {
    let s = run(fresh(), { type: 'status', patch: { message: 'keep' } });
    s = run(s, { type: 'quit_arm', armed: false });
    expect(s.status.message).toBe('keep');
    s = run(s, { type: 'quit_arm', armed: true });
    expect([s.quitArmed, s.status.message, s.status.messageError]).toEqual([true, 'Press Ctrl-C again to quit', false]);
    s = run(s, { type: 'quit_arm', armed: false });
    expect([s.quitArmed, s.status.message]).toEqual([false, null]);
  });

  it('scrolls never above the top, and setting a scroll to where it is changes nothing', () => {
    let s = run(fresh(), { type: 'scroll', target: 'chat', delta: 5 }, { type: 'scroll', target: 'chat', delta: -2 });
    expect(s.scroll).toEqual({ chat: 3, tool: 0, detail: 0, help: 0 });
    s = run(s, { type: 'scroll', target: 'chat', delta: -9 });
    expect(s.scroll.chat).toBe(0);
    expect(reducer(s, { type: 'scroll_set', target: 'chat', to: 0 })).toBe(s);
    expect(reducer(s, { type: 'scroll_set', target: 'tool', to: 4 }).scroll).toEqual({ chat: 0, tool: 4, detail: 0, help: 0 });
    expect(reducer(s, { type: 'scroll_set', target: 'tool', to: -3 }).scroll.tool).toBe(0);
  });

  it('opens the command line with a colon, the help at its top, and leaves the other alone', () => {
    const s = fresh({ scroll: { chat: 1, tool: 2, detail: 3, help: 9 }, command: { text: ':tr', cursor: 3, suggestions: [] } });
    expect(reducer(s, { type: 'overlay', overlay: 'command' })).toMatchObject({ overlay: 'command', command: { text: ':', cursor: 1, suggestions: [] }, scroll: { help: 9 } });
    expect(reducer(s, { type: 'overlay', overlay: 'help' })).toMatchObject({ overlay: 'help', command: { text: ':tr' }, scroll: { chat: 1, tool: 2, detail: 3, help: 0 } });
  });

  it('keeps the draft cursor where asked, else at the end, and the history position unless given', () => {
    let s = run(fresh(), { type: 'draft', text: 'hello', historyAt: 2 });
    expect([s.draft, s.draftCursor, s.historyAt]).toEqual(['hello', 5, 2]);
    s = run(s, { type: 'draft', text: 'help', cursor: 1 });
    expect([s.draftCursor, s.historyAt]).toEqual([1, 2]);
    s = run(s, { type: 'draft', text: '', historyAt: null });
    expect(s.historyAt).toBeNull();
  });

  it('ends a filter on done, and switches column views back and forth from the top', () => {
    let s = run(fresh(), { type: 'columns_move', delta: 3 }, { type: 'columns_filter', text: 'dur', done: false });
    expect(s.columns).toMatchObject({ filter: 'dur', filtering: true, cursor: 0 });
    s = run(s, { type: 'columns_filter', text: 'dur', done: true });
    expect(s.columns.filtering).toBe(false);
    s = run(s, { type: 'columns_move', delta: 2 }, { type: 'columns_view' });
    expect(s.columns).toMatchObject({ view: 'env', cursor: 0 });
    expect(run(s, { type: 'columns_view' }).columns.view).toBe('search');
  });

  it('focusing the chat keeps the pane to return to', () => {
    let s = run(fresh(), { type: 'focus', pane: 'tools' }, { type: 'focus', pane: 'chat' });
    expect([s.focus, s.lastPane]).toEqual(['chat', 'tools']);
    s = run(s, { type: 'tab', tab: 'metrics' });
    expect([s.focus, s.lastPane, s.tab]).toEqual(['detail', 'detail', 'metrics']);
  });
});
