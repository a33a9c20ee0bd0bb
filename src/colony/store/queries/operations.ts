import type { Database } from '../db.js';
import type { Source } from '../rows.js';
import type { TimeRange } from '../../../core/time.js';
import { Where } from './filters.js';
import { DURATION_METRICS, type Protocol, type SeriesDelta, histogramSeriesDeltas, isErrorSeries, msPerUnit } from './red.js';
import { LOG_BUCKETS_PER_DOUBLING } from '../../unified/stats.js';
import type { BucketCounts } from '../../unified/histogram.js';
import { errorSpanSql } from '../../otlp/span-error.js';
import { httpOperation } from '../../unified/names.js';

/**
 * Rows for the summary's per-operation view (a second backend only has to return the same rows):
 * every operation of every service in a window, as spans and as duration histograms saw it.
 */

/** One latency bucket of one operation as one source's spans saw it (see LOG_BUCKETS_PER_DOUBLING). */
export interface SpanBucketRow {
  service: string;
  source: Source;
  /** `server`: requests the service served (server and consumer spans); `db`: its database calls. */
  kind: 'server' | 'db';
  operation: string;
  bucket: number;
  requests: number;
  errors: number;
}

/**
 * names.ts httpOperation as SQL (the same text on both backends; ClickHouse's IN takes only
 * constants): the route, else a span name that is more than the method, else the method alone.
 */
const HTTP_OPERATION = `CASE WHEN http_route IS NOT NULL AND http_route <> '' THEN http_method || ' ' || http_route
    WHEN upper(name) = upper(http_method) OR upper(name) = 'HTTP ' || upper(http_method) OR upper(name) = 'HTTP' THEN http_method
    WHEN upper(left(name, length(http_method) + 1)) = upper(http_method) || ' ' THEN name
    ELSE http_method || ' ' || name END`;

export const OPERATION = `CASE WHEN kind = 'CLIENT' THEN coalesce(db_operation || ' ' || db_table, db_operation, name)
  WHEN rpc_method IS NOT NULL THEN coalesce(rpc_service || '/', '') || rpc_method
  WHEN http_method IS NOT NULL THEN ${HTTP_OPERATION}
  ELSE name END`;

export async function operationSpanBuckets(db: Database, range: TimeRange): Promise<SpanBucketRow[]> {
  const w = new Where().range('start_ns', range).add(`(kind IN ('SERVER', 'CONSUMER') OR (kind = 'CLIENT' AND db_system IS NOT NULL))`);
  return db.query<SpanBucketRow>(
    `SELECT service_name AS service, source, CASE WHEN kind = 'CLIENT' THEN 'db' ELSE 'server' END AS kind,
       ${OPERATION} AS operation,
       ceil(log2(greatest(duration_ns, 1000) / 1e6) * ${LOG_BUCKETS_PER_DOUBLING})::INTEGER AS bucket,
       count(*)::INTEGER AS requests, (count(*) FILTER (WHERE ${errorSpanSql()}))::INTEGER AS errors
     FROM otel_traces WHERE ${w.sql()} GROUP BY ALL ORDER BY service, source, kind, operation, bucket`,
    w.params,
  );
}

/** What one histogram series observed in the window, in milliseconds. */
export interface HistogramOperationRow {
  service: string;
  source: Source;
  kind: 'server' | 'db';
  operation: string;
  histogram: BucketCounts;
  /** Every observation of the series was a failed request (error status attributes). */
  failed: boolean;
}

export const PROTOCOL_OF = new Map<string, Protocol>(Object.entries(DURATION_METRICS).flatMap(([p, names]) => names.map((n) => [n, p as Protocol])));

export async function operationHistograms(db: Database, range: TimeRange): Promise<HistogramOperationRow[]> {
  const names = [...PROTOCOL_OF.keys()];
  const w = new Where().add('time_ns <= ?::BIGINT', range.toNs).add(`metric_name IN (${names.map(() => '?').join(', ')})`, ...names);
  return operationsFromDeltas(await histogramSeriesDeltas(db, w, range));
}

/** One row per series delta, named like the span-based operations (shared by both backends). */
export function operationsFromDeltas(rows: readonly SeriesDelta[]): HistogramOperationRow[] {
  return rows.map(({ series: s, delta }) => {
    const protocol = PROTOCOL_OF.get(s.metric_name) ?? 'http';
    const scale = msPerUnit(s.unit, s.metric_name);
    const operation = protocol === 'grpc'
      ? `${s.rpc_service ? `${s.rpc_service}/` : ''}${s.rpc_method ?? '?'}`
      : protocol === 'sql'
        ? [s.db_operation, s.db_table].filter(Boolean).join(' ') || 'query'
        : httpOperation(s.http_method, s.http_route);
    return {
      service: s.service_name,
      source: s.source,
      kind: protocol === 'sql' ? 'db' : 'server',
      operation,
      histogram: { bounds: delta.bounds.map((b) => b * scale), counts: delta.counts },
      failed: isErrorSeries(s, protocol),
    };
  });
}
