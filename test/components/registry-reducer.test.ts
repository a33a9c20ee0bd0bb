import { describe, expect, it } from 'vitest';
import { type ConsoleActions, BINDINGS, hintsFor, keyName, label, resolveKey, scopeOf } from '../../components/keys/registry.js';
import { initialState, reducer } from '../../components/state/reducer.js';
import { chatLines } from '../../components/panes/ChatPane.js';
import { callLines } from '../../components/panes/ToolCallsPane.js';
import type { ConsoleAction, ConsoleState, TraceJson, TraceNodeJson } from '../../components/state/types.js';

function node(id: string, children: TraceNodeJson[] = [], extra: Partial<TraceNodeJson> = {}): TraceNodeJson {
  return { spanId: id, parentSpanId: '', service: 'svc', name: `op ${id}`, kind: 'SERVER', source: 'otlp', offsetMs: 0, durationMs: 10, selfMs: 10, error: false, statusMessage: '', httpStatusCode: null, rpcStatusCode: null, slow: false, orphan: false, merged: null, attributes: {}, events: [], links: [], children, ...extra };
}
const traceOf = (roots: TraceNodeJson[]): TraceJson => ({
  traceId: 'ef'.repeat(16), start: '2025-12-02T10:30:00Z', startNs: '1764671400000000000', durationMs: 10, spanCount: 0, mergedCount: 0,
  services: ['svc'], depth: 3, incomplete: false, resources: {}, roots,
});
// r ─ a ─ a1 (error)
//   ├ b (slow)
//   └ c ─ c1
const TREE = traceOf([node('r', [node('a', [node('a1', [], { error: true })]), node('b', [], { slow: true }), node('c', [node('c1')])])]);
const OTHER = traceOf([node('x')]);

interface Recorded extends ConsoleActions {
  calls: string[];
}
const recorder = (): Recorded => {
  const calls: string[] = [];
  return { calls, submit: (q) => calls.push(`submit ${q}`), cancel: () => calls.push('cancel'), runCommand: (l) => calls.push(`run ${l}`), complete: () => [], quit: () => calls.push('quit'), redraw: () => calls.push('redraw'), openService: (svc) => calls.push(`open ${svc}`), openTrace: (id) => calls.push(`trace ${id}`), setLivePaused: (p) => calls.push(`paused ${p}`), copy: (t) => calls.push(`copy ${t}`) };
};

function press(s: ConsoleState, key: string, actions: ConsoleActions = recorder(), page = 10): ConsoleState {
  const binding = resolveKey(s, key);
  if (!binding) throw new Error(`no binding for ${key} in ${scopeOf(s)}`);
  let next = s;
  binding.run({ state: s, dispatch: (a: ConsoleAction) => (next = reducer(next, a)), actions, page }, key);
  return next;
}
const pressAll = (s: ConsoleState, keys: string[]) => keys.reduce((acc, k) => press(acc, k), s);

const fresh = (patch: Partial<ConsoleState> = {}): ConsoleState => ({ ...initialState({ cols: 120, rows: 40, colony: 'c', source: 's', model: 'm' }), ...patch });
const finished = (tool: string, structured: Record<string, unknown> | undefined, ok = true): ConsoleAction => ({ type: 'agent', event: { type: 'tool_call_finished', id: 't', tool, ok, durationMs: 1, text: '', structured } });
const withTraces = (traces: TraceJson[]) => reducer(fresh({ focus: 'detail' }), finished('coral_query_traces', { traces }));

describe('keyName: ink key events to binding names', () => {
  it.each([
    [['', { tab: true }], 'tab'],
    [['', { tab: true, shift: true }], 'shift+tab'],
    [['', { escape: true }], 'escape'],
    [['', { return: true }], 'return'],
    [['', { upArrow: true }], 'up'],
    [['', { downArrow: true }], 'down'],
    [['', { pageUp: true }], 'pageup'],
    [['', { pageDown: true }], 'pagedown'],
    [['c', { ctrl: true }], 'ctrl+c'],
    [['', { ctrl: true }], ''],
    [[' ', {}], 'space'],
    [['G', { shift: true }], 'G'],
    [['?', {}], '?'],
  ] as const)('%j -> %s', ([input, key], name) => {
    expect(keyName(input, key)).toBe(name);
  });
});

describe('labels and hints', () => {
  it('names special keys for people and leaves the rest as typed', () => {
    expect(['return', 'escape', 'tab', 'shift+tab', 'ctrl+c', 'space', 'up', 'down', 'pageup', 'pagedown', 'j'].map(label)).toEqual(['Enter', 'Esc', 'Tab', 'Shift-Tab', 'Ctrl-C', 'Space', '↑', '↓', 'PgUp', 'PgDn', 'j']);
  });

  it('hints the focused pane first, then the global keys; in the chat only keys that work while typing', () => {
    // ? and : work on an empty input, so the chat hints them; q would be typed, so it is not hinted there.
    const chat = hintsFor(fresh());
    expect(chat.map((h) => h.keys)).toEqual(['Enter', 'Tab', '?', ':']);
    const tools = hintsFor(fresh({ focus: 'tools' }));
    expect(tools.map((h) => h.keys)).toEqual(['j/k/↓/↑', 'Enter/Space', 'Tab', '?', ':', 'q']);
    expect(tools[1].description).toBe('show arguments and result');
    const columns = hintsFor(fresh({ focus: 'detail', tab: 'columns' }));
    expect(columns.map((h) => h.keys)).toEqual(['/', 'e', 'Tab', '?', ':', 'q']);
  });

  it('every binding has an id, a description and at least one key, ids unique', () => {
    expect(new Set(BINDINGS.map((b) => b.id)).size).toBe(BINDINGS.length);
    for (const b of BINDINGS) expect(b.keys.length > 0 && b.description.length > 0).toBe(true);
  });
});

describe('resolveKey', () => {
  it('maps focus and tab to a scope', () => {
    expect([scopeOf(fresh()), scopeOf(fresh({ focus: 'tools' })), scopeOf(fresh({ focus: 'detail', tab: 'metrics' }))]).toEqual(['chat', 'tools', 'metrics']);
  });

  it('lets the chat input keep printable keys but not Tab, Esc or Ctrl-C', () => {
    for (const k of ['q', '?', ':', '1', 'j']) expect(resolveKey(fresh(), k), k).toBeUndefined();
    expect(resolveKey(fresh(), 'escape')?.id).toBe('back');
    expect(resolveKey(fresh(), 'ctrl+c')?.id).toBe('turn.cancel');
    expect(resolveKey(fresh(), 'return')?.id).toBe('chat.send');
  });

  it('prefers the pane binding over a global one, and falls back to global keys elsewhere', () => {
    expect(resolveKey(fresh({ focus: 'tools' }), 'return')?.id).toBe('tools.expand');
    expect(resolveKey(fresh({ focus: 'detail', tab: 'columns' }), 'j')?.id).toBe('columns.move');
    expect(resolveKey(fresh({ focus: 'detail', tab: 'metrics' }), 'j')?.id).toBe('metrics.move');
    expect(resolveKey(fresh({ focus: 'detail', tab: 'metrics' }), '2')?.id).toBe('tab.columns');
  });
});

describe('global keys', () => {
  it('Ctrl-C cancels a running turn, and quits when idle only when pressed twice; q quits', () => {
    const busy = recorder();
    press(fresh({ busy: true }), 'ctrl+c', busy);
    const idle = recorder();
    const armed = press(fresh(), 'ctrl+c', idle);
    expect(idle.calls).toEqual([]);
    expect([armed.quitArmed, armed.status.message]).toEqual([true, 'Press Ctrl-C again to quit']);
    press(armed, 'ctrl+c', idle);
    press(fresh({ focus: 'tools' }), 'q', idle);
    expect([busy.calls, idle.calls]).toEqual([['cancel'], ['quit', 'quit']]);
  });

  it('? toggles the help, : opens the command line with a colon typed, Esc closes either', () => {
    const s = fresh({ focus: 'tools' });
    expect(press(s, '?').overlay).toBe('help');
    expect(pressAll(s, ['?', '?']).overlay).toBe('none');
    const cmd = press(s, ':');
    expect([cmd.overlay, cmd.command.text]).toEqual(['command', ':']);
    expect(press(cmd, 'escape').overlay).toBe('none');
    expect(press(s, '?').command).toEqual(s.command);
  });

  it('1, 2, 3 switch tabs and focus the detail pane', () => {
    const s = fresh({ focus: 'tools' });
    expect(['1', '2', '3'].map((k) => [press(s, k).tab, press(s, k).focus])).toEqual([['traces', 'detail'], ['columns', 'detail'], ['metrics', 'detail']]);
  });
});

describe('Esc walks back one level at a time', () => {
  it('details, then the trace list (only with several traces), then the chat', () => {
    let s = withTraces([TREE, OTHER]);
    s = press(s, 'd');
    expect(s.trace.detail).toBe(true);
    s = press(s, 'escape');
    expect([s.trace.detail, s.trace.open, s.focus]).toEqual([false, 0, 'detail']);
    s = press(s, 'escape');
    expect([s.trace.open, s.focus]).toEqual([null, 'detail']);
    s = press(s, 'escape');
    expect(s.focus).toBe('chat');
    const single = press(withTraces([TREE]), 'escape');
    expect([single.trace.open, single.focus]).toEqual([0, 'chat']);
  });

  it('closes an expanded tool call before leaving the tools pane', () => {
    let s = reducer(fresh(), { type: 'agent', event: { type: 'tool_call_started', id: 'a', server: 'colony', tool: 'x', args: {} } });
    s = press({ ...s, focus: 'tools' }, 'return');
    expect(s.expandedTool).toBe('a');
    s = press(s, 'escape');
    expect([s.expandedTool, s.focus]).toEqual([null, 'tools']);
    expect(press(s, 'escape').focus).toBe('chat');
  });

  it('leaves the details of a trace on another tab alone', () => {
    const s = { ...press(withTraces([TREE, OTHER]), 'd'), tab: 'metrics' as const };
    const back = press(s, 'escape');
    expect([back.trace.detail, back.focus]).toEqual([true, 'chat']);
  });
});

describe('the trace list and tree', () => {
  it('moves in the list within bounds and opens the chosen trace with Enter', () => {
    let s = press(withTraces([TREE, OTHER]), 'escape');
    expect(s.trace.open).toBeNull();
    s = pressAll(s, ['j', 'j', 'j']);
    expect(s.trace.listCursor).toBe(1);
    s = pressAll(s, ['k', 'k']);
    expect(s.trace.listCursor).toBe(0);
    s = pressAll(s, ['G']);
    expect(s.trace.listCursor).toBe(1);
    s = pressAll(s, ['return']);
    expect([s.trace.open, s.trace.cursor, s.trace.folded]).toEqual([1, 0, {}]);
  });

  it('pages by the pane height and jumps to the first and last span', () => {
    const s = withTraces([TREE]);
    expect(press(s, 'pagedown', recorder(), 3).trace.cursor).toBe(3);
    expect(press(press(s, 'pagedown', recorder(), 3), 'pageup', recorder(), 2).trace.cursor).toBe(1);
    expect(press(s, 'G').trace.cursor).toBe(5);
    expect(pressAll(s, ['G', 'g']).trace.cursor).toBe(0);
    expect(pressAll(s, ['k']).trace.cursor).toBe(0);
  });

  it('[ folds every span below the roots, ] unfolds all, both putting the cursor on top', () => {
    const s = pressAll(withTraces([TREE]), ['j', '[']);
    expect([s.trace.folded, s.trace.cursor]).toEqual([{ a: true, c: true }, 0]);
    const open = pressAll(s, ['j', ']']);
    expect([open.trace.folded, open.trace.cursor]).toEqual([{}, 0]);
  });

  it('n and N find the next and previous slow or error span, wrapping around', () => {
    const s = withTraces([TREE]);
    // rows: r, a, a1 (error), b (slow), c, c1
    expect(press(s, 'n').trace.cursor).toBe(2);
    expect(pressAll(s, ['n', 'n']).trace.cursor).toBe(3);
    expect(pressAll(s, ['n', 'n', 'n']).trace.cursor).toBe(2);
    expect(press(s, 'N').trace.cursor).toBe(3);
    const quiet = withTraces([OTHER]);
    expect(press(quiet, 'n')).toBe(quiet);
  });

  it('d toggles span details only in an open trace; keys on an empty list change nothing', () => {
    const s = withTraces([TREE]);
    expect(pressAll(s, ['d', 'd']).trace.detail).toBe(false);
    const list = press(withTraces([TREE, OTHER]), 'escape');
    expect(press(list, 'd')).toBe(list);
    const empty = fresh({ focus: 'detail' });
    expect(press(empty, 'return')).toBe(empty);
    expect(press(empty, '[')).toBe(empty);
  });
});

describe('the tools pane', () => {
  it('moves within the calls and toggles the one under the cursor', () => {
    let s = fresh();
    for (const id of ['a', 'b', 'c']) s = reducer(s, { type: 'agent', event: { type: 'tool_call_started', id, server: 'colony', tool: 'x', args: {} } });
    expect(s.toolCursor).toBe(2);
    s = { ...s, focus: 'tools' };
    expect(pressAll(s, ['k', 'k', 'k']).toolCursor).toBe(0);
    expect(pressAll(s, ['j']).toolCursor).toBe(2);
    expect(pressAll(s, ['k', 'space']).expandedTool).toBe('b');
    expect(pressAll(s, ['space', 'space']).expandedTool).toBeNull();
  });
});

describe('the columns tab', () => {
  it('moves the cursor (never above the top), switches views and starts a filter', () => {
    const s = fresh({ focus: 'detail', tab: 'columns' });
    expect(pressAll(s, ['j', 'j', 'k']).columns.cursor).toBe(1);
    expect(pressAll(s, ['k']).columns.cursor).toBe(0);
    expect(pressAll(s, ['j', 'e']).columns).toMatchObject({ view: 'env', cursor: 0 });
    expect(pressAll(s, ['e', 'e']).columns.view).toBe('search');
    expect(pressAll(s, ['j', '/']).columns).toMatchObject({ filter: '', filtering: true, cursor: 0 });
    expect(reducer(s, { type: 'columns_filter', text: 'lat', done: true }).columns).toMatchObject({ filter: 'lat', filtering: false });
  });
});

describe('agent events in the state', () => {
  it('keeps each call\'s session number, and an answer cites those numbers', () => {
    let s = fresh();
    const ev = (event: Extract<ConsoleAction, { type: 'agent' }>['event'], seq?: number) => (s = reducer(s, { type: 'agent', event, seq }));
    ev({ type: 'user_message', text: 'why?' });
    ev({ type: 'tool_call_started', id: 'r-1', server: 'colony', tool: 'coral_query_summary', args: {} }, 7);
    ev({ type: 'tool_call_started', id: 'r-2', server: 'colony', tool: 'coral_query_metrics', args: {} }, 8);
    expect(s.toolCalls.map((c) => c.seq)).toEqual([7, 8]);
    ev({ type: 'message_end', text: 'Finding [7][8].' });
    expect(s.chat.at(-1)).toMatchObject({ citations: [7, 8] });
    expect(chatLines(s.chat, '', 60).map((l) => l.text)).toContain('  sources: [7] [8] (tool calls pane)');
    expect(callLines(s.toolCalls[1], 60)[0].text).toBe('[8] colony/coral_query_metrics');
  });

  it('streams text, settles it when tools start, and cites the turn\'s calls in call order', () => {
    let s = fresh();
    const ev = (event: Extract<ConsoleAction, { type: 'agent' }>['event']) => (s = reducer(s, { type: 'agent', event }));
    ev({ type: 'user_message', text: 'why?' });
    expect([s.busy, s.chat]).toEqual([true, [{ role: 'user', text: 'why?' }]]);
    ev({ type: 'text_delta', text: 'Let me ' });
    ev({ type: 'text_delta', text: 'look. ' });
    expect(s.live).toBe('Let me look. ');
    ev({ type: 'tool_call_started', id: 'c1', server: 'colony', tool: 'coral_query_summary', args: {} });
    ev({ type: 'tool_call_started', id: 'c2', server: 'colony', tool: 'coral_query_metrics', args: {} });
    expect(s.chat.at(-1)).toEqual({ role: 'assistant', text: 'Let me look.' });
    expect(s.live).toBe('');
    ev({ type: 'tool_call_finished', id: 'c2', tool: 'coral_query_metrics', ok: false, durationMs: 3, text: 'failed' });
    ev({ type: 'tool_call_finished', id: 'c1', tool: 'coral_query_summary', ok: true, durationMs: 5, text: 'ok' });
    expect(s.toolCalls.map((c) => [c.id, c.status, c.durationMs])).toEqual([['c1', 'done', 5], ['c2', 'failed', 3]]);
    ev({ type: 'usage', inputTokens: 10, outputTokens: 2 });
    ev({ type: 'usage', inputTokens: 5, outputTokens: 1 });
    expect([s.status.tokensIn, s.status.tokensOut]).toEqual([15, 3]);
    ev({ type: 'message_end', text: ' Finding [1]. ' });
    // Without session numbers (no engine), an answer cites its turn's calls as 1..n.
    expect(s.chat.at(-1)).toEqual({ role: 'assistant', text: 'Finding [1].', citations: [1, 2] });
    ev({ type: 'warning', message: 'w' });
    ev({ type: 'error', message: 'e' });
    expect(s.chat.slice(-2)).toEqual([{ role: 'notice', text: 'w' }, { role: 'error', text: 'e' }]);
    ev({ type: 'turn_end', reason: 'answered', model: 'm' });
    expect([s.busy, s.chat.at(-1)]).toEqual([false, { role: 'error', text: 'e' }]);
    ev({ type: 'user_message', text: 'again' });
    expect([s.turnCalls, s.live]).toEqual([[], '']);
  });

  it('keeps a cancelled answer\'s words and says how to go on', () => {
    let s = reducer(fresh(), { type: 'agent', event: { type: 'user_message', text: 'q' } });
    s = reducer(s, { type: 'agent', event: { type: 'text_delta', text: ' partial ' } });
    s = reducer(s, { type: 'agent', event: { type: 'turn_end', reason: 'cancelled', model: 'm' } });
    expect(s.chat.slice(1)).toEqual([{ role: 'assistant', text: 'partial' }, { role: 'notice', text: 'Cancelled. Ask again, or press Enter to continue.' }]);
    expect([s.live, s.busy]).toEqual(['', false]);
  });

  it('routes structured results to their tab; an empty or failed one says so there, without its traces', () => {
    const t = reducer(fresh({ tab: 'columns' }), finished('coral_get_trace_by_id', { traces: [TREE] }));
    expect([t.tab, t.trace.open, t.trace.traces.length]).toEqual(['traces', 0, 1]);
    const empty = reducer(fresh({ tab: 'columns' }), finished('coral_query_traces', { traces: [] }));
    expect([empty.tab, empty.trace.traces]).toEqual(['traces', []]);
    expect(reducer(fresh({ tab: 'columns' }), finished('coral_query_traces', { traces: [TREE] }, false)).trace.traces).toEqual([]);
    const m = reducer(fresh(), finished('coral_query_ebpf_http_metrics', { rows: [] }));
    expect([m.tab, m.metrics]).toEqual(['metrics', { rows: [], args: {} }]);
    const search = reducer(fresh({ columns: { ...fresh().columns, cursor: 4, view: 'env' } }), finished('honeycomb_search_columns', { results: [] }));
    expect([search.tab, search.columns.search, search.columns.view, search.columns.cursor]).toEqual(['columns', { results: [] }, 'search', 0]);
    const env = reducer(fresh(), finished('honeycomb_get_environment_summary', { datasets: [] }));
    expect([env.tab, env.columns.env, env.columns.view]).toEqual(['columns', { datasets: [] }, 'env']);
    const other = fresh();
    expect(reducer(other, finished('coral_query_summary', { text: 'x' })).tab).toBe('traces');
    expect(reducer(other, finished('coral_query_summary', undefined)).toolCalls).toEqual([]);
  });
});

describe('other state changes', () => {
  it('resizes, sets status, notices, command text and focus', () => {
    let s = fresh();
    s = reducer(s, { type: 'resize', cols: 80, rows: 20 });
    s = reducer(s, { type: 'status', patch: { loading: 40 } });
    s = reducer(s, { type: 'notice', text: 'n' });
    s = reducer(s, { type: 'notice', text: 'bad', error: true });
    s = reducer(s, { type: 'command_text', text: ':tr', suggestions: [':traces'] });
    s = reducer(s, { type: 'focus', pane: 'tools' });
    expect([s.cols, s.rows, s.status.loading, s.status.colony, s.chat, s.command, s.focus]).toEqual([80, 20, 40, 'c', [{ role: 'notice', text: 'n' }, { role: 'error', text: 'bad' }], { text: ':tr', cursor: 3, suggestions: [':traces'] }, 'tools']);
  });

  it('keeps the last 100 distinct questions, a repeated one moving to the end', () => {
    let s = fresh();
    for (const q of ['a', 'b', 'a']) s = reducer(s, { type: 'history_push', text: q });
    expect(s.history).toEqual(['b', 'a']);
    for (let i = 0; i < 120; i++) s = reducer(s, { type: 'history_push', text: `q${i}` });
    expect([s.history.length, s.history[0], s.history.at(-1)]).toEqual([100, 'q20', 'q119']);
  });

  it('clears the session but keeps history and settings', () => {
    let s = withTraces([TREE]);
    s = reducer(s, { type: 'history_push', text: 'q' });
    s = reducer(s, { type: 'agent', event: { type: 'tool_call_started', id: 'a', server: 'colony', tool: 'x', args: {} } });
    s = reducer({ ...s, expandedTool: 'a', metrics: { x: 1 } }, { type: 'clear_session' });
    expect([s.chat, s.toolCalls, s.toolCursor, s.expandedTool, s.trace.traces, s.trace.open, s.metrics, s.history]).toEqual([[], [], 0, null, [], null, null, ['q']]);
  });
});

describe('the key map itself', () => {
  it('binds the keys the help overlay and README document, each in its scope, hinted where the status bar shows it', () => {
    expect(BINDINGS.map((b) => [b.id, b.scope, b.keys.join(' '), b.hint === true])).toEqual([
      ['focus.next', 'global', 'tab', true], ['focus.prev', 'global', 'shift+tab', false], ['turn.cancel', 'global', 'ctrl+c', false],
      ['back', 'global', 'escape', false], ['help', 'global', '?', true], ['command', 'global', ':', true], ['tab.traces', 'global', '1', false],
      ['tab.columns', 'global', '2', false], ['tab.metrics', 'global', '3', false], ['tab.summary', 'global', '4', false],
      ['tab.chart', 'global', '5', false], ['zoom', 'global', 'z', false], ['live.pause', 'global', 'p', false], ['redraw', 'global', 'ctrl+l', false], ['quit', 'global', 'q', true],
      ['chat.send', 'chat', 'return', true], ['chat.history', 'chat', 'up down', false], ['chat.page', 'chat', 'pageup pagedown', false],
      ['chat.ends', 'chat', 'home end', false], ['chat.copy', 'chat', 'ctrl+y', false], ['tools.move', 'tools', 'j k down up', true],
      ['tools.expand', 'tools', 'return space', true], ['tools.page', 'tools', 'pagedown pageup', false], ['tools.copy', 'tools', 'y', false],
      ['tools.ends', 'tools', 'g G', false], ['trace.move', 'traces', 'j k down up', true], ['trace.page', 'traces', 'pagedown pageup', false],
      ['trace.top', 'traces', 'g', false], ['trace.bottom', 'traces', 'G', false], ['trace.fold', 'traces', 'return space', true],
      ['trace.collapse', 'traces', '[', false], ['trace.expand', 'traces', ']', false], ['trace.next', 'traces', 'n', true],
      ['trace.prev', 'traces', 'N', false], ['trace.errors', 'traces', 'e', true], ['trace.detail', 'traces', 'd', true],
      ['trace.link', 'traces', 'l', false], ['trace.sort', 'traces', 's', true], ['trace.filter', 'traces', '/', true],
      ['trace.copy', 'traces', 'y', false], ['summary.move', 'summary', 'j k down up', true], ['summary.page', 'summary', 'pagedown pageup', false],
      ['summary.ends', 'summary', 'g G', false], ['summary.search', 'summary', '/', false], ['summary.open', 'summary', 'return', true],
      ['summary.breakdown', 'summary', 'b', true], ['summary.chart', 'summary', 'c', false], ['metrics.move', 'metrics', 'j k down up', true],
      ['metrics.page', 'metrics', 'pagedown pageup', false], ['metrics.ends', 'metrics', 'g G', false], ['metrics.sort', 'metrics', 's', true],
      ['metrics.open', 'metrics', 'return', true], ['metrics.breakdown', 'metrics', 'b', true], ['metrics.chart', 'metrics', 'c', false], ['columns.move', 'columns', 'j k down up', false],
      ['columns.filter', 'columns', '/', true], ['columns.view', 'columns', 'e', true], ['help.scroll', 'help', 'j k down up', true],
      ['help.page', 'help', 'pagedown pageup', false], ['help.ends', 'help', 'g G', false],
    ]);
  });

  it('hints the trace keys in the trace tab', () => {
    expect(hintsFor(fresh({ focus: 'detail', tab: 'traces' })).map((h) => h.keys)).toEqual(['j/k/↓/↑', 'Enter/Space', 'n', 'e', 'd', 's', '/', 'Tab', '?', ':', 'q']);
  });

  it('moves with the arrow keys as with j and k, in every pane that moves', () => {
    const t = withTraces([TREE]);
    expect(pressAll(t, ['down', 'down', 'up']).trace.cursor).toBe(1);
    const c = fresh({ focus: 'detail', tab: 'columns' });
    expect(pressAll(c, ['down', 'down', 'up']).columns.cursor).toBe(1);
    let s = fresh();
    for (const id of ['a', 'b']) s = reducer(s, { type: 'agent', event: { type: 'tool_call_started', id, server: 'colony', tool: 'x', args: {} } });
    expect(pressAll({ ...s, focus: 'tools' }, ['up', 'up', 'down']).toolCursor).toBe(1);
  });
});
