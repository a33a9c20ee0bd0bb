import { describe, expect, it } from 'vitest';
import { bestViews, compareOperations, errorChange, histogramViews, serviceViews, spanViews } from '../../../src/colony/unified/operations.js';
import { serviceTimes } from '../../../src/colony/unified/self-time.js';
import { onsetMinute, triggeringEvent } from '../../../src/colony/unified/onset.js';
import { memoryResets, saturation } from '../../../src/colony/unified/saturation.js';
import type { CallSpanRow } from '../../../src/colony/store/queries/calls.js';
import type { SpanBucketRow } from '../../../src/colony/store/queries/operations.js';

const bucket = (ms: number) => Math.ceil(Math.log2(ms) * 4);
/** Span bucket rows: `n` requests of one operation near `ms`. */
const spans = (service: string, operation: string, ms: number, n: number, errors = 0, source: 'otlp' | 'ebpf' = 'otlp'): SpanBucketRow =>
  ({ service, source, kind: 'server', operation, bucket: bucket(ms), requests: n, errors });

describe('per-operation change detection', () => {
  it('finds one route that regressed while the service as a whole looks the same', () => {
    const prev = spanViews([spans('trip', 'GET /trips/{id}', 10, 300), spans('trip', 'POST /trips/{id}/complete', 400, 100)]);
    const now = spanViews([spans('trip', 'GET /trips/{id}', 75, 300), spans('trip', 'POST /trips/{id}/complete', 400, 100)]);
    const ops = compareOperations(now, prev);
    expect(ops.find((o) => o.operation === 'GET /trips/{id}')?.latency.slower).toBe(true);
    expect(ops.find((o) => o.operation === 'POST /trips/{id}/complete')?.latency.slower).toBe(false);
  });

  it('errors: new versus chronic versus noise', () => {
    expect(errorChange(150, 1000, 0, 1000)).toMatchObject({ rising: true, chronic: false });
    expect(errorChange(29, 1000, 24, 1000)).toMatchObject({ rising: false, chronic: true });
    expect(errorChange(2, 1000, 0, 1000)).toMatchObject({ rising: false, chronic: false });
    // No previous window at all: a high rate on enough requests stands out; a little noise does not.
    expect(errorChange(20, 100, 0, 0)).toMatchObject({ rising: true, chronic: false });
    expect(errorChange(4, 40, 0, 0).rising).toBe(false);
    expect(errorChange(30, 1000, 0, 0).rising).toBe(false);
  });

  it('the best source for a service is the one that saw the most requests; a sampled one only confirms', () => {
    const views = [
      ...spanViews([spans('dispatch', 'FindDriver', 2000, 5)]),
      ...histogramViews([{ service: 'dispatch', source: 'ebpf', kind: 'server', operation: 'FindDriver', histogram: { bounds: [100, 1000, 2500], counts: [0, 10, 90, 0] }, failed: false }]),
    ];
    const best = bestViews(serviceViews(views)).get('dispatch');
    expect(best?.best).toMatchObject({ source: 'ebpf', basis: 'histogram', requests: 100 });
    expect([...(best?.eligible ?? [])]).toEqual(['ebpf|histogram']);
  });
});

describe('self time and time spent in callees', () => {
  // rider-api (0..100 ms) calls trip-service (10..90 ms), which queries postgres (20..30 ms).
  const trace = (id: string, tripMs: number, opts: { callerGaveUp?: boolean } = {}): CallSpanRow[] => [
    { traceId: id, spanId: 'a', parentSpanId: '', service: 'rider-api', source: 'otlp', kind: 'SERVER', startMs: 0, durationMs: tripMs + 20, error: opts.callerGaveUp === true, peer: null },
    { traceId: id, spanId: 'b', parentSpanId: 'a', service: 'rider-api', source: 'otlp', kind: 'CLIENT', startMs: 10, durationMs: opts.callerGaveUp ? 50 : tripMs, error: opts.callerGaveUp === true, peer: 'trip-service' },
    { traceId: id, spanId: 'c', parentSpanId: 'b', service: 'trip-service', source: 'otlp', kind: 'SERVER', startMs: 10, durationMs: tripMs, error: false, peer: null },
    { traceId: id, spanId: 'd', parentSpanId: 'c', service: 'trip-service', source: 'otlp', kind: 'CLIENT', startMs: 20, durationMs: 10, error: false, peer: 'postgresql' },
  ];
  const known = new Set(['rider-api', 'trip-service']);

  it('subtracts time waiting on other services, keeps database time as the service\'s own', () => {
    const times = serviceTimes(trace('t1', 80), known);
    const rider = times.find((t) => t.service === 'rider-api');
    const trip = times.find((t) => t.service === 'trip-service');
    expect(rider?.self.sum).toBeCloseTo(20, 9);
    expect(rider?.callees.get('trip-service')).toMatchObject({ waitedMs: 80, calls: 1, abandoned: 0 });
    expect(trip?.self.sum).toBeCloseTo(80, 9);
  });

  it('counts a call the caller gave up on while the callee still answered as abandoned', () => {
    const rider = serviceTimes(trace('t2', 300, { callerGaveUp: true }), known).find((t) => t.service === 'rider-api');
    expect(rider?.callees.get('trip-service')).toMatchObject({ failedCalls: 1, abandoned: 1 });
  });

  it('a callee without spans of its own (sampled out) is still named by the caller\'s client span', () => {
    const rows = trace('t3', 80).filter((r) => r.service !== 'trip-service');
    expect(serviceTimes(rows, known).find((t) => t.service === 'rider-api')?.callees.get('trip-service')?.waitedMs).toBe(80);
  });
});

describe('onset and the change before it', () => {
  const minutes = (values: number[]) => values.map((v, minute) => ({ minute, requests: 100, errors: v, durationMs: 100 * 10 }));

  it('puts the onset at the step', () => {
    expect(onsetMinute(minutes([0, 1, 0, 0, 1, 0, 0, 0, 20, 22, 19, 21]), 'errors', 3)).toBe(8);
  });

  it('finds no onset in noise', () => {
    expect(onsetMinute(minutes([1, 0, 2, 1, 0, 1, 2, 0, 1, 1, 0, 2]), 'errors', 3)).toBeNull();
  });

  it('cites a deploy of the same service just before the onset, not one long before or of another service', () => {
    const MIN = 60_000_000_000n;
    const onset = 100n * MIN;
    const events = [
      { timeNs: onset - 2n * MIN, serviceName: 'trip-service', kind: 'deploy' as const, title: 'trip-service 4.12.0' },
      { timeNs: onset - 1n * MIN, serviceName: 'rider-api', kind: 'deploy' as const, title: 'rider-api 2.0' },
      { timeNs: onset - 30n * MIN, serviceName: 'dispatch', kind: 'deploy' as const, title: 'dispatch 1.1' },
    ];
    expect(triggeringEvent(events, 'trip-service', onset)?.title).toBe('trip-service 4.12.0');
    expect(triggeringEvent(events, 'dispatch', onset)).toBeNull();
  });
});

describe('saturation patterns', () => {
  const pts = (values: number[]) => values.map((value, i) => ({ timeNs: BigInt(i), value }));

  it('memory that climbs and resets is a leak with restarts, even when the latest point is low', () => {
    const memory = pts([100e6, 180e6, 260e6, 340e6, 90e6, 170e6, 250e6, 95e6]);
    expect(memoryResets(memory)).toBe(2);
    const f = saturation({ memory, prevMemory: pts([100e6, 101e6, 99e6]), cpu: [], prevCpu: [], lag: [], prevLag: [], restarts: 0, trafficRatio: 1 });
    expect(f.signals[0]).toMatch(/memory climbs 100 MB -> 340 MB and resets \(2 restarts\)/);
    expect(f.score).toBeGreaterThanOrEqual(20);
  });

  it('CPU that rises with the load is said so and not scored', () => {
    const f = saturation({ memory: [], prevMemory: [], cpu: pts([0.5, 0.5]), prevCpu: pts([0.2, 0.2]), lag: [], prevLag: [], restarts: 0, trafficRatio: 2.5 });
    expect(f.signals).toEqual(['CPU 20.0% -> 50.0%, with load']);
    expect(f.score).toBe(0);
  });
});

describe('error significance at low traffic', () => {
  it('12 failures in 110 requests after none in 110 is a rise; 3 after none is not', () => {
    expect(errorChange(12, 110, 0, 110).rising).toBe(true);
    expect(errorChange(3, 110, 0, 110).rising).toBe(false);
  });
});
