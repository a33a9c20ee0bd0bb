import { describe, expect, it } from 'vitest';
import type { SpanRecord } from '../../../src/colony/store/queries/spans.js';
import { buildTraceTree, findTwins, flatten } from '../../../src/colony/unified/span-tree.js';

const T = 1_764_671_400_000_000_000n;

type Spec = { id: string; parent?: string; service?: string; name?: string; kind?: string; source?: 'ebpf' | 'otlp'; start: number; dur: number; status?: string; resource?: Record<string, unknown> };
function span(p: Spec): SpanRecord {
  const startNs = T + BigInt(Math.round(p.start * 1e6));
  const endNs = startNs + BigInt(Math.round(p.dur * 1e6));
  return {
    traceId: 'aa'.repeat(16), spanId: p.id, parentSpanId: p.parent ?? '', name: p.name ?? 'op', kind: p.kind ?? 'SERVER', serviceName: p.service ?? 'svc',
    source: p.source ?? 'otlp', scopeName: '', startNs, endNs, durationMs: p.dur, statusCode: p.status ?? 'UNSET', statusMessage: '',
    httpMethod: null, httpRoute: null, httpStatusCode: null, rpcSystem: null, rpcService: null, rpcMethod: null, rpcStatusCode: null,
    dbSystem: null, dbOperation: null, dbTable: null, dbStatement: null, peerService: null, serverAddress: null,
    attributes: {}, resourceAttributes: p.resource ?? {}, events: [], links: [],
  };
}
const twins = (spans: SpanRecord[]) => Object.fromEntries(findTwins(spans));

describe('rule 2: the eBPF and SDK server spans of one inbound request', () => {
  const sdk = span({ id: 'o1', parent: 'p', start: 10, dur: 50 });
  it('pair when the eBPF span starts at most 5 ms after and ends at most 5 ms before the SDK span', () => {
    expect(twins([sdk, span({ id: 'e1', parent: 'p', source: 'ebpf', start: 15, dur: 40 })])).toEqual({ e1: 'o1' });
    expect(twins([sdk, span({ id: 'e1', parent: 'p', source: 'ebpf', start: 15.5, dur: 45 })])).toEqual({});
    expect(twins([sdk, span({ id: 'e1', parent: 'p', source: 'ebpf', start: 10, dur: 44.5 })])).toEqual({});
  });

  it('never pair across services, parents or kinds', () => {
    expect(twins([sdk, span({ id: 'e1', parent: 'p', service: 'other', source: 'ebpf', start: 9, dur: 52 })])).toEqual({});
    expect(twins([sdk, span({ id: 'e1', parent: 'q', source: 'ebpf', start: 9, dur: 52, name: 'x' })])).toEqual({});
    const client = span({ id: 'o2', parent: 'p', kind: 'CLIENT', name: 'a', start: 10, dur: 50 });
    expect(twins([client, span({ id: 'e1', parent: 'p', kind: 'SERVER', name: 'b', source: 'ebpf', start: 9, dur: 52 })])).toEqual({});
    expect(twins([span({ id: 'o3', parent: 'p', kind: 'SERVER', name: 'a', start: 10, dur: 50 }), span({ id: 'e1', parent: 'p', kind: 'CLIENT', name: 'b', source: 'ebpf', start: 9, dur: 52 })])).toEqual({});
  });

  it('let one SDK span absorb one eBPF span only', () => {
    const e1 = span({ id: 'e1', parent: 'p', source: 'ebpf', start: 9, dur: 52 });
    const e2 = span({ id: 'e2', parent: 'p', source: 'ebpf', start: 8, dur: 53 });
    expect(twins([sdk, e1, e2])).toEqual({ e1: 'o1' });
    expect(buildTraceTree('t', [sdk, e1, e2]).spanCount).toBe(2);
  });
});

describe('rule 3: same operation within tolerance', () => {
  const client = (id: string, source: 'ebpf' | 'otlp', start: number, dur: number, extra: Partial<Spec> = {}) => span({ id, parent: 'p', kind: 'CLIENT', name: 'SELECT orders', source, start, dur, ...extra });
  it('allows 5 ms for short spans and 5% of the longer duration beyond 100 ms', () => {
    expect(twins([client('o', 'otlp', 10, 20), client('e', 'ebpf', 15, 20)])).toEqual({ e: 'o' });
    expect(twins([client('o', 'otlp', 10, 20), client('e', 'ebpf', 15.5, 20)])).toEqual({});
    expect(twins([client('o', 'otlp', 10, 20), client('e', 'ebpf', 10, 25.5)])).toEqual({});
    expect(twins([client('o', 'otlp', 10, 400), client('e', 'ebpf', 29, 400)])).toEqual({ e: 'o' });
    expect(twins([client('o', 'otlp', 10, 400), client('e', 'ebpf', 31, 400)])).toEqual({});
  });

  it('compares names normalised, and needs the same kind and service', () => {
    expect(twins([client('o', 'otlp', 10, 20, { name: '/oteldemo.CartService/GetCart' }), client('e', 'ebpf', 10, 20, { name: 'oteldemo.CartService/GetCart' })])).toEqual({ e: 'o' });
    expect(twins([client('o', 'otlp', 10, 20, { name: 'GetCart' }), client('e', 'ebpf', 10, 20, { name: 'EmptyCart' })])).toEqual({});
    expect(twins([client('o', 'otlp', 10, 20), client('e', 'ebpf', 10, 20, { kind: 'INTERNAL' })])).toEqual({});
    expect(twins([client('o', 'otlp', 10, 20), client('e', 'ebpf', 10, 20, { service: 'other' })])).toEqual({});
  });
});

describe('the tree', () => {
  it('takes status and queue time from the eBPF twin, never a negative queue', () => {
    const sdk = span({ id: 'o1', start: 10, dur: 50 });
    const late = span({ id: 'e1', source: 'ebpf', start: 12, dur: 47, status: 'ERROR' });
    const t = buildTraceTree('t', [sdk, late]);
    expect(t.roots[0].merged).toMatchObject({ spanId: 'e1', queueMs: 0, durationMs: 47, statusCode: 'ERROR' });
    expect(t.roots[0].error).toBe(true);
    expect(buildTraceTree('t', [sdk]).roots[0].error).toBe(false);
    expect(buildTraceTree('t', [span({ id: 'o1', start: 0, dur: 5, status: 'ERROR' })]).roots[0].error).toBe(true);
  });

  it('measures the trace from its earliest start to its latest end, offsets from that start', () => {
    const t = buildTraceTree('t', [span({ id: 'b', start: 20, dur: 100 }), span({ id: 'a', start: 5, dur: 10 })]);
    expect(t.startNs).toBe(T + 5_000_000n);
    expect(t.durationMs).toBe(115);
    expect(t.roots.map((r) => [r.spanId, r.offsetMs])).toEqual([['a', 0], ['b', 15]]);
  });

  it('orders siblings by start, then span id, and counts depth, services and resources', () => {
    const t = buildTraceTree('t', [
      span({ id: 'r', service: 'front', start: 0, dur: 100, resource: { 'service.name': 'front' } }),
      span({ id: 'y', parent: 'r', service: 'b-svc', start: 10, dur: 5 }),
      span({ id: 'x', parent: 'r', service: 'a-svc', start: 10, dur: 5, source: 'ebpf', kind: 'CLIENT' }),
      span({ id: 'w', parent: 'r', service: 'b-svc', start: 2, dur: 5 }),
      span({ id: 'z', parent: 'y', service: 'b-svc', start: 11, dur: 1 }),
    ]);
    expect(flatten(t.roots).map(({ node, depth }) => `${depth}:${node.spanId}`)).toEqual(['0:r', '1:w', '1:x', '1:y', '2:z']);
    expect(t.depth).toBe(3);
    expect(t.services).toEqual(['a-svc', 'b-svc', 'front']);
    expect(Object.keys(t.resources).sort()).toEqual(['a-svc ebpf', 'b-svc otlp', 'front otlp']);
    expect(t.resources['front otlp']).toEqual({ 'service.name': 'front' });
  });

  it('subtracts the union of the children from a span\'s own time, clipped to the span', () => {
    const t = buildTraceTree('t', [
      span({ id: 'r', start: 0, dur: 100 }),
      span({ id: 'a', parent: 'r', start: 10, dur: 30 }),
      span({ id: 'b', parent: 'r', start: 30, dur: 30 }),
      span({ id: 'c', parent: 'r', start: 80, dur: 40 }),
      span({ id: 'd', parent: 'r', start: 45, dur: 5 }),
    ], { slowShare: 0.3 });
    const r = t.roots[0];
    // covered: [10, 60] and [80, 100] = 70 ms.
    expect(r.selfMs).toBe(30);
    expect(r.children.map((c) => c.selfMs)).toEqual([30, 30, 5, 40]);
    // 30 ms of a 120 ms trace is a 0.25 share: below the 0.3 asked for; c's 40 ms is above it.
    expect(flatten(t.roots).filter(({ node }) => node.slow).map(({ node }) => node.spanId)).toEqual(['c']);
  });

  it('is empty and complete for no spans', () => {
    const t = buildTraceTree('t', []);
    expect([t.roots, t.spanCount, t.durationMs, t.depth, t.incomplete]).toEqual([[], 0, 0, 0, false]);
  });
});
