import type { Database } from '../db.js';
import type { Source } from '../rows.js';
import type { TimeRange } from '../../../core/time.js';
import { Where } from './filters.js';

export interface TopologyEdge {
  from: string;
  to: string;
  /** `service` when the callee's own spans were seen; `external` for databases, caches and unseen peers. */
  kind: 'service' | 'external';
  protocol: 'http' | 'grpc' | 'sql' | 'messaging' | 'other';
  calls: number;
  errors: number;
  sources: Source[];
}

const PROTOCOL = `CASE WHEN c.db_system IS NOT NULL THEN 'sql'
  WHEN c.rpc_system IS NOT NULL OR c.rpc_method IS NOT NULL THEN 'grpc'
  WHEN c.http_method IS NOT NULL THEN 'http'
  WHEN c.kind = 'PRODUCER' THEN 'messaging' ELSE 'other' END`;

/**
 * Service dependencies from client->server span pairs (the server span's parent is the client
 * span), plus client spans no server answered in our data: databases, caches, unseen services.
 * Calls count client spans, so a request seen by both eBPF and the SDK counts once.
 */
export async function topology(db: Database, range: TimeRange): Promise<TopologyEdge[]> {
  const w = new Where().add(`c.kind IN ('CLIENT', 'PRODUCER')`).range('c.start_ns', range);
  const rows = await db.query<TopologyEdge>(
    `WITH calls AS (
       SELECT c.trace_id, c.span_id, c.service_name AS caller, c.status_code = 'ERROR' AS failed, c.source,
         ${PROTOCOL} AS protocol,
         coalesce(c.peer_service, c.db_system, c.server_address, c.rpc_service) AS peer
       FROM otel_traces c WHERE ${w.sql()}
     ), answered AS (
       SELECT calls.*, s.service_name AS callee, s.status_code = 'ERROR' AS server_failed
       FROM calls JOIN otel_traces s ON s.trace_id = calls.trace_id AND s.parent_span_id = calls.span_id
       WHERE s.kind IN ('SERVER', 'CONSUMER') AND s.service_name <> calls.caller
     )
     SELECT caller AS "from", callee AS "to", 'service' AS kind, any_value(protocol) AS protocol,
       count(DISTINCT span_id)::INTEGER AS calls,
       (count(DISTINCT span_id) FILTER (WHERE failed OR server_failed))::INTEGER AS errors,
       list(DISTINCT source ORDER BY source) AS sources
     FROM answered GROUP BY caller, callee
     UNION ALL
     SELECT caller, peer, 'external', any_value(protocol), count(*)::INTEGER,
       (count(*) FILTER (WHERE failed))::INTEGER, list(DISTINCT source ORDER BY source)
     FROM calls WHERE peer IS NOT NULL AND NOT EXISTS (
       SELECT 1 FROM answered a WHERE a.trace_id = calls.trace_id AND a.span_id = calls.span_id)
     GROUP BY caller, peer
     ORDER BY 1, 2`,
    w.params,
  );
  return rows;
}
