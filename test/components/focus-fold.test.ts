import { describe, expect, it } from 'vitest';
import { type ConsoleActions, keyName, resolveKey } from '../../components/keys/registry.js';
import { initialState, reducer } from '../../components/state/reducer.js';
import type { ConsoleAction, ConsoleState, TraceJson, TraceNodeJson } from '../../components/state/types.js';
import { visibleRows } from '../../components/trace/rows.js';

function node(id: string, children: TraceNodeJson[] = []): TraceNodeJson {
  return { spanId: id, parentSpanId: '', service: 'svc', name: `op ${id}`, kind: 'SERVER', source: 'otlp', offsetMs: 0, durationMs: 10, selfMs: 10, error: false, statusMessage: '', httpStatusCode: null, rpcStatusCode: null, slow: false, orphan: false, merged: null, attributes: {}, events: [], links: [], children };
}

const TRACE: TraceJson = {
  traceId: 'ef'.repeat(16), start: '2025-12-02T10:30:00Z', startNs: '1764671400000000000', durationMs: 10, spanCount: 4, mergedCount: 0,
  services: ['svc'], depth: 3, incomplete: false, resources: {}, roots: [node('r', [node('a', [node('a1')]), node('b')])],
};

const noActions: ConsoleActions = { submit: () => undefined, cancel: () => undefined, runCommand: () => undefined, complete: () => [], quit: () => undefined, redraw: () => undefined, openService: () => undefined, openTrace: () => undefined, setLivePaused: () => undefined, copy: () => undefined };

/** Presses a key the way the console does: the registry resolves it, its binding dispatches into the reducer. */
function press(s: ConsoleState, key: string): ConsoleState {
  const binding = resolveKey(s, key);
  if (!binding) throw new Error(`no binding for ${key} in focus ${s.focus}`);
  let next = s;
  binding.run({ state: s, dispatch: (a: ConsoleAction) => (next = reducer(next, a)), actions: noActions, page: 10 }, key);
  return next;
}

const fresh = () => initialState({ cols: 120, rows: 40, colony: 'c', source: 's', model: 'm' });

describe('focus cycling', () => {
  it('Shift-Tab from the chat pane goes to the last pane, and on backwards through every pane', () => {
    const s = fresh();
    expect(s.focus).toBe('chat');
    expect(keyName('', { tab: true, shift: true })).toBe('shift+tab');
    const order: string[] = [];
    let cur = s;
    for (let i = 0; i < 4; i++) {
      cur = press(cur, 'shift+tab');
      order.push(cur.focus);
    }
    expect(order).toEqual(['detail', 'tools', 'chat', 'detail']);
  });

  it('Tab goes forwards through every pane and wraps to the chat', () => {
    const order: string[] = [];
    let cur = fresh();
    for (let i = 0; i < 3; i++) {
      cur = press(cur, 'tab');
      order.push(cur.focus);
    }
    expect(order).toEqual(['tools', 'detail', 'chat']);
  });
});

describe('folding a span with Enter', () => {
  const opened = () => {
    let s: ConsoleState = { ...fresh(), focus: 'detail' };
    s = reducer(s, { type: 'agent', event: { type: 'tool_call_finished', id: 'x', tool: 'coral_query_traces', ok: true, durationMs: 1, text: '', structured: { traces: [TRACE] } } });
    return press(s, 'j'); // cursor on span a, which has a child
  };
  const names = (s: ConsoleState) => visibleRows(TRACE.roots, s.trace.folded).map((r) => r.node.spanId);

  it('folds on the first Enter and unfolds on the second', () => {
    let s = opened();
    expect(s.trace.open).toBe(0);
    expect(names(s)).toEqual(['r', 'a', 'a1', 'b']);
    s = press(s, 'return');
    expect(s.trace.folded).toEqual({ a: true });
    expect(names(s)).toEqual(['r', 'a', 'b']);
    s = press(s, 'return');
    expect(s.trace.folded).toEqual({});
    expect(names(s)).toEqual(['r', 'a', 'a1', 'b']);
    // Space is the same toggle.
    expect(press(press(s, 'space'), 'space').trace.folded).toEqual({});
  });

  it('does nothing on a span without children', () => {
    const s = press(press(opened(), 'j'), 'return'); // cursor on a1
    expect(s.trace.folded).toEqual({});
  });
});
