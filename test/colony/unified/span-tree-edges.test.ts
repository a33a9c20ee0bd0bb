import { describe, expect, it } from 'vitest';
import type { SpanRecord } from '../../../src/colony/store/queries/spans.js';
import { buildTraceTree, flatten } from '../../../src/colony/unified/span-tree.js';

const T = 1_764_671_400_000_000_000n;

function span(p: { spanId: string; parentSpanId?: string; service: string; name: string; kind?: string; source?: 'ebpf' | 'otlp'; startMs: number; durMs: number }): SpanRecord {
  const startNs = T + BigInt(Math.round(p.startMs * 1e6));
  const endNs = startNs + BigInt(Math.round(p.durMs * 1e6));
  return {
    traceId: 'cd'.repeat(16), spanId: p.spanId, parentSpanId: p.parentSpanId ?? '', name: p.name, kind: p.kind ?? 'SERVER', serviceName: p.service,
    source: p.source ?? 'otlp', scopeName: '', startNs, endNs, durationMs: p.durMs, statusCode: 'UNSET', statusMessage: '',
    httpMethod: null, httpRoute: null, httpStatusCode: null, rpcSystem: null, rpcService: null, rpcMethod: null, rpcStatusCode: null,
    dbSystem: null, dbOperation: null, dbTable: null, dbStatement: null, peerService: null, serverAddress: null,
    attributes: {}, resourceAttributes: {}, events: [], links: [],
  };
}

describe('buildTraceTree: children of a merged eBPF span', () => {
  it('re-links eBPF-only children of the folded eBPF twin to the canonical SDK span', () => {
    const root = span({ spanId: 'f000000000000001', service: 'frontend', name: 'GET /', startMs: 0, durMs: 100 });
    const sdk = span({ spanId: 'c000000000000001', parentSpanId: 'f000000000000001', service: 'checkout', name: 'POST /orders', startMs: 10, durMs: 80 });
    const ebpf = span({ spanId: 'e000000000000001', parentSpanId: 'f000000000000001', service: 'checkout', name: 'POST /orders', source: 'ebpf', startMs: 8, durMs: 83 });
    // Only Beyla saw this outbound call, and it names the eBPF server span as its parent.
    const onlyEbpf = span({ spanId: 'e000000000000002', parentSpanId: 'e000000000000001', service: 'checkout', name: 'redis GET', kind: 'CLIENT', source: 'ebpf', startMs: 20, durMs: 5 });
    const t = buildTraceTree('cd'.repeat(16), [root, sdk, ebpf, onlyEbpf]);
    expect(t.mergedCount).toBe(1);
    expect(t.incomplete).toBe(false);
    expect(t.roots.map((r) => r.spanId)).toEqual(['f000000000000001']);
    expect(flatten(t.roots).map(({ node, depth }) => [depth, node.spanId, node.parentSpanId, node.orphan])).toEqual([
      [0, 'f000000000000001', '', false],
      [1, 'c000000000000001', 'f000000000000001', false],
      [2, 'e000000000000002', 'c000000000000001', false],
    ]);
  });
});
