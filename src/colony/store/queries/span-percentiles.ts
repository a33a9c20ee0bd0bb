import type { Database } from '../db.js';
import type { Source } from '../rows.js';
import type { TimeRange } from '../../../core/time.js';
import { Where } from './filters.js';
import { OPERATION } from './operations.js';
import { STREAM_RPC_SQL } from '../../unified/streams.js';

/**
 * Exact P95s from spans, beside operationSpanBuckets: the buckets serve the summary's significance
 * tests, these the numbers it shows next to "spans", so a P95 labelled as from spans is one.
 */
export interface SpanP95Row {
  service: string;
  source: Source;
  kind: 'server' | 'db';
  /** null: every request of that kind the service handled (its service-level view), streams aside (unified/streams.ts). */
  operation: string | null;
  p95Ms: number;
}

/** The spans operationSpanBuckets counts, and its grouping; both backends share them. */
export const SPAN_P95_KINDS = `(kind IN ('SERVER', 'CONSUMER') OR (kind = 'CLIENT' AND db_system IS NOT NULL))`;

export async function operationSpanP95(db: Database, range: TimeRange): Promise<SpanP95Row[]> {
  const w = new Where().range('start_ns', range).add(SPAN_P95_KINDS);
  return db.query<SpanP95Row>(
    `WITH s AS (
       SELECT service_name AS service, source, CASE WHEN kind = 'CLIENT' THEN 'db' ELSE 'server' END AS k, ${OPERATION} AS operation, duration_ns,
         ${STREAM_RPC_SQL} AS stream
       FROM otel_traces WHERE ${w.sql()}
     )
     SELECT service, source, k AS kind, operation, (quantile_cont(duration_ns, 0.95) / 1e6)::DOUBLE AS "p95Ms" FROM s GROUP BY service, source, k, operation
     UNION ALL
     SELECT service, source, k, NULL, (quantile_cont(duration_ns, 0.95) / 1e6)::DOUBLE FROM s WHERE NOT stream GROUP BY service, source, k`,
    w.params,
  );
}
