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

// Rule 2 on its own: Beyla names a server span by its route, the SDK by its handler, so rule 3 (equal
// names) cannot pair these; only the enclosing-interval test of rule 2 can.
describe('rule 2 where rule 3 cannot help (different names)', () => {
  const sdk = span({ id: 'o1', parent: 'p', name: 'OrderService.create', start: 100, dur: 50 });
  const ebpf = (start: number, dur: number, extra: Partial<Spec> = {}) => span({ id: 'e1', parent: 'p', name: 'POST /orders', source: 'ebpf', start, dur, ...extra });
  it('pairs an eBPF span that encloses the SDK span, however long it queued', () => {
    expect(twins([sdk, ebpf(10, 141)])).toEqual({ e1: 'o1' });
    expect(buildTraceTree('t', [sdk, ebpf(10, 141)]).roots.map((r) => [r.spanId, r.merged?.queueMs])).toEqual([['o1', 90]]);
  });

  it('allows exactly 5 ms either way at the start and at the end, and not 5.5', () => {
    expect(twins([sdk, ebpf(105, 40)])).toEqual({ e1: 'o1' });
    expect(twins([sdk, ebpf(105.5, 39.5)])).toEqual({});
    expect(twins([sdk, ebpf(100, 45)])).toEqual({ e1: 'o1' });
    expect(twins([sdk, ebpf(100, 44.5)])).toEqual({});
  });

  it('needs both spans to be SERVER spans', () => {
    expect(twins([sdk, ebpf(10, 141, { kind: 'CLIENT' })])).toEqual({});
    expect(twins([span({ id: 'o1', parent: 'p', name: 'OrderService.create', kind: 'CLIENT', start: 100, dur: 50 }), ebpf(10, 141)])).toEqual({});
  });
});

describe('rule 3 details', () => {
  const client = (id: string, source: 'ebpf' | 'otlp', start: number, dur: number, extra: Partial<Spec> = {}) => span({ id, parent: 'p', kind: 'CLIENT', name: 'SELECT orders', source, start, dur, ...extra });
  it('takes its 5% from the longer of the two durations', () => {
    // The ends differ by 20 ms: 5% of 400 ms, more than 5% of 380 ms.
    expect(twins([client('o', 'otlp', 10, 400), client('e', 'ebpf', 10, 380)])).toEqual({ e: 'o' });
    expect(twins([client('o', 'otlp', 10, 380), client('e', 'ebpf', 10, 400)])).toEqual({ e: 'o' });
  });

  it('never pairs the same operation under different parents', () => {
    expect(twins([client('o', 'otlp', 10, 20), client('e', 'ebpf', 10, 20, { parent: 'q' })])).toEqual({});
  });
});

describe('rule 1: retried copies of one span id', () => {
  const a = span({ id: 's', name: 'first', start: 0, dur: 10 });
  const b = span({ id: 's', name: 'second', start: 0, dur: 10 });
  const names = (spans: SpanRecord[]) => flatten(buildTraceTree('t', spans).roots).map(({ node }) => `${node.source}:${node.name}`);
  it('keeps the OTLP copy whichever order the copies arrive in', () => {
    const ebpfCopy = { ...b, source: 'ebpf' as const };
    expect(names([a, ebpfCopy])).toEqual(['otlp:first']);
    expect(names([ebpfCopy, a])).toEqual(['otlp:first']);
  });

  it('keeps the first stored copy when both come from the same source', () => {
    expect(names([a, b])).toEqual(['otlp:first']);
    expect(names([{ ...a, source: 'ebpf' }, { ...b, source: 'ebpf' }])).toEqual(['ebpf:first']);
  });
});

describe('slow spans at the edges', () => {
  it('marks a span whose own time is exactly the share asked for', () => {
    const t = buildTraceTree('t', [span({ id: 'r', start: 0, dur: 100 }), span({ id: 'c', parent: 'r', start: 0, dur: 75 })]);
    expect(t.roots[0].selfMs).toBe(25);
    expect(flatten(t.roots).map(({ node }) => [node.spanId, node.slow])).toEqual([['r', true], ['c', true]]);
    expect(buildTraceTree('t', [span({ id: 'r', start: 0, dur: 100 }), span({ id: 'c', parent: 'r', start: 0, dur: 75.5 })]).roots[0].slow).toBe(false);
  });

  it('marks nothing slow in a trace that lasted no time at all', () => {
    const t = buildTraceTree('t', [span({ id: 'r', start: 0, dur: 0 }), span({ id: 'c', parent: 'r', start: 0, dur: 0 })]);
    expect(flatten(t.roots).map(({ node }) => node.slow)).toEqual([false, false]);
  });
});

describe('flatten with folded spans', () => {
  it('leaves out the descendants of a folded span and only those', () => {
    const t = buildTraceTree('t', [
      span({ id: 'r', start: 0, dur: 100 }),
      span({ id: 'a', parent: 'r', start: 1, dur: 10 }),
      span({ id: 'a1', parent: 'a', start: 2, dur: 1 }),
      span({ id: 'b', parent: 'r', start: 20, dur: 10 }),
      span({ id: 'b1', parent: 'b', start: 21, dur: 1 }),
    ]);
    const rows = flatten(t.roots, (n) => n.spanId === 'a').map(({ node, depth, prefix }) => `${depth}:${node.spanId}:${prefix}`);
    expect(rows).toEqual(['0:r:└─', '1:a:   ├─', '1:b:   └─', '2:b1:      └─']);
    expect(flatten(t.roots, (n) => n.spanId === 'r').map(({ node }) => node.spanId)).toEqual(['r']);
  });
});
