import { describe, expect, it } from 'vitest';
import type { RedRow } from '../../../src/colony/store/queries/red.js';
import { type RedSection, analysis, compareSources, operationKey, operationLabel, rowLine, sectionLines } from '../../../src/colony/unified/red-merge.js';

const base: RedRow = {
  source: 'otlp', basis: 'spans', protocol: 'http', httpRoute: null, httpMethod: null, rpcService: null, rpcMethod: null, dbSystem: null, dbOperation: null, dbTable: null,
  requests: 100, errors: 0, errorRate: 0, p50Ms: 10, p95Ms: 20, p99Ms: 30, percentilesAtLeast: false,
};
const row = (p: Partial<RedRow>): RedRow => ({ ...base, ...p });
const section = (s: Partial<RedSection> & { rows: RedRow[] }): RedSection => ({ protocol: 'http', source: 'otlp', basis: 'spans', ...s });

describe('operation keys and labels', () => {
  it('spells one operation the same from either source', () => {
    expect(operationKey(row({ httpMethod: 'GET', httpRoute: '/api/products/{id}' }))).toBe(operationKey(row({ source: 'ebpf', httpMethod: 'GET', httpRoute: '/api/products/:productId' })));
    expect(operationKey(row({ httpMethod: 'GET', httpRoute: '/a' }))).not.toBe(operationKey(row({ httpMethod: 'POST', httpRoute: '/a' })));
    expect(operationKey(row({}))).toBe(' ');
    expect(operationKey(row({ protocol: 'grpc', rpcService: 'oteldemo.CartService', rpcMethod: 'GetCart' }))).toBe('oteldemo.cartservice/getcart');
    expect(operationKey(row({ protocol: 'grpc' }))).toBe('/');
    expect(operationKey(row({ protocol: 'sql', dbOperation: 'SELECT', dbTable: 'Orders' }))).toBe('select orders');
    expect(operationKey(row({ protocol: 'sql' }))).toBe(' ');
  });

  it('labels each protocol, saying what is unknown', () => {
    expect(operationLabel(row({ httpMethod: 'GET', httpRoute: '/x' }))).toBe('Route: /x (GET)');
    expect(operationLabel(row({}))).toBe('Operation: HTTP (no route)');
    expect(operationLabel(row({ protocol: 'grpc', rpcService: 'Cart', rpcMethod: 'Get' }))).toBe('Method: Cart/Get');
    expect(operationLabel(row({ protocol: 'grpc' }))).toBe('Method: ?');
    expect(operationLabel(row({ protocol: 'sql', dbOperation: 'SELECT', dbTable: 'orders', dbSystem: 'postgresql' }))).toBe('Operation: SELECT orders (postgresql)');
    expect(operationLabel(row({ protocol: 'sql', dbTable: 'orders' }))).toBe('Operation: orders (db)');
    expect(operationLabel(row({ protocol: 'sql' }))).toBe('Operation: (unknown) (db)');
  });
});

describe('row and section lines', () => {
  it('marks lower-bound percentiles with >= on P95 and P99 only, n/a when missing', () => {
    expect(rowLine(row({ httpMethod: 'GET', httpRoute: '/x', requests: 1234, errorRate: 0.0123, p50Ms: 4.5, p95Ms: 250, p99Ms: 1500, percentilesAtLeast: true })))
      .toBe('Route: /x (GET), Requests: 1,234, P50: 4.5ms, P95: >=250ms, P99: >=1,500ms, Errors: 1.2%');
    expect(rowLine(row({ httpMethod: 'GET', httpRoute: '/x', p50Ms: null, p95Ms: null, p99Ms: null, percentilesAtLeast: true }))).toContain('P50: n/a, P95: n/a, P99: n/a');
  });

  it('titles each section with its protocol, source and basis', () => {
    const r = row({ httpMethod: 'GET', httpRoute: '/x' });
    expect(sectionLines(section({ source: 'ebpf', basis: 'histogram', rows: [r] }))[0]).toBe('HTTP Metrics [eBPF] (eBPF histograms, every request):');
    expect(sectionLines(section({ basis: 'histogram', rows: [r] }))[0]).toBe('HTTP Metrics [OTLP] (SDK histograms):');
    expect(sectionLines(section({ protocol: 'grpc', rows: [] }))).toEqual(['gRPC Metrics [OTLP] (spans, exact percentiles):']);
    expect(sectionLines(section({ protocol: 'sql', rows: [r] }))).toEqual(['SQL Metrics [OTLP] (spans, exact percentiles):', `  ${rowLine(r)}`]);
  });
});

describe('compareSources', () => {
  const op = { httpMethod: 'GET', httpRoute: '/x' };
  const both = (e: Partial<RedRow>, o: Partial<RedRow>) => [section({ source: 'ebpf', rows: [row({ ...op, source: 'ebpf', ...e })] }), section({ rows: [row({ ...op, ...o })] })];

  it('explains a request count gap over 10% by which side counted more', () => {
    expect(compareSources(both({ requests: 200 }, { requests: 100 }))).toEqual(['Route: /x (GET): eBPF counted 200 requests, OTLP 100; the SDK is probably sampling (eBPF sees every request).']);
    expect(compareSources(both({ requests: 100 }, { requests: 200 }))[0]).toMatch(/eBPF counted 100 requests, OTLP 200; eBPF may have missed some/);
    expect(compareSources(both({ requests: 112 }, { requests: 100 }))).toHaveLength(1);
    expect(compareSources(both({ requests: 111 }, { requests: 100 }))).toEqual([]);
    expect(compareSources(both({ requests: 110 }, { requests: 100 }))).toEqual([]);
  });

  it('explains a higher eBPF median by queueing, only when it is 0.3 ms and 10% above', () => {
    expect(compareSources(both({ p50Ms: 12 }, { p50Ms: 10 }))).toEqual(['Route: /x (GET): eBPF P50 12ms vs OTLP 10ms; eBPF includes time queued before the handler ran, which the SDK cannot see.']);
    expect(compareSources(both({ p50Ms: 11 }, { p50Ms: 10 }))).toEqual([]);
    expect(compareSources(both({ p50Ms: 2.4 }, { p50Ms: 2 }))).toHaveLength(1);
    expect(compareSources(both({ p50Ms: 2.25 }, { p50Ms: 2 }))).toEqual([]);
    expect(compareSources(both({ p50Ms: 0.5 }, { p50Ms: 0.1 }))).toHaveLength(1);
    expect(compareSources(both({ p50Ms: 0.35 }, { p50Ms: 0.1 }))).toEqual([]);
    expect(compareSources(both({ p50Ms: null }, { p50Ms: 10 }))).toEqual([]);
    expect(compareSources(both({ p50Ms: 20 }, { p50Ms: null }))).toEqual([]);
  });

  it('compares only the same operation of the same protocol, and caps the notes', () => {
    expect(compareSources([section({ source: 'ebpf', rows: [row({ httpMethod: 'GET', httpRoute: '/y', source: 'ebpf', requests: 500 })] }), section({ rows: [row(op)] })])).toEqual([]);
    expect(compareSources([section({ source: 'ebpf', rows: [row({ ...op, requests: 500 })] }), section({ protocol: 'grpc', rows: [row(op)] })])).toEqual([]);
    const many = both({ requests: 500, p50Ms: 50 }, {});
    expect(compareSources(many)).toHaveLength(2);
    expect(compareSources(many, 1)).toHaveLength(1);
    const sql = [section({ protocol: 'sql', source: 'ebpf', rows: [row({ protocol: 'sql', dbOperation: 'SELECT', requests: 500 })] }), section({ protocol: 'sql', rows: [row({ protocol: 'sql', dbOperation: 'select' })] })];
    expect(compareSources(sql)).toHaveLength(1);
  });
});

describe('analysis', () => {
  it('names the worst error rate (at least 1% and one error) and the slowest P99, with their sources', () => {
    const s = [
      section({ source: 'ebpf', rows: [row({ httpMethod: 'POST', httpRoute: '/pay', source: 'ebpf', errors: 5, errorRate: 0.05, p99Ms: 900, percentilesAtLeast: true })] }),
      section({ rows: [row({ httpMethod: 'GET', httpRoute: '/cart', errors: 20, errorRate: 0.2, p99Ms: 100 }), row({ httpMethod: 'GET', httpRoute: '/slow', p99Ms: null })] }),
    ];
    expect(analysis(s)).toBe('Analysis: /cart (GET) fails 20.0% of requests [OTLP]; slowest P99 is >=900ms on /pay (POST) [eBPF].');
  });

  it('says when no error rate stands out, ignoring rates under 1% or without errors', () => {
    const s = [section({ rows: [row({ httpMethod: 'GET', httpRoute: '/a', errors: 1, errorRate: 0.009 }), row({ httpMethod: 'GET', httpRoute: '/b', errors: 0, errorRate: 0.5, p99Ms: null })] })];
    expect(analysis(s)).toBe('Analysis: no operation has a notable error rate; slowest P99 is 30ms on /a (GET) [OTLP].');
    expect(analysis([section({ rows: [row({ errors: 1, errorRate: 0.01, p99Ms: null })] })])).toBe('Analysis: HTTP (no route) fails 1.0% of requests [OTLP].');
    expect(analysis([])).toBe('');
  });
});

describe('compareSources and analysis, boundaries', () => {
  const op = { httpMethod: 'GET', httpRoute: '/x' };
  it('finds the eBPF section by its source, whatever the order of sections', () => {
    const s = [section({ rows: [row({ ...op, requests: 100 })] }), section({ source: 'ebpf', rows: [row({ ...op, source: 'ebpf', requests: 300 })] })];
    expect(compareSources(s)).toEqual(['Route: /x (GET): eBPF counted 300 requests, OTLP 100; the SDK is probably sampling (eBPF sees every request).']);
  });

  it('needs more than a 10% gap in requests and at least 0.3 ms in the median', () => {
    const pair = (e: Partial<RedRow>, o: Partial<RedRow>) => [section({ source: 'ebpf', rows: [row({ ...op, source: 'ebpf', ...e })] }), section({ rows: [row({ ...op, ...o })] })];
    // exactly 10% of the larger count: not a gap worth a note.
    expect(compareSources(pair({ requests: 100 }, { requests: 90 }))).toEqual([]);
    // exactly 0.3 ms (0.5 - 0.2 is 0.3 in binary too) and more than 10%: a note.
    expect(compareSources(pair({ p50Ms: 0.5 }, { p50Ms: 0.2 }))).toHaveLength(1);
  });

  it('picks the slowest P99 wherever it is listed', () => {
    const s = [section({ rows: [row({ ...op, p99Ms: 10 }), row({ httpMethod: 'GET', httpRoute: '/mid', p99Ms: 50 }), row({ httpMethod: 'GET', httpRoute: '/slow', p99Ms: 70 }), row({ httpMethod: 'GET', httpRoute: '/low', p99Ms: 20 })] })];
    expect(analysis(s)).toBe('Analysis: no operation has a notable error rate; slowest P99 is 70ms on /slow (GET) [OTLP].');
  });
});
