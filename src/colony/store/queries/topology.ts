import type { Database } from '../db.js';
import type { Source } from '../rows.js';
import type { TimeRange } from '../../../core/time.js';
import { Where } from './filters.js';
import { errorSpanSql } from '../../otlp/span-error.js';

export interface TopologyEdge {
  from: string;
  to: string;
  /** `service` when the callee is a service the colony has seen; `external` for databases, caches and unknown peers. */
  kind: 'service' | 'external';
  protocol: 'http' | 'grpc' | 'sql' | 'messaging' | 'other';
  calls: number;
  errors: number;
  sources: Source[];
}

const SKEW_NS = 60_000_000_000n;

const PROTOCOL = `CASE WHEN c.db_system IS NOT NULL THEN 'sql'
  WHEN c.rpc_system IS NOT NULL OR c.rpc_method IS NOT NULL THEN 'grpc'
  WHEN c.http_method IS NOT NULL THEN 'http'
  WHEN c.kind = 'PRODUCER' THEN 'messaging' ELSE 'other' END`;

/**
 * Service dependencies from client and producer spans: the callee is the service whose server span
 * answered (its parent is the client span), else the peer the client named (a database, a cache,
 * or a service that never answered). eBPF and the SDK see the same calls, so each edge counts the
 * calls of the source that saw the most, never the sum.
 */
export async function topology(db: Database, range: TimeRange): Promise<TopologyEdge[]> {
  const w = new Where().add(`c.kind IN ('CLIENT', 'PRODUCER')`).range('c.start_ns', range);
  // Server spans start after their client span and end before it: only the window (plus a margin
  // for clock skew) can answer, which lets DuckDB skip the rest of the table.
  const from = w.bind(range.fromNs - SKEW_NS);
  const to = w.bind(range.toNs + SKEW_NS);
  return db.query<TopologyEdge>(
    `WITH servers AS (
       SELECT trace_id, parent_span_id, service_name, ${errorSpanSql()} AS failed FROM otel_traces
       WHERE kind IN ('SERVER', 'CONSUMER') AND start_ns > ${from}::BIGINT AND start_ns <= ${to}::BIGINT
     ), calls AS (
       SELECT c.span_id, c.service_name AS caller, c.source, ${PROTOCOL} AS protocol,
         coalesce(s.service_name, c.peer_service, c.server_address, c.db_system, c.rpc_service) AS callee,
         ${errorSpanSql((col) => `c.${col}`)} OR coalesce(s.failed, false) AS failed
       FROM otel_traces c LEFT JOIN servers s
         ON s.trace_id = c.trace_id AND s.parent_span_id = c.span_id AND s.service_name <> c.service_name
       WHERE ${w.sql()}
     ), per_source AS (
       SELECT caller, callee, source, any_value(protocol) AS protocol, count(DISTINCT span_id) AS calls,
         count(DISTINCT span_id) FILTER (WHERE failed) AS errors
       FROM calls WHERE callee IS NOT NULL AND callee <> caller GROUP BY caller, callee, source
     )
     SELECT caller AS "from", callee AS "to",
       CASE WHEN callee IN (SELECT service_name FROM coral_services) THEN 'service' ELSE 'external' END AS kind,
       any_value(protocol) AS protocol, max(calls)::INTEGER AS calls, max(errors)::INTEGER AS errors,
       list(source ORDER BY source) AS sources
     FROM per_source GROUP BY caller, callee ORDER BY 1, 2`,
    w.params,
  );
}
