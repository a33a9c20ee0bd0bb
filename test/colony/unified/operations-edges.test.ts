import { describe, expect, it } from 'vitest';
import type { HistogramOperationRow, SpanBucketRow } from '../../../src/colony/store/queries/operations.js';
import { type OperationView, type ServiceView, NO_BASELINE_ERROR_RATE, bestViews, compareOperations, errorChange, histogramViews, serviceViews, spanViews, viewLabel } from '../../../src/colony/unified/operations.js';
import { LOG_BOUNDS_MS } from '../../../src/colony/unified/stats.js';

/**
 * Per-operation views and verdicts on their edges: how rows group and add up, each threshold of the
 * error verdict with and without a baseline, matching the previous window by the whole key, which
 * views count as a service's, and the order that picks its best view.
 */
const sb = (p: Partial<SpanBucketRow> = {}): SpanBucketRow => ({ service: 's', source: 'otlp', kind: 'server', operation: 'op', bucket: 0, requests: 1, errors: 0, ...p });
const hr = (counts: number[], p: Partial<HistogramOperationRow> = {}): HistogramOperationRow => ({ service: 's', source: 'ebpf', kind: 'server', operation: 'op', histogram: { bounds: [10, 100], counts }, failed: false, ...p });

describe('spanViews', () => {
  it('adds rows of the same service, source, kind and operation; each difference is a view of its own', () => {
    const views = spanViews([sb({ requests: 3, errors: 1, bucket: 0 }), sb({ requests: 2, errors: 2, bucket: 4 }), sb({ source: 'ebpf' }), sb({ kind: 'db' }), sb({ operation: 'other' }), sb({ service: 't' })]);
    expect(views.map((v) => [v.service, v.source, v.basis, v.kind, v.operation, v.requests, v.errors])).toEqual([
      ['s', 'otlp', 'spans', 'server', 'op', 5, 3],
      ['s', 'ebpf', 'spans', 'server', 'op', 1, 0],
      ['s', 'otlp', 'spans', 'db', 'op', 1, 0],
      ['s', 'otlp', 'spans', 'server', 'other', 1, 0],
      ['t', 'otlp', 'spans', 'server', 'op', 1, 0],
    ]);
  });

  it('puts each row\'s requests in its log bucket', () => {
    const [v] = spanViews([sb({ requests: 3, bucket: 0 }), sb({ requests: 2, bucket: 4 })]);
    expect(v.histogram.bounds).toEqual([...LOG_BOUNDS_MS]);
    // Bucket 0 is 1 ms, bucket 4 is 2 ms: indexes 16 and 20 of the fixed range (which starts at -16).
    expect(v.histogram.counts.flatMap((c, i) => (c ? [[i, c]] : []))).toEqual([[16, 3], [20, 2]]);
  });
});

describe('histogramViews', () => {
  it('adds the histograms of a view; a failed series counts all its requests as errors', () => {
    const views = histogramViews([hr([1, 2, 0]), hr([0, 1, 4], { failed: true }), hr([5, 0, 0], { operation: 'other' })]);
    expect(views.map((v) => [v.operation, v.basis, v.requests, v.errors, v.histogram])).toEqual([
      ['op', 'histogram', 8, 5, { bounds: [10, 100], counts: [1, 3, 4] }],
      ['other', 'histogram', 5, 0, { bounds: [10, 100], counts: [5, 0, 0] }],
    ]);
  });
});

describe('errorChange without a previous window', () => {
  it('rises at 5 errors and a 5% rate on enough requests; 4 errors, or a lower rate, do not', () => {
    expect(NO_BASELINE_ERROR_RATE).toBe(0.05);
    expect(errorChange(5, 100, 0, 0).rising).toBe(true);
    expect(errorChange(4, 80, 0, 0).rising).toBe(false);
    expect(errorChange(5, 101, 0, 0).rising).toBe(false);
  });

  it('z is against a 1% rate; no requests give 0; never chronic', () => {
    expect(errorChange(10, 100, 0, 0).z).toBeCloseTo(0.09 / Math.sqrt(0.0099 / 100), 12);
    expect(errorChange(0, 0, 0, 0)).toEqual({ z: 0, rising: false, chronic: false });
    expect(errorChange(90, 100, 0, 0).chronic).toBe(false);
  });
});

describe('errorChange against a previous window', () => {
  it('rises with 3 errors, a rate up by a point and z >= 3.5', () => {
    expect(errorChange(30, 300, 0, 300)).toMatchObject({ rising: true, chronic: false });
    expect(errorChange(2, 10, 0, 1000).rising).toBe(false);
  });

  it('3 errors are enough, 2 are not; z of exactly 3.5 is enough', () => {
    expect(errorChange(3, 20, 0, 1000).rising).toBe(true);
    expect(errorChange(2, 20, 0, 1000).rising).toBe(false);
    // 4 of 4 against 45 of 192: z is exactly 3.5.
    expect(errorChange(4, 4, 45, 192)).toMatchObject({ z: 3.5, rising: true });
  });

  it('a rate up by less than a point is not rising however significant', () => {
    // 1.9% against 1% on a million requests: z is huge, the rate up by 0.9 points.
    expect(errorChange(19_000, 1_000_000, 10_000, 1_000_000)).toMatchObject({ rising: false, chronic: true });
    expect(errorChange(20_000, 1_000_000, 10_000, 1_000_000)).toMatchObject({ rising: true, chronic: false });
  });

  it('chronic: 3 errors or more, a rate of a point or more in both windows, not rising', () => {
    expect(errorChange(3, 300, 3, 300).chronic).toBe(true);
    expect(errorChange(2, 200, 3, 300).chronic).toBe(false);
    expect(errorChange(3, 301, 3, 300).chronic).toBe(false);
    expect(errorChange(3, 300, 3, 301).chronic).toBe(false);
  });

  it('z is the pooled two-proportion z', () => {
    expect(errorChange(30, 300, 0, 300).z).toBeCloseTo(0.1 / Math.sqrt(0.05 * 0.95 * (2 / 300)), 12);
  });
});

describe('compareOperations', () => {
  const view = (p: Partial<OperationView>): OperationView => ({ service: 's', source: 'otlp', basis: 'spans', kind: 'server', operation: 'op', histogram: { bounds: [10], counts: [4, 0] }, requests: 4, errors: 1, ...p });

  it('compares with the same operation of the same source, basis and kind only', () => {
    const now = [view({}), view({ source: 'ebpf' }), view({ basis: 'histogram' }), view({ kind: 'db' })];
    const prev = [view({ requests: 8, errors: 0 })];
    expect(compareOperations(now, prev).map((c) => [c.source, c.basis, c.kind, c.prevRequests, c.prevErrorRate])).toEqual([
      ['otlp', 'spans', 'server', 8, 0],
      ['ebpf', 'spans', 'server', 0, null],
      ['otlp', 'histogram', 'server', 0, null],
      ['otlp', 'spans', 'db', 0, null],
    ]);
  });

  it('reports the rates and carries the view\'s identity', () => {
    const [c] = compareOperations([view({ requests: 10, errors: 3, operation: 'GET /x' })], [view({ requests: 20, errors: 2, operation: 'GET /x' })]);
    expect(c).toMatchObject({ service: 's', operation: 'GET /x', kind: 'server', source: 'otlp', basis: 'spans', requests: 10, prevRequests: 20, errorRate: 0.3, prevErrorRate: 0.1 });
    expect(c.errors).toEqual(errorChange(3, 10, 2, 20));
  });

  it('an operation without requests has a zero error rate; without a previous one, an empty previous histogram', () => {
    const [c] = compareOperations([view({ requests: 0, errors: 0, histogram: { bounds: [10], counts: [0, 0] } })], []);
    expect([c.errorRate, c.prevErrorRate, c.latency.tooFew, c.latency.prevP95Ms]).toEqual([0, null, true, null]);
  });
});

describe('serviceViews', () => {
  const view = (p: Partial<OperationView>): OperationView => ({ service: 's', source: 'otlp', basis: 'spans', kind: 'server', operation: 'op', histogram: { bounds: [10], counts: [1, 0] }, requests: 1, errors: 0, ...p });

  it('adds the served operations per service, source and basis; database calls are not served requests', () => {
    const out = serviceViews([
      view({ operation: 'a', requests: 2, errors: 1, histogram: { bounds: [10], counts: [2, 0] } }),
      view({ operation: 'b', requests: 3, errors: 0, histogram: { bounds: [10], counts: [1, 2] } }),
      view({ kind: 'db', requests: 100 }),
      view({ source: 'ebpf' }),
      view({ basis: 'histogram' }),
    ]);
    expect(out).toEqual([
      { service: 's', source: 'otlp', basis: 'spans', requests: 5, errors: 1, histogram: { bounds: [10], counts: [3, 2] } },
      { service: 's', source: 'ebpf', basis: 'spans', requests: 1, errors: 0, histogram: { bounds: [10], counts: [1, 0] } },
      { service: 's', source: 'otlp', basis: 'histogram', requests: 1, errors: 0, histogram: { bounds: [10], counts: [1, 0] } },
    ]);
  });
});

describe('bestViews', () => {
  const sv = (source: 'otlp' | 'ebpf', basis: 'spans' | 'histogram', requests: number, service = 's'): ServiceView => ({ service, source, basis, requests, errors: 0, histogram: { bounds: [], counts: [requests] } });

  it('on equal requests prefers SDK spans, then eBPF spans, then SDK histograms, then eBPF histograms, in any order given', () => {
    const all = [sv('ebpf', 'histogram', 10), sv('otlp', 'histogram', 10), sv('ebpf', 'spans', 10), sv('otlp', 'spans', 10)];
    const pick = (list: ServiceView[]) => { const b = bestViews(list).get('s')?.best; return `${b?.source}|${b?.basis}`; };
    expect(pick(all)).toBe('otlp|spans');
    expect(pick(all.slice(0, 3))).toBe('ebpf|spans');
    expect(pick(all.slice(0, 2))).toBe('otlp|histogram');
    expect(pick([...all].reverse().slice(1))).toBe('ebpf|spans');
  });

  it('more requests win over the preferred basis', () => {
    expect(bestViews([sv('otlp', 'spans', 10), sv('ebpf', 'histogram', 11)]).get('s')?.best.basis).toBe('histogram');
  });

  it('a view with at least half the best view\'s requests is eligible; fewer is not', () => {
    const r = bestViews([sv('otlp', 'spans', 100), sv('ebpf', 'histogram', 50), sv('ebpf', 'spans', 49)]).get('s');
    expect([...(r?.eligible ?? [])]).toEqual(['otlp|spans', 'ebpf|histogram']);
  });

  it('is per service', () => {
    const r = bestViews([sv('otlp', 'spans', 1, 'a'), sv('ebpf', 'spans', 5, 'b'), sv('otlp', 'spans', 9, 'b')]);
    expect([...r].map(([k, v]) => [k, v.best.requests, [...v.eligible]])).toEqual([['a', 1, ['otlp|spans']], ['b', 9, ['ebpf|spans', 'otlp|spans']]]);
  });
});

it('viewLabel names the source and the basis', () => {
  expect([viewLabel({ source: 'otlp', basis: 'spans' }), viewLabel({ source: 'ebpf', basis: 'histogram' }), viewLabel({ source: 'ebpf', basis: 'spans' }), viewLabel({ source: 'otlp', basis: 'histogram' })]).toEqual(['SDK spans', 'eBPF histogram', 'eBPF spans', 'SDK histogram']);
});
