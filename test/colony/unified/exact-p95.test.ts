import { describe, expect, it } from 'vitest';
import { histogramViews, spanViews } from '../../../src/colony/unified/operations.js';
import { compareServices } from '../../../src/colony/unified/summary.js';
import type { SpanP95Row } from '../../../src/colony/store/queries/span-percentiles.js';
import { health, input, op } from './summary-input.js';

/**
 * A P95 labelled as from spans is the spans' own (exact) P95, not the estimate from the log buckets
 * the significance test reads; a P95 from a histogram stays the histogram's and says so.
 */
const p95 = (operation: string | null, p95Ms: number, source: 'otlp' | 'ebpf' = 'otlp'): SpanP95Row => ({ service: 'a', source, kind: 'server', operation, p95Ms });
const one = (parts: Parameters<typeof input>[0] extends infer P ? Omit<P, 'health'> : never) => compareServices(input({ health: [health('a')], ...parts }))[0];

describe('the P95 shown beside "spans"', () => {
  it('is the spans\' exact P95 for the service and for an operation', () => {
    const opsPrev = spanViews([...op('a', 'GET /big', 10, 10000), ...op('a', 'GET /slow', 10, 300), ...op('a', 'GET /slower', 10, 300)]);
    const opsNow = spanViews([...op('a', 'GET /big', 10, 10000), ...op('a', 'GET /slow', 80, 300), ...op('a', 'GET /slower', 300, 300)]);
    const estimated = one({ opsPrev, opsNow });
    expect(estimated.signals).toEqual(['P95 15ms -> 72ms', 'GET /slower P95 15ms -> 396ms (300 requests, SDK spans)']);
    const exact = one({ opsPrev, opsNow, spanP95: { prev: [p95(null, 12.5), p95('GET /slower', 11)], now: [p95(null, 70.25), p95('GET /slower', 350)] } });
    expect(exact).toMatchObject({ p95Ms: 70.25, prevP95Ms: 12.5, basis: 'SDK spans', score: estimated.score });
    expect(exact.signals).toEqual(['P95 13ms -> 70ms', 'GET /slower P95 11ms -> 350ms (300 requests, SDK spans)']);
  });

  it('stays the histogram\'s for a view from histograms, whatever the spans say', () => {
    const h = (shares: number[]) => ({ bounds: [5, 10, 20, 40, 80, 160], counts: shares.map((x) => x * 10) });
    const row = (shares: number[]) => histogramViews([{ service: 'a', source: 'ebpf', kind: 'server', operation: 'GET /', failed: false, histogram: h(shares) }]);
    const c = one({ opsPrev: row([0, 10, 80, 10, 0, 0, 0]), opsNow: row([0, 0, 10, 10, 70, 10, 0]), spanP95: { prev: [p95(null, 1, 'ebpf')], now: [p95(null, 2, 'ebpf')] } });
    expect(c).toMatchObject({ signals: ['P95 30ms -> 120ms (eBPF histogram)'], basis: 'eBPF histogram', p95Ms: 120, prevP95Ms: 30 });
  });
});
