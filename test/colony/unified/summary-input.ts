import { type SummaryInput } from '../../../src/colony/unified/summary.js';
import { addMoment, emptyMoments } from '../../../src/colony/unified/stats.js';
import type { ServiceTime } from '../../../src/colony/unified/self-time.js';
import type { ServiceHealth } from '../../../src/colony/store/queries/services.js';
import type { SpanBucketRow } from '../../../src/colony/store/queries/operations.js';
import type { MinuteRow } from '../../../src/colony/store/queries/timeline.js';

/** Hand-made summary inputs over two 30-minute windows, shared by the summary tests. */
export const MIN = 60_000_000_000n;
export const PREV_FROM = 1_000n * MIN;
export const FROM = PREV_FROM + 30n * MIN;
export const TO = FROM + 30n * MIN;

export const health = (serviceName: string): ServiceHealth => ({
  serviceName, sources: ['otlp'], firstSeenNs: PREV_FROM, lastSeenNs: TO, status: 'healthy', reasons: [], requests: 0, errors: 0, errorRate: 0, p95Ms: null,
});

/** `n` requests of one operation, spread over the lognormal-ish shape around `ms`, with `errors` failures. */
export function op(service: string, operation: string, ms: number, n: number, errors = 0, source: 'otlp' | 'ebpf' = 'otlp'): SpanBucketRow[] {
  const b = Math.ceil(Math.log2(ms) * 4);
  const share = [0.1, 0.2, 0.4, 0.2, 0.1];
  return share.map((s, i) => ({ service, source, kind: 'server' as const, operation, bucket: b - 2 + i, requests: Math.round(n * s), errors: Math.round(errors * s) }));
}

/** Per-service times from (duration, waited on callee) pairs repeated `n` times. */
export function times(service: string, n: number, durationMs: number, callee?: [string, number, number?]): ServiceTime {
  const t: ServiceTime = { service, source: 'otlp', duration: emptyMoments(), self: emptyMoments(), callees: new Map() };
  for (let i = 0; i < n; i++) {
    const jitter = (i % 5) - 2;
    addMoment(t.duration, durationMs + jitter);
    addMoment(t.self, durationMs + jitter - (callee?.[1] ?? 0));
  }
  if (callee) t.callees.set(callee[0], { waitedMs: callee[1] * n, calls: n, failedCalls: callee[2] ?? 0, abandoned: callee[2] ?? 0 });
  return t;
}

/** A per-minute series over both windows with a step at `stepMinute` (errors or latency). */
export function minutes(service: string, stepMinute: number | null, metric: 'errors' | 'latency'): MinuteRow[] {
  return Array.from({ length: 60 }, (_, minute) => {
    const bad = stepMinute !== null && minute >= stepMinute;
    return { service, source: 'otlp' as const, minute, requests: 100, errors: metric === 'errors' && bad ? 15 : minute % 7 === 0 ? 1 : 0, durationMs: 100 * (metric === 'latency' && bad ? 60 : 10 + (minute % 3)) };
  });
}

export function input(parts: Partial<SummaryInput> & Pick<SummaryInput, 'health'>): SummaryInput {
  return { windowSec: 1800, fromNs: FROM, toNs: TO, prevFromNs: PREV_FROM, opsNow: [], opsPrev: [], timesNow: [], timesPrev: [], minutes: [], gauges: [], events: [], ...parts };
}
