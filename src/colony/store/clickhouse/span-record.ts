import type { SpanRecord } from '../queries/spans.js';
import type { Source } from '../rows.js';

/** A span as the ClickHouse views return it with `detail` (see views.ts): its resource, or the resource's hash. */
export interface ChSpanRow {
  trace_id: string;
  span_id: string;
  parent_span_id: string;
  name: string;
  kind: string;
  service_name: string;
  source: Source;
  scope_name: string;
  start_ns: string | number;
  duration_ns: string | number;
  status_code: string;
  status_message: string;
  http_method: string | null;
  http_route: string | null;
  http_status_code: number | null;
  rpc_system: string | null;
  rpc_service: string | null;
  rpc_method: string | null;
  rpc_status_code: number | null;
  db_system: string | null;
  db_operation: string | null;
  db_table: string | null;
  db_statement: string | null;
  peer_service: string | null;
  server_address: string | null;
  attributes: Record<string, string>;
  resource_attributes?: Record<string, string>;
  resource_hash?: string;
  event_times: string[];
  event_names: string[];
  event_attributes: Record<string, string>[];
}

/**
 * The same record the DuckDB colony returns. Attribute values are strings here: the exporter's
 * Map(String, String) columns keep no types.
 */
export function toSpanRecord(r: ChSpanRow, resourceAttributes: Record<string, string>): SpanRecord {
  const startNs = BigInt(r.start_ns);
  const durationNs = BigInt(r.duration_ns);
  return {
    traceId: r.trace_id,
    spanId: r.span_id,
    parentSpanId: r.parent_span_id,
    name: r.name,
    kind: r.kind,
    serviceName: r.service_name,
    source: r.source,
    scopeName: r.scope_name,
    startNs,
    endNs: startNs + durationNs,
    durationMs: Number(durationNs) / 1e6,
    statusCode: r.status_code,
    statusMessage: r.status_message,
    httpMethod: r.http_method,
    httpRoute: r.http_route,
    httpStatusCode: r.http_status_code,
    rpcSystem: r.rpc_system,
    rpcService: r.rpc_service,
    rpcMethod: r.rpc_method,
    rpcStatusCode: r.rpc_status_code,
    dbSystem: r.db_system,
    dbOperation: r.db_operation,
    dbTable: r.db_table,
    dbStatement: r.db_statement,
    peerService: r.peer_service,
    serverAddress: r.server_address,
    attributes: r.attributes,
    resourceAttributes,
    events: r.event_times.map((t, i) => ({ time_ns: t, name: r.event_names[i], attributes: r.event_attributes[i] })),
  };
}
