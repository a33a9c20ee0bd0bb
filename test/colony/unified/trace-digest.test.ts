import { describe, expect, it } from 'vitest';
import type { SpanRecord } from '../../../src/colony/store/queries/spans.js';
import { buildTraceTree } from '../../../src/colony/unified/span-tree.js';
import { digestTrace, orderTraces, sourceMix, tracesAnalysis } from '../../../src/colony/unified/trace-digest.js';

const T = 1_764_671_400_000_000_000n;

function span(traceId: string, p: { id: string; parent?: string; service: string; name: string; startMs: number; durMs: number; error?: boolean; source?: 'ebpf' | 'otlp' }): SpanRecord {
  const startNs = T + BigInt(p.startMs * 1e6);
  const endNs = startNs + BigInt(p.durMs * 1e6);
  return {
    traceId, spanId: p.id, parentSpanId: p.parent ?? '', name: p.name, kind: 'SERVER', serviceName: p.service, source: p.source ?? 'otlp',
    scopeName: '', startNs, endNs, durationMs: p.durMs, statusCode: p.error ? 'ERROR' : 'UNSET', statusMessage: '',
    httpMethod: null, httpRoute: null, httpStatusCode: null, rpcSystem: null, rpcService: null, rpcMethod: null, rpcStatusCode: null,
    dbSystem: null, dbOperation: null, dbTable: null, dbStatement: null, peerService: null, serverAddress: null,
    attributes: {}, resourceAttributes: {}, events: [], links: [],
  };
}

/** frontend -> checkout -> payment; payment fails and checkout passes the error on. */
function failing(traceId: string, startMs: number, durMs: number) {
  return buildTraceTree(traceId, [
    span(traceId, { id: `${traceId}1`, service: 'frontend', name: 'GET /', startMs, durMs }),
    span(traceId, { id: `${traceId}2`, parent: `${traceId}1`, service: 'checkout', name: 'PlaceOrder', startMs: startMs + 1, durMs: durMs - 2, error: true }),
    span(traceId, { id: `${traceId}3`, parent: `${traceId}2`, service: 'payment', name: 'Charge', startMs: startMs + 2, durMs: durMs - 4, error: true, source: 'ebpf' }),
  ]);
}
function healthy(traceId: string, startMs: number, durMs: number) {
  return buildTraceTree(traceId, [span(traceId, { id: `${traceId}1`, service: 'frontend', name: 'GET /', startMs, durMs })]);
}
const item = (tree: ReturnType<typeof healthy>) => ({ tree, digest: digestTrace(tree) });

describe('digestTrace', () => {
  it('names the root operation, counts error spans and lists failing services first', () => {
    const d = digestTrace(failing('a', 0, 50));
    expect(d).toMatchObject({ rootService: 'frontend', rootName: 'GET /', errorCount: 2, errorServices: ['checkout', 'payment'], services: ['checkout', 'payment', 'frontend'] });
    expect(d.sources).toEqual({ otlp: 2, ebpf: 1, merged: 0 });
    expect(sourceMix(d)).toBe('eBPF+OTLP');
    expect(sourceMix(digestTrace(healthy('b', 0, 5)))).toBe('OTLP only');
  });
});

describe('orderTraces', () => {
  // Newest first: c (healthy, slowest), b (failing, fast), a (healthy, oldest).
  const a = item(healthy('a', 0, 10));
  const b = item(failing('b', 100, 20));
  const c = item(healthy('c', 200, 300));
  const ids = (xs: { tree: { traceId: string } }[]) => xs.map((x) => x.tree.traceId);

  it('errors: failing first, then slowest', () => expect(ids(orderTraces([a, c, b], 'errors'))).toEqual(['b', 'c', 'a']));
  it('duration: slowest first', () => expect(ids(orderTraces([a, b, c], 'duration'))).toEqual(['c', 'b', 'a']));
  it('recent: latest start first', () => expect(ids(orderTraces([c, a, b], 'recent'))).toEqual(['c', 'b', 'a']));
  it('breaks equal durations by the more recent start', () => {
    expect(ids(orderTraces([item(healthy('x', 0, 10)), item(healthy('y', 50, 10))], 'duration'))).toEqual(['y', 'x']);
  });
});

describe('tracesAnalysis', () => {
  it('says where the errors start (the deepest failing span), not where they are passed on', () => {
    const text = tracesAnalysis([item(failing('a', 0, 50)), item(failing('b', 0, 40)), item(healthy('c', 0, 10))]);
    expect(text).toMatch(/^Analysis: 2 of 3 traces failed; the errors start in payment \(2\);/);
    expect(text).toMatch(/most time is spent in payment itself \(\d+% of all self time\)/);
    expect(text).toMatch(/sources: 5 \[OTLP\] spans, 2 \[eBPF\]-only spans\.$/);
  });

  it('says when nothing failed, and is empty for no traces', () => {
    expect(tracesAnalysis([item(healthy('a', 0, 10))])).toMatch(/^Analysis: none of the 1 traces failed;/);
    expect(tracesAnalysis([])).toBe('');
  });
});
