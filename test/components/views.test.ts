import { describe, expect, it } from 'vitest';
import { clamp, cursorTrace, refreshTraces, summaryServices, summaryView, traceView } from '../../components/state/views.js';
import type { SummaryJson, TraceJson, TraceViewState } from '../../components/state/types.js';

/**
 * The detail views' data transitions on their own: which trace opens first, what a refresh keeps
 * (open trace, folds, the trace under the list cursor), and the Summary tab's service list and cursor.
 */
const node = (service: string, error = false) => ({ spanId: service, parentSpanId: '', service, name: 'op', kind: 'SERVER', source: 'otlp', offsetMs: 0, durationMs: 10, selfMs: 10, error, statusMessage: '', httpStatusCode: null, rpcStatusCode: null, slow: false, orphan: false, merged: null, attributes: {}, events: [], links: [], children: [] });
const trace = (id: string, o: { ms?: number; error?: boolean; startNs?: string; service?: string } = {}): TraceJson => ({
  traceId: id.repeat(32).slice(0, 32), start: '2025-12-02T10:30:00Z', startNs: o.startNs ?? '1764671400000000000', durationMs: o.ms ?? 10, spanCount: 1, mergedCount: 0,
  services: [o.service ?? 'svc'], depth: 1, incomplete: false, resources: {}, roots: [node(o.service ?? 'svc', o.error)],
}) as TraceJson;

it('clamp keeps a value within its bounds', () => {
  expect([clamp(5, 0, 3), clamp(-1, 0, 3), clamp(2, 0, 3)]).toEqual([3, 0, 2]);
});

describe('traceView', () => {
  it('a fresh view: nothing open, nothing folded, sorted failing first unless told', () => {
    expect(traceView()).toEqual({ traces: [], open: null, listCursor: 0, cursor: 0, folded: {}, detail: false, notice: null, sort: 'errors', filter: '', filtering: false, search: '', searching: false });
    expect(traceView([], { sort: 'recent', notice: { text: 'n', error: true } })).toMatchObject({ sort: 'recent', notice: { text: 'n', error: true } });
  });

  it('opens the first trace of the list as sorted, not the first given', () => {
    const traces = [trace('a', { ms: 50 }), trace('b', { ms: 5, error: true }), trace('c', { ms: 90 })];
    expect(traceView(traces, { openFirst: true }).open).toBe(1);
    expect(traceView(traces, { openFirst: true, sort: 'duration' }).open).toBe(2);
    expect(traceView(traces).open).toBeNull();
    expect(traceView([], { openFirst: true }).open).toBeNull();
  });
});

describe('cursorTrace', () => {
  it('is the trace under the list cursor in the sorted, filtered list; null past its end', () => {
    const base = traceView([trace('a', { ms: 5, service: 'cart' }), trace('b', { ms: 50, service: 'pay' }), trace('c', { ms: 20, service: 'cart' })]);
    expect(cursorTrace(base)).toBe(1);
    expect(cursorTrace({ ...base, listCursor: 1 })).toBe(2);
    expect(cursorTrace({ ...base, filter: 'cart', listCursor: 1 })).toBe(0);
    expect(cursorTrace({ ...base, listCursor: 3 })).toBeNull();
  });
});

describe('refreshTraces', () => {
  const a = trace('a', { ms: 30 });
  const b = trace('b', { ms: 20 });
  const c = trace('c', { ms: 10 });

  it('keeps the open trace open, at its new place, with its folds', () => {
    const t: TraceViewState = { ...traceView([a, b]), open: 1, folded: { x: true }, cursor: 3 };
    const r = refreshTraces(t, [c, b, a]);
    expect([r.open, r.traces[r.open as number].traceId, r.folded, r.cursor]).toEqual([1, b.traceId, { x: true }, 3]);
  });

  it('keeps an open trace that dropped out of the result, after the fresh ones', () => {
    const t: TraceViewState = { ...traceView([a, b]), open: 0 };
    const r = refreshTraces(t, [c]);
    expect([r.traces.map((x) => x.traceId[0]), r.open]).toEqual([['c', 'a'], 1]);
  });

  it('keeps the list cursor on the trace it was on', () => {
    // Sorted by duration: a (30), b (20); the cursor on b. Fresh: d (40) first, so b moves down one.
    const t: TraceViewState = { ...traceView([a, b]), listCursor: 1 };
    const r = refreshTraces(t, [a, b, trace('d', { ms: 40 })]);
    expect([r.listCursor, r.open]).toEqual([2, null]);
    // a left: b is now first, and the cursor follows it to the top.
    expect(refreshTraces(t, [b, c]).listCursor).toBe(0);
  });

  it('a trace under the cursor that left the result: the cursor stays where it was, within the list', () => {
    const t: TraceViewState = { ...traceView([a, b, c]), listCursor: 2 };
    expect(refreshTraces(t, [a, b]).listCursor).toBe(1);
    expect(refreshTraces({ ...t, listCursor: 0 }, [b, c]).listCursor).toBe(0);
    expect(refreshTraces(t, []).listCursor).toBe(0);
  });

  it('with a trace open, the list cursor stays on that trace too (Esc shows the list on it)', () => {
    // Opened from the list: the cursor is on b. Fresh: d (40) lists first, so b moves down one.
    const t: TraceViewState = { ...traceView([a, b]), listCursor: 1, open: 1 };
    const r = refreshTraces(t, [a, b, trace('d', { ms: 40 })]);
    expect([r.open, r.listCursor]).toEqual([1, 2]);
    expect(cursorTrace(r)).toBe(r.open);
  });

  it('an open trace still in the result is not listed twice', () => {
    const t: TraceViewState = { ...traceView([a, b]), open: 1 };
    expect(refreshTraces(t, [c, b, a]).traces.map((x) => x.traceId[0])).toEqual(['c', 'b', 'a']);
  });

  it('a filter that matched nothing: once matching traces arrive, the cursor is on the first of them', () => {
    // b's later spans reach pay, so it matches the filter now; x (slower) lists first.
    const t: TraceViewState = { ...traceView([a, b]), filter: 'pay' };
    const r = refreshTraces(t, [a, trace('b', { ms: 10, service: 'pay' }), trace('x', { ms: 90, service: 'pay' })]);
    expect(cursorTrace(r)).toBe(2);
    expect(r.listCursor).toBe(0);
  });

  it('clears the notice once traces arrive; keeps it while there are none', () => {
    const t = traceView([], { notice: { text: 'No traces', error: false } });
    expect(refreshTraces(t, []).notice).toEqual({ text: 'No traces', error: false });
    expect(refreshTraces(t, [a]).notice).toBeNull();
  });
});

describe('the Summary tab', () => {
  const change = (service: string) => ({ service }) as unknown as SummaryJson['services'][number];
  const data = (standOut: string[], services: string[]): SummaryJson => ({ from: '', to: '', previousFrom: '', standOut: standOut.map(change), services: services.map(change), events: [], lookFirst: '' });

  it('lists the stand-out services first, then the rest without repeating them', () => {
    expect(summaryServices(data(['c', 'a'], ['a', 'b', 'c', 'd'])).map((c) => c.service)).toEqual(['c', 'a', 'b', 'd']);
    expect(summaryServices(null)).toEqual([]);
  });

  it('works the list out once per result', () => {
    const d = data(['a'], ['a', 'b']);
    expect(summaryServices(d)).toBe(summaryServices(d));
  });

  it('a new result starts at the top with no error; a refresh keeps the cursor on its service and the window', () => {
    const prev = { data: data([], ['a', 'b', 'c']), timeRange: '1h', error: 'old', cursor: 2 };
    expect(summaryView(prev, data([], ['x', 'c']), '2h', false)).toEqual({ data: data([], ['x', 'c']), timeRange: '2h', error: null, cursor: 0 });
    const r = summaryView(prev, data(['c'], ['x', 'c']), '2h', true);
    expect([r.cursor, r.timeRange, r.error]).toEqual([0, '1h', null]);
    expect(summaryView({ ...prev, cursor: 0 }, data([], ['x', 'y', 'a']), '2h', true).cursor).toBe(2);
  });

  it('a refresh after a failed summary (no data yet) starts at the top of the new list', () => {
    const prev = { data: null, timeRange: '1h', error: 'summary failed', cursor: 0 };
    expect(summaryView(prev, data([], ['x', 'y']), '2h', true)).toEqual({ data: data([], ['x', 'y']), timeRange: '1h', error: null, cursor: 0 });
  });

  it('a refresh without the service under the cursor keeps the cursor within the new list', () => {
    const prev = { data: data([], ['a', 'b', 'c']), timeRange: '1h', error: null, cursor: 2 };
    expect(summaryView(prev, data([], ['x', 'y']), '1h', true).cursor).toBe(1);
    expect(summaryView({ ...prev, cursor: 1 }, data([], ['x', 'y', 'z']), '1h', true).cursor).toBe(1);
    expect(summaryView(prev, data([], []), '1h', true).cursor).toBe(0);
  });
});
