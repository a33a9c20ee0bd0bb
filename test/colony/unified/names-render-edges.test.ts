import { describe, expect, it } from 'vitest';
import { normalizeRoute, normalizeSpanName } from '../../../src/colony/unified/names.js';
import { renderTree, spanLine, tag, traceHeader } from '../../../src/colony/unified/render-tree.js';
import type { EbpfEvidence, TraceTree, TreeNode } from '../../../src/colony/unified/span-tree.js';

/** Route and span-name normalisation, and each part of a rendered span line and trace header. */
describe('normalizeRoute', () => {
  it('turns each spelling of an id segment into {}', () => {
    expect(normalizeRoute('/a/{id}/b/[slug]/c/:key/d/*')).toBe('/a/{}/b/{}/c/{}/d/{}');
  });

  it('a brace or bracket group spanning a slash, a colon not after a slash, or a star inside a word stays', () => {
    expect(normalizeRoute('/a/{x/y}')).toBe('/a/{x/y}');
    expect(normalizeRoute('/a/[x/y]')).toBe('/a/[x/y]');
    expect(normalizeRoute('/host:8080/x')).toBe('/host:8080/x');
    expect(normalizeRoute('/a/*b')).toBe('/a/*b');
  });

  it('a :param runs to the next slash; a star segment in the middle counts', () => {
    expect(normalizeRoute('/a/:id/b')).toBe('/a/{}/b');
    expect(normalizeRoute('/*/x')).toBe('/{}/x');
  });

  it('ignores case', () => {
    expect(normalizeRoute('/Users/{ID}')).toBe('/users/{}');
  });
});

describe('normalizeSpanName', () => {
  it('trims, drops one leading slash and a grpc. prefix in any case', () => {
    expect(normalizeSpanName('  GRPC.Cart/Get  ')).toBe('cart/get');
    expect(normalizeSpanName('/Cart/Get')).toBe('cart/get');
    expect(normalizeSpanName('//x')).toBe('/x');
  });

  it('grpc. only as a prefix', () => {
    expect(normalizeSpanName('cart.grpc.Get')).toBe('cart.grpc.get');
  });
});

function node(p: Partial<TreeNode> = {}): TreeNode {
  return { spanId: 's', parentSpanId: 'p', service: 'api', name: 'GET /x', kind: 'SERVER', source: 'otlp', offsetMs: 0, durationMs: 12, selfMs: 12, error: false, statusMessage: '', httpStatusCode: null, rpcStatusCode: null, slow: false, orphan: false, merged: null, attributes: {}, events: [], links: [], children: [], ...p };
}
const ev = (queueMs: number): EbpfEvidence => ({ spanId: 'e', queueMs, durationMs: 12, statusCode: 'UNSET', httpStatusCode: null } as EbpfEvidence);

describe('spanLine', () => {
  it('source tag, service, name and duration', () => {
    expect(tag('ebpf')).toBe('[eBPF]');
    expect(tag('otlp')).toBe('[OTLP]');
    expect(spanLine(node({ source: 'ebpf' }))).toBe('[eBPF] api: GET /x (12ms)');
  });

  it('a merged twin with its queue time from 0.05 ms on', () => {
    expect(spanLine(node({ merged: ev(0.05) }))).toBe('[OTLP] api: GET /x (12ms) +eBPF queue 0.05ms');
    expect(spanLine(node({ merged: ev(0.04) }))).toBe('[OTLP] api: GET /x (12ms) +eBPF');
  });

  it('errors: an HTTP status from 400, else a non-zero gRPC code by name (or number), then the message', () => {
    expect(spanLine(node({ error: true, httpStatusCode: 400, rpcStatusCode: 14, statusMessage: 'bad' }))).toBe('[OTLP] api: GET /x (12ms) ✗ ERROR (HTTP 400: bad)');
    expect(spanLine(node({ error: true, httpStatusCode: 399, rpcStatusCode: 14 }))).toBe('[OTLP] api: GET /x (12ms) ✗ ERROR (gRPC UNAVAILABLE)');
    expect(spanLine(node({ error: true, rpcStatusCode: 0, statusMessage: 'm' }))).toBe('[OTLP] api: GET /x (12ms) ✗ ERROR (m)');
    expect(spanLine(node({ error: true, rpcStatusCode: 99 }))).toBe('[OTLP] api: GET /x (12ms) ✗ ERROR (gRPC 99)');
    expect(spanLine(node({ error: true }))).toBe('[OTLP] api: GET /x (12ms) ✗ ERROR');
    expect(spanLine(node({ error: false, httpStatusCode: 500, statusMessage: 'x' }))).toBe('[OTLP] api: GET /x (12ms)');
  });

  it('a message up to 120 characters is kept whole; a longer one is cut to 117 and ...', () => {
    const m120 = 'x'.repeat(120);
    expect(spanLine(node({ error: true, statusMessage: m120 }))).toBe(`[OTLP] api: GET /x (12ms) ✗ ERROR (${m120})`);
    expect(spanLine(node({ error: true, statusMessage: 'y'.repeat(121) }))).toBe(`[OTLP] api: GET /x (12ms) ✗ ERROR (${'y'.repeat(117)}...)`);
  });

  it('slow and orphan marks, in that order', () => {
    expect(spanLine(node({ slow: true, orphan: true, parentSpanId: 'gone' }))).toBe('[OTLP] api: GET /x (12ms) ← SLOW (orphan: parent gone not in trace)');
  });
});

describe('traceHeader and renderTree', () => {
  const t = (p: Partial<TraceTree> = {}): TraceTree => ({ traceId: 'ab'.repeat(16), startNs: 1_764_671_400_123_000_000n, durationMs: 1234.4, spanCount: 3, mergedCount: 0, services: ['a', 'b'], depth: 2, incomplete: false, resources: {}, roots: [], ...p });

  it('says the id, duration, start to the second, counts, and what is merged or missing', () => {
    expect(traceHeader(t())).toBe(`Trace: ${'ab'.repeat(16)} (Duration: 1,234ms, Start: 2025-12-02T10:30:00Z) · 3 spans, 2 services, depth 2`);
    expect(traceHeader(t({ mergedCount: 2, incomplete: true }))).toBe(`Trace: ${'ab'.repeat(16)} (Duration: 1,234ms, Start: 2025-12-02T10:30:00Z) · 3 spans (2 eBPF twins merged), 2 services, depth 2 · INCOMPLETE: some parents are missing`);
  });

  it('draws every span by default; with a limit, that many and a line saying how many more', () => {
    const roots = [node({ name: 'a', children: [node({ name: 'b' }), node({ name: 'c' })] })];
    expect(renderTree(t({ roots })).slice(1)).toEqual(['└─ [OTLP] api: a (12ms)', '   ├─ [OTLP] api: b (12ms)', '   └─ [OTLP] api: c (12ms)']);
    expect(renderTree(t({ roots }), 3)).toHaveLength(4);
    expect(renderTree(t({ roots }), 1).slice(1)).toEqual(['└─ [OTLP] api: a (12ms)', `… 2 more spans not shown (ask for trace_id ${'ab'.repeat(16)} alone to see them all)`]);
  });
});
