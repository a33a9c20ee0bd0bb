import { describe, expect, it } from 'vitest';
import { formatMs } from '../../../src/core/format.js';
import { httpOperation, httpRoutePart } from '../../../src/colony/unified/names.js';
import { operationLabel } from '../../../src/colony/unified/red-merge.js';
import type { RedRow } from '../../../src/colony/store/queries/red.js';
import type { SpanRecord } from '../../../src/colony/store/queries/spans.js';
import { buildTraceTree } from '../../../src/colony/unified/span-tree.js';
import { renderTree } from '../../../src/colony/unified/render-tree.js';

describe('HTTP operations read as the semantic conventions name them', () => {
  it.each([
    ['POST', null, 'POST'],
    ['POST', 'null', 'POST'],
    ['GET', 'GET', 'GET'],
    ['GET', 'HTTP GET', 'GET'],
    ['GET', 'GET /api/cart', 'GET /api/cart'],
    ['GET', '/api/cart', 'GET /api/cart'],
    [null, '/api/cart', '/api/cart'],
    [null, null, 'HTTP'],
  ] as const)('%s + %s -> %s', (method, route, want) => {
    expect(httpOperation(method, route)).toBe(want);
  });

  it('labels a route-less operation without "(none)" and without repeating the method', () => {
    const row = (httpMethod: string, httpRoute: string | null) => ({ protocol: 'http', httpMethod, httpRoute } as RedRow);
    expect(operationLabel(row('POST', null))).toBe('Operation: POST (no route)');
    expect(operationLabel(row('GET', 'HTTP GET'))).toBe('Operation: GET (no route)');
    expect(operationLabel(row('GET', '/api/cart'))).toBe('Route: /api/cart (GET)');
    expect(httpRoutePart('GET', 'GET /api/cart')).toBe('/api/cart');
  });
});

describe('sub-millisecond traces', () => {
  const T = 1_764_671_400_000_000_000n;
  const span = (id: string, parent: string, service: string, startUs: number, durUs: number): SpanRecord => ({
    traceId: 'cd'.repeat(16), spanId: id.padStart(16, '0'), parentSpanId: parent ? parent.padStart(16, '0') : '', name: `op ${id}`, kind: 'SERVER', serviceName: service,
    source: 'otlp', scopeName: '', startNs: T + BigInt(startUs * 1000), endNs: T + BigInt((startUs + durUs) * 1000), durationMs: durUs / 1000,
    statusCode: 'UNSET', statusMessage: '', httpMethod: null, httpRoute: null, httpStatusCode: null, rpcSystem: null, rpcService: null, rpcMethod: null,
    rpcStatusCode: null, dbSystem: null, dbOperation: null, dbTable: null, dbStatement: null, peerService: null, serverAddress: null,
    attributes: {}, resourceAttributes: {}, events: [], links: [],
  });

  it('a 0.1 ms trace says 0.1ms and flags no span SLOW (a share of almost nothing is no bottleneck)', () => {
    // flagd's in-process evaluation: a root and four children that each take a large share of 100 µs.
    const spans = [span('1', '', 'flagd', 0, 100), ...['2', '3', '4', '5'].map((id, i) => span(id, '1', 'flagd', i * 25, 25))];
    const text = renderTree(buildTraceTree('cd'.repeat(16), spans)).join('\n');
    expect(text).toContain('Duration: 0.1ms');
    expect(text).not.toContain('SLOW');
  });

  it('a real bottleneck is still flagged', () => {
    const spans = [span('1', '', 'api', 0, 100_000), span('2', '1', 'db', 1_000, 80_000)];
    expect(renderTree(buildTraceTree('cd'.repeat(16), spans)).join('\n')).toMatch(/db: op 2 \(80ms\) ← SLOW/);
  });

  it('formatMs never writes a positive time as 0ms', () => {
    expect(formatMs(0.1)).toBe('0.1ms');
    expect(formatMs(0.004)).toBe('0.004ms');
    expect(formatMs(1234)).toBe('1,234ms');
  });
});
