import { describe, expect, it } from 'vitest';
import { initialState, reducer } from '../../components/state/reducer.js';
import type { ConsoleAction, ConsoleState, TraceJson, TraceNodeJson } from '../../components/state/types.js';

/**
 * The reducer's survivors of a Stryker run (issue 18, third round): each case on inputs where the
 * mutated branch, bound or default gives a different state.
 */
const fresh = (patch: Partial<ConsoleState> = {}): ConsoleState => ({ ...initialState({ cols: 120, rows: 40, colony: 'c', source: 's', model: 'm' }), ...patch });
const run = (s: ConsoleState, ...actions: ConsoleAction[]) => actions.reduce(reducer, s);
const started = (id: string, tool: string, args: Record<string, unknown> = {}): ConsoleAction => ({ type: 'agent', event: { type: 'tool_call_started', id, server: 'colony', tool, args } });
const finished = (id: string, tool: string, ok: boolean, text: string, structured?: Record<string, unknown>): ConsoleAction => ({ type: 'agent', event: { type: 'tool_call_finished', id, tool, ok, durationMs: 1, text, structured } });

function node(id: string, children: TraceNodeJson[] = [], p: Partial<TraceNodeJson> = {}): TraceNodeJson {
  return { spanId: id, parentSpanId: '', service: 'svc', name: `op ${id}`, kind: 'SERVER', source: 'otlp', offsetMs: 0, durationMs: 10, selfMs: 10, error: false, statusMessage: '', httpStatusCode: null, rpcStatusCode: null, slow: false, orphan: false, merged: null, attributes: {}, events: [], links: [], children, ...p };
}
const trace = (id: string, roots: TraceNodeJson[], p: Partial<TraceJson> = {}): TraceJson => ({
  traceId: id.repeat(32).slice(0, 32), start: '2025-12-02T10:30:00Z', startNs: '1764671400000000000', durationMs: 10, spanCount: 1, mergedCount: 0,
  services: ['svc'], depth: 1, incomplete: false, resources: {}, roots, ...p,
}) as TraceJson;

const TREE = trace('a', [node('r', [node('c1', [node('g')]), node('c2', [], { slow: true })])]);
const open = (patch: Partial<ConsoleState['trace']> = {}) => fresh({ trace: { ...fresh().trace, traces: [TREE, trace('b', [node('x')])], open: 0, ...patch } });

describe('finishing one tool call', () => {
  it('marks only that call, the others keep running', () => {
    const s = run(fresh(), started('1', 'coral_list_services'), started('2', 'coral_list_services'), finished('2', 'coral_list_services', true, 'ok'));
    expect(s.toolCalls.map((c) => c.status)).toEqual(['running', 'done']);
  });
});

describe('zoom and focus', () => {
  it('z zooms the detail pane and focuses it; z again unzooms and stays there', () => {
    const z = reducer(fresh(), { type: 'zoom' });
    expect([z.focus, z.zoomed]).toEqual(['detail', true]);
    const back = reducer(z, { type: 'zoom' });
    expect([back.focus, back.zoomed]).toEqual(['detail', false]);
  });

  it('leaving the detail pane ends a zoom; focusing it keeps one; focusing it unzoomed does not zoom', () => {
    const z = reducer(fresh(), { type: 'zoom' });
    expect(reducer(z, { type: 'focus', pane: 'tools' }).zoomed).toBe(false);
    expect(reducer(z, { type: 'focus', pane: 'detail' }).zoomed).toBe(true);
    expect(reducer(fresh(), { type: 'focus', pane: 'detail' }).zoomed).toBe(false);
  });
});

describe('overlays and batches', () => {
  it('the help overlay leaves the command line and its history position alone; the command line starts afresh', () => {
    const s = fresh({ command: { text: ':tra', cursor: 4, suggestions: ['traces'] }, commandHistoryAt: 2 });
    const help = reducer(s, { type: 'overlay', overlay: 'help' });
    expect([help.command, help.commandHistoryAt]).toEqual([s.command, 2]);
    const cmd = reducer(s, { type: 'overlay', overlay: 'command' });
    expect([cmd.command, cmd.commandHistoryAt]).toEqual([{ text: ':', cursor: 1, suggestions: [] }, null]);
  });

  it('a batch applies its actions in order', () => {
    const s = reducer(fresh(), { type: 'batch', actions: [{ type: 'scroll', target: 'chat', delta: 5 }, { type: 'scroll_set', target: 'chat', to: 2 }, { type: 'focus', pane: 'tools' }] });
    expect([s.scroll.chat, s.focus]).toEqual([2, 'tools']);
  });
});

describe('the tool calls pane', () => {
  it('toggling with no calls opens nothing; toggling a call resets only the tool scroll', () => {
    expect(reducer(fresh(), { type: 'tools_toggle' }).expandedTool).toBeNull();
    const s = run(fresh({ scroll: { chat: 3, tool: 5, detail: 2, help: 1 } }), started('1', 'coral_list_services'), { type: 'tools_toggle' });
    expect([s.expandedTool, s.scroll]).toEqual(['1', { chat: 3, tool: 0, detail: 2, help: 1 }]);
  });
});

describe('moving in the trace view', () => {
  it('a page in the span details scrolls them, never above the top, keeping the other scrolls', () => {
    const s = open({ detail: true });
    const down = reducer({ ...s, scroll: { ...s.scroll, chat: 4 } }, { type: 'trace_move', delta: 10, page: true });
    expect([down.scroll, down.trace.cursor]).toEqual([{ chat: 4, tool: 0, detail: 10, help: 0 }, 0]);
    expect(reducer(down, { type: 'trace_move', delta: -25, page: true }).scroll.detail).toBe(0);
  });

  it('moving past the last span stops on it', () => {
    // r, c1, g, c2: four rows.
    expect(reducer(open(), { type: 'trace_move', delta: 9 }).trace.cursor).toBe(3);
  });

  it('opening a trace from the list shows its tree, not the details of the last one', () => {
    const s = fresh({ trace: { ...fresh().trace, traces: [TREE], detail: true } });
    expect(reducer(s, { type: 'trace_toggle' }).trace).toMatchObject({ open: 0, detail: false, cursor: 0 });
  });

  it('Enter on a cursor past the rows does nothing', () => {
    const s = open({ cursor: 9 });
    expect(reducer(s, { type: 'trace_toggle' })).toBe(s);
  });

  it('folding all keeps every root open when there are several', () => {
    const two = trace('t', [node('r1', [node('a', [node('a1')])]), node('r2', [node('b', [node('b1')])])]);
    const s = reducer(fresh({ trace: { ...fresh().trace, traces: [two], open: 0 } }), { type: 'trace_fold_all', fold: true });
    expect(s.trace.folded).toEqual({ a: true, b: true });
  });

  it('jumping to the next flagged span with no trace open changes nothing', () => {
    const s = fresh({ trace: { ...fresh().trace, traces: [TREE] } });
    expect(reducer(s, { type: 'trace_next_flagged', delta: 1 })).toBe(s);
  });

  it('span details open and close at their top, keeping the other scrolls', () => {
    const s = reducer({ ...open(), scroll: { chat: 4, tool: 1, detail: 7, help: 0 } }, { type: 'trace_detail' });
    expect([s.trace.detail, s.scroll]).toEqual([true, { chat: 4, tool: 1, detail: 0, help: 0 }]);
  });

  it('s sorts the list by the next order and shows it from the top, closing the open trace and its details', () => {
    const s = reducer(open({ detail: true, listCursor: 1 }), { type: 'trace_sort' });
    expect(s.trace).toMatchObject({ sort: 'duration', open: null, detail: false, listCursor: 0 });
    expect(s.trace.traces).toHaveLength(2);
  });

  it('a filter shows the list, not the details of the open trace', () => {
    expect(reducer(open({ detail: true }), { type: 'trace_filter', text: 'x' }).trace).toMatchObject({ filter: 'x', filtering: true, open: null, detail: false });
  });
});

describe('the Summary tab cursor', () => {
  it('moves by the delta within the listed services', () => {
    const change = (service: string) => ({ service }) as never;
    const s = fresh({ summary: { data: { from: '', to: '', previousFrom: '', standOut: [], services: ['a', 'b', 'c'].map(change), events: [], lookFirst: '' }, timeRange: '30m', error: null, cursor: 0 } });
    const moved = reducer(s, { type: 'summary_move', delta: 2 });
    expect([moved.summary.cursor, moved.summary.data, moved.summary.timeRange]).toEqual([2, s.summary.data, '30m']);
    expect(reducer(moved, { type: 'summary_move', delta: -1 }).summary.cursor).toBe(1);
    expect(reducer(moved, { type: 'summary_move', delta: 5 }).summary.cursor).toBe(2);
    expect(reducer(s, { type: 'summary_move', delta: -1 }).summary.cursor).toBe(0);
  });
});

describe('the : command history', () => {
  it('a recalled line has no suggestions', () => {
    const s = fresh({ commandHistory: [':traces'], command: { text: ':t', cursor: 2, suggestions: [':traces'] } });
    expect(reducer(s, { type: 'command_history', delta: -1 }).command).toEqual({ text: ':traces', cursor: 7, suggestions: [] });
  });

  it('a line run again moves to the newest place, once; the oldest go past 100', () => {
    const s = run(fresh(), ...[':a', ':b', ':a'].map((text): ConsoleAction => ({ type: 'command_history_push', text })));
    expect(s.commandHistory).toEqual([':b', ':a']);
    const many = run(fresh(), ...Array.from({ length: 101 }, (_, i): ConsoleAction => ({ type: 'command_history_push', text: `:${i}` })));
    expect([many.commandHistory.length, many.commandHistory[0], many.commandHistory[99]]).toEqual([100, ':1', ':100']);
  });
});

describe('Esc, outside the detail pane or in another tab', () => {
  it('in the tools pane goes to the chat, leaving the trace view as it is', () => {
    const s = open({ detail: true });
    const r = reducer({ ...s, focus: 'tools' }, { type: 'back' });
    expect([r.focus, r.trace.detail, r.trace.open]).toEqual(['chat', true, 0]);
    const r2 = reducer({ ...open(), focus: 'tools' }, { type: 'back' });
    expect([r2.focus, r2.trace.open]).toEqual(['chat', 0]);
  });

  it('on the filtered trace list clears the filter and shows the list from the top; elsewhere it does not', () => {
    const list = fresh({ focus: 'detail', trace: { ...fresh().trace, traces: [TREE], filter: 'svc', filtering: false, listCursor: 1 } });
    const r = reducer(list, { type: 'back' });
    expect([r.focus, r.trace.filter, r.trace.filtering, r.trace.listCursor]).toEqual(['detail', '', false, 0]);
    for (const s of [{ ...list, focus: 'tools' as const }, { ...list, tab: 'columns' as const }, { ...list, trace: { ...list.trace, open: 0 } }]) {
      const out = reducer(s, { type: 'back' });
      expect(out.trace.filter, `${s.focus} ${s.tab} ${s.trace.open}`).toBe('svc');
    }
    expect(reducer({ ...list, trace: { ...list.trace, filter: '' } }, { type: 'back' }).focus).toBe('chat');
  });

  it('with a tool call open in another pane, goes to the chat and leaves the call open', () => {
    const r = reducer(fresh({ focus: 'detail', tab: 'summary', expandedTool: '1' }), { type: 'back' });
    expect([r.focus, r.expandedTool]).toEqual(['chat', '1']);
  });
});

describe('clearing the session', () => {
  it('keeps the trace order, and resets the live text, the summary and every scroll', () => {
    const s = fresh({ live: 'half an answer', trace: { ...fresh().trace, sort: 'duration' }, summary: { data: null, timeRange: '2h', error: 'x', cursor: 3 }, scroll: { chat: 1, tool: 2, detail: 3, help: 4 } });
    const r = reducer(s, { type: 'clear_session' });
    expect([r.live, r.trace.sort, r.summary, r.scroll]).toEqual(['', 'duration', { data: null, timeRange: '30m', error: null, cursor: 0 }, { chat: 0, tool: 0, detail: 0, help: 0 }]);
  });
});
