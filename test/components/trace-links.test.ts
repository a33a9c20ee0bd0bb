import { describe, expect, it } from 'vitest';
import { type ConsoleActions, resolveKey, scopeOf } from '../../components/keys/registry.js';
import { initialState, reducer } from '../../components/state/reducer.js';
import type { ConsoleAction, ConsoleState, TraceJson, TraceNodeJson } from '../../components/state/types.js';
import { spanLines } from '../../components/trace/TraceView.js';
import { flagText } from '../../components/trace/row-layout.js';

const A = 'a1'.repeat(16);
const B = 'b2'.repeat(16);

function node(id: string, links: TraceNodeJson['links'] = []): TraceNodeJson {
  return { spanId: id, parentSpanId: '', service: 'accounting', name: 'orders receive', kind: 'CONSUMER', source: 'otlp', offsetMs: 0, durationMs: 2.5, selfMs: 2.5, error: false, statusMessage: '', httpStatusCode: null, rpcStatusCode: null, slow: false, orphan: false, merged: null, attributes: {}, events: [], links, children: [] };
}
const traceOf = (traceId: string, root: TraceNodeJson): TraceJson => ({
  traceId, start: '2025-12-02T10:30:00Z', startNs: '1764671400000000000', durationMs: 2.5, spanCount: 1, mergedCount: 0, services: ['accounting'], depth: 1, incomplete: false, resources: {}, roots: [root],
});
const CONSUMER = traceOf(A, node('c1', [{ traceId: B, spanId: 'd4'.repeat(8) }]));
const PRODUCER = traceOf(B, { ...node('d4'.repeat(8)), service: 'checkout', name: 'orders publish', kind: 'PRODUCER' });

let n = 0;
/** A trace tool's call and its answer, as the engine's events bring them. */
function answered(s: ConsoleState, args: Record<string, unknown>, traces: TraceJson[]): ConsoleState {
  const id = `call-${++n}`;
  const started: ConsoleAction = { type: 'agent', event: { type: 'tool_call_started', id, server: 'coral', tool: 'coral_query_traces', args } };
  const done: ConsoleAction = { type: 'agent', event: { type: 'tool_call_finished', id, tool: 'coral_query_traces', ok: true, durationMs: 1, text: '', structured: { traces } } };
  return reducer(reducer(s, started), done);
}

function press(s: ConsoleState, key: string, calls: string[]): ConsoleState {
  const binding = resolveKey(s, key);
  if (!binding) throw new Error(`no binding for ${key} in ${scopeOf(s)}`);
  const actions = { openTrace: (id: string) => calls.push(`trace ${id}`), copy: () => undefined } as unknown as ConsoleActions;
  let next = s;
  binding.run({ state: s, dispatch: (a) => (next = reducer(next, a)), actions, page: 10 }, key);
  return next;
}

const start = () => answered({ ...initialState({ cols: 120, rows: 40, colony: 'c', source: 's', model: 'm' }), focus: 'detail' }, { service: 'accounting' }, [CONSUMER]);

describe('span links in the console', () => {
  it('a span with links is marked in the tree', () => {
    expect(flagText(CONSUMER.roots[0]).linked).toBe(' ↪');
    expect(flagText(PRODUCER.roots[0]).linked).toBe('');
  });

  it('the span details list the links and say which key opens them', () => {
    const text = spanLines(CONSUMER.roots[0], CONSUMER, 200).map((l) => l.text);
    expect(text).toContain('links (l opens it):');
    expect(text).toContain(`  trace ${B} span ${'d4'.repeat(8)}`);
  });

  it('l asks for the linked trace, its answer opens over the trace, Esc comes back', () => {
    const calls: string[] = [];
    const s = press(start(), 'l', calls);
    expect(calls).toEqual([`trace ${B}`]);
    const linked = answered(s, { trace_id: B, time_range: '24h' }, [PRODUCER]);
    expect(linked.trace.traces[linked.trace.open ?? -1].traceId).toBe(B);
    const back = press(linked, 'escape', calls);
    expect(back.trace.traces[back.trace.open ?? -1].traceId).toBe(A);
    expect(back.trace.from ?? null).toBeNull();
  });

  it('a linked trace the colony does not hold leaves the view as it was and says so', () => {
    const s = answered(press(start(), 'l', []), { trace_id: B, time_range: '24h' }, []);
    expect(s.trace.traces[s.trace.open ?? -1].traceId).toBe(A);
    expect(s.status.message).toContain(`Linked trace ${B} is not in this colony`);
  });

  it('on a span without links, l says there is none and asks for nothing', () => {
    const calls: string[] = [];
    const s = press(answered(start(), { service: 'checkout' }, [PRODUCER]), 'l', calls);
    expect(calls).toEqual([]);
    expect(s.status.message).toMatch(/^No link here/);
  });
});
