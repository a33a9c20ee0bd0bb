import { describe, expect, it } from 'vitest';
import type { SpanRecord } from '../../../src/colony/store/queries/spans.js';
import { buildTraceTree, flatten } from '../../../src/colony/unified/span-tree.js';
import { normalizeRoute, normalizeSpanName } from '../../../src/colony/unified/names.js';
import { renderTree } from '../../../src/colony/unified/render-tree.js';

const T = 1_764_671_400_000_000_000n;
const MS = 1_000_000n;
let seq = 0;

function span(p: Partial<SpanRecord> & { service: string; name: string; startMs: number; durMs: number }): SpanRecord {
  const startNs = T + BigInt(Math.round(p.startMs * 1e6));
  const endNs = startNs + BigInt(Math.round(p.durMs * 1e6));
  return {
    traceId: 'ab'.repeat(16), spanId: p.spanId ?? (++seq).toString(16).padStart(16, '0'), parentSpanId: p.parentSpanId ?? '',
    name: p.name, kind: p.kind ?? 'SERVER', serviceName: p.service, source: p.source ?? 'otlp', scopeName: '', startNs, endNs,
    durationMs: Number(endNs - startNs) / 1e6, statusCode: p.statusCode ?? 'UNSET', statusMessage: p.statusMessage ?? '',
    httpMethod: null, httpRoute: null, httpStatusCode: p.httpStatusCode ?? null, rpcSystem: null, rpcService: null, rpcMethod: null,
    rpcStatusCode: p.rpcStatusCode ?? null, dbSystem: null, dbOperation: null, dbTable: null, dbStatement: null, peerService: null,
    serverAddress: null, attributes: {}, resourceAttributes: {}, events: [], links: [],
  };
}

describe('name normalisation', () => {
  it('treats every spelling of an ID segment alike and strips RPC prefixes', () => {
    const forms = ['/api/products/{id}', '/api/products/:id', '/api/products/[productId]', '/api/products/*'];
    expect(new Set(forms.map(normalizeRoute)).size).toBe(1);
    expect(normalizeSpanName('/oteldemo.CartService/GetCart')).toBe(normalizeSpanName('oteldemo.CartService/GetCart'));
    expect(normalizeSpanName('grpc.oteldemo.CartService/GetCart')).toBe('oteldemo.cartservice/getcart');
    expect(normalizeRoute('/api/*/items')).toBe('/api/{}/items');
    expect(normalizeRoute('/a*b')).toBe('/a*b');
  });
});

describe('buildTraceTree', () => {
  // frontend (SDK) calls checkout; checkout is seen by both the SDK and Beyla.
  const root = span({ service: 'frontend', name: 'POST /api/checkout', startMs: 0, durMs: 100, spanId: 'f000000000000001' });
  const client = span({ service: 'frontend', name: 'POST', kind: 'CLIENT', startMs: 5, durMs: 90, spanId: 'f000000000000002', parentSpanId: 'f000000000000001' });
  const sdkServer = span({ service: 'checkout', name: 'POST /api/orders', startMs: 8, durMs: 80, spanId: 'c000000000000001', parentSpanId: 'f000000000000002' });
  const ebpfServer = span({ service: 'checkout', name: 'POST /api/orders', source: 'ebpf', startMs: 6, durMs: 83, spanId: 'e000000000000001', parentSpanId: 'f000000000000002', statusCode: 'ERROR', httpStatusCode: 503 });
  const sdkDb = span({ service: 'checkout', name: 'INSERT orders', kind: 'CLIENT', startMs: 10, durMs: 70, spanId: 'c000000000000002', parentSpanId: 'c000000000000001' });
  const ebpfDb = span({ service: 'checkout', name: 'INSERT orders', kind: 'CLIENT', source: 'ebpf', startMs: 10.01, durMs: 70.02, spanId: 'e000000000000002', parentSpanId: 'e000000000000001' });
  const ebpfOnly = span({ service: 'currency', name: '/oteldemo.CurrencyService/Convert', source: 'ebpf', startMs: 82, durMs: 2, spanId: 'e000000000000003', parentSpanId: 'c000000000000001' });

  it('merges the eBPF twin of an inbound request into the SDK span, keeping its queue time and status', () => {
    const t = buildTraceTree('ab'.repeat(16), [root, client, sdkServer, ebpfServer, sdkDb, ebpfDb, ebpfOnly]);
    const rows = flatten(t.roots).map(({ node, depth }) => [depth, node.source, node.service, node.name]);
    expect(rows).toEqual([
      [0, 'otlp', 'frontend', 'POST /api/checkout'],
      [1, 'otlp', 'frontend', 'POST'],
      [2, 'otlp', 'checkout', 'POST /api/orders'],
      [3, 'otlp', 'checkout', 'INSERT orders'],
      [3, 'ebpf', 'currency', '/oteldemo.CurrencyService/Convert'],
    ]);
    expect(t.mergedCount).toBe(2);
    expect(t.spanCount).toBe(5);
    const checkout = t.roots[0].children[0].children[0];
    expect(checkout.merged).toMatchObject({ spanId: 'e000000000000001', statusCode: 'ERROR', httpStatusCode: 503 });
    expect(checkout.merged?.queueMs).toBeCloseTo(2, 6);
    // The eBPF span saw a 503 the SDK span did not report: the merged span is an error.
    expect(checkout.error).toBe(true);
    expect(t.incomplete).toBe(false);
  });

  it('keeps disjoint spans apart and shows every span when de-duplication is off', () => {
    const other = span({ service: 'checkout', name: 'POST /api/orders', source: 'ebpf', startMs: 300, durMs: 20, parentSpanId: 'f000000000000009' });
    const t = buildTraceTree('x', [root, client, sdkServer, other]);
    expect(t.mergedCount).toBe(0);
    expect(buildTraceTree('x', [root, client, sdkServer, ebpfServer, sdkDb, ebpfDb], { dedupe: false }).spanCount).toBe(6);
  });

  it('counts a retried span (same span id) once, preferring the OTLP copy', () => {
    const copy = { ...sdkServer, source: 'ebpf' as const };
    const t = buildTraceTree('x', [root, client, copy, sdkServer]);
    expect(t.spanCount).toBe(3);
    expect(flatten(t.roots).map(({ node }) => node.source)).toEqual(['otlp', 'otlp', 'otlp']);
  });

  it('marks spans whose parent is missing as orphan roots and the trace incomplete', () => {
    const lost = span({ service: 'quote', name: 'POST /getquote', source: 'ebpf', startMs: 20, durMs: 5, parentSpanId: '9999999999999999' });
    const t = buildTraceTree('x', [root, lost]);
    expect(t.incomplete).toBe(true);
    expect(t.roots.map((r) => [r.service, r.orphan])).toEqual([['frontend', false], ['quote', true]]);
  });

  it('marks as slow the spans whose own time is a large share of the trace', () => {
    const t = buildTraceTree('x', [root, client, sdkServer, sdkDb]);
    const slow = flatten(t.roots).filter(({ node }) => node.slow).map(({ node }) => node.name);
    expect(slow).toEqual(['INSERT orders']);
  });
});

describe('renderTree', () => {
  it('draws the tree with source tags, slow and error markers, and bounds its length', () => {
    const a = span({ service: 'frontend', name: 'GET /', startMs: 0, durMs: 100, spanId: 'a000000000000001' });
    const b = span({ service: 'cart', name: 'GetCart', kind: 'SERVER', source: 'ebpf', startMs: 1, durMs: 10, spanId: 'a000000000000002', parentSpanId: 'a000000000000001', statusCode: 'ERROR', rpcStatusCode: 14, statusMessage: 'connection refused' });
    const c = span({ service: 'cart', name: 'HGET', kind: 'CLIENT', startMs: 2, durMs: 5, spanId: 'a000000000000003', parentSpanId: 'a000000000000002' });
    const d = span({ service: 'ad', name: 'GetAds', startMs: 20, durMs: 70, spanId: 'a000000000000004', parentSpanId: 'a000000000000001' });
    const lines = renderTree(buildTraceTree('ab'.repeat(16), [a, b, c, d]));
    expect(lines[0]).toMatch(/^Trace: abab.* \(Duration: 100ms, Start: 2025-12-02T10:30:00Z\)/);
    expect(lines.slice(1)).toEqual([
      '└─ [OTLP] frontend: GET / (100ms)',
      '   ├─ [eBPF] cart: GetCart (10ms) ✗ ERROR (gRPC UNAVAILABLE: connection refused)',
      '   │  └─ [OTLP] cart: HGET (5ms)',
      '   └─ [OTLP] ad: GetAds (70ms) ← SLOW',
    ]);
    const cut = renderTree(buildTraceTree('ab'.repeat(16), [a, b, c, d]), 2);
    expect(cut.at(-1)).toMatch(/… 2 more spans not shown/);
  });
});
