import type { Database } from '../db.js';
import type { Source } from '../rows.js';
import type { Nanos, TimeRange } from '../../../core/time.js';
import { Where } from './filters.js';
import { errorSpanSql } from '../../otlp/span-error.js';

export type HealthStatus = 'healthy' | 'degraded' | 'unhealthy' | 'unknown';

/** Thresholds for service health; `silent` durations are measured back from the window's end. */
export const HEALTH_RULES = {
  degradedErrorRate: 0.02,
  unhealthyErrorRate: 0.1,
  /** Fewer server requests than this cannot make a service unhealthy on error rate alone. */
  minRequestsForRate: 10,
  degradedSilentNs: 2n * 60_000_000_000n,
  unhealthySilentNs: 5n * 60_000_000_000n,
} as const;

export interface ServiceInfo {
  serviceName: string;
  sources: Source[];
  firstSeenNs: Nanos;
  lastSeenNs: Nanos;
}

export interface ServiceHealth extends ServiceInfo {
  status: HealthStatus;
  /** Why the status is what it is, in words. */
  reasons: string[];
  requests: number;
  errors: number;
  errorRate: number;
  p95Ms: number | null;
}

/** The service registry: every service seen, by which sources, when first and last. */
export async function listServices(db: Database): Promise<ServiceInfo[]> {
  const rows = await db.query<{ service_name: string; sources: Source[]; first_seen: bigint; last_seen: bigint }>(
    `SELECT service_name, list(DISTINCT source ORDER BY source) AS sources,
       min(first_seen_ns) AS first_seen, max(last_seen_ns) AS last_seen
     FROM coral_services GROUP BY service_name ORDER BY service_name`,
  );
  return rows.map((r) => ({ serviceName: r.service_name, sources: r.sources, firstSeenNs: r.first_seen, lastSeenNs: r.last_seen }));
}

export function classifyHealth(h: Omit<ServiceHealth, 'status' | 'reasons'>, windowEndNs: Nanos): { status: HealthStatus; reasons: string[] } {
  const reasons: string[] = [];
  let status: HealthStatus = 'healthy';
  const worsen = (to: HealthStatus) => {
    if (to === 'unhealthy' || status === 'healthy') status = to;
  };
  const silentNs = windowEndNs - h.lastSeenNs;
  const silentMin = Number(silentNs / 1_000_000_000n) / 60;
  if (silentNs > HEALTH_RULES.unhealthySilentNs) {
    worsen('unhealthy');
    reasons.push(`no telemetry for ${silentMin.toFixed(1)} min`);
  } else if (silentNs > HEALTH_RULES.degradedSilentNs) {
    worsen('degraded');
    reasons.push(`no telemetry for ${silentMin.toFixed(1)} min`);
  }
  if (h.requests >= HEALTH_RULES.minRequestsForRate) {
    const pct = `${(h.errorRate * 100).toFixed(1)}% errors`;
    if (h.errorRate >= HEALTH_RULES.unhealthyErrorRate) {
      worsen('unhealthy');
      reasons.push(pct);
    } else if (h.errorRate >= HEALTH_RULES.degradedErrorRate) {
      worsen('degraded');
      reasons.push(pct);
    }
  }
  return { status, reasons };
}

/**
 * Health per service over a window: requests and errors from server-side spans (the SDK's when
 * present, else eBPF's), last seen from the registry. A service whose telemetry stops is unhealthy even with no errors.
 */
export async function serviceHealth(db: Database, range: TimeRange, service?: string): Promise<ServiceHealth[]> {
  const w = new Where();
  const svc = service === undefined ? null : w.bind(service);
  w.add(`kind IN ('SERVER', 'CONSUMER')`).range('start_ns', range);
  if (svc) w.add(`service_name = ${svc}`);
  const rows = await db.query<{
    service_name: string;
    sources: Source[];
    first_seen: bigint;
    last_seen: bigint;
    requests: number | null;
    errors: number | null;
    p95: number | null;
  }>(
    `WITH reg AS (
       SELECT service_name, list(DISTINCT source ORDER BY source) AS sources,
         min(first_seen_ns) AS first_seen, max(last_seen_ns) AS last_seen
       FROM coral_services ${svc ? `WHERE service_name = ${svc}` : ''} GROUP BY service_name
     ), by_source AS (
       SELECT service_name, source, count(*)::INTEGER AS requests,
         (count(*) FILTER (WHERE ${errorSpanSql()}))::INTEGER AS errors,
         quantile_cont(duration_ns, 0.95) AS p95
       FROM otel_traces WHERE ${w.sql()} GROUP BY service_name, source
     ), red AS (
       -- A request seen by both eBPF and the SDK counts once: the SDK's view when there is one.
       SELECT service_name, arg_max(requests, source = 'otlp') AS requests, arg_max(errors, source = 'otlp') AS errors,
         arg_max(p95, source = 'otlp') AS p95
       FROM by_source GROUP BY service_name
     )
     SELECT reg.*, red.requests, red.errors, red.p95 FROM reg LEFT JOIN red USING (service_name)
     ORDER BY reg.service_name`,
    w.params,
  );
  return rows.map((r) => {
    const requests = r.requests ?? 0;
    const errors = r.errors ?? 0;
    const base = {
      serviceName: r.service_name,
      sources: r.sources,
      firstSeenNs: r.first_seen,
      lastSeenNs: r.last_seen,
      requests,
      errors,
      errorRate: requests === 0 ? 0 : errors / requests,
      p95Ms: r.p95 === null ? null : r.p95 / 1e6,
    };
    return { ...base, ...classifyHealth(base, range.toNs) };
  });
}
