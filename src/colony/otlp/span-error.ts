import { GRPC_SERVER_ERROR_CODES } from '../../core/grpc.js';

/**
 * What makes a span an error: the one definition every reader uses (RED, operations, health, the
 * summary's minutes and own times, topology, trace search, the trace tree's marks), on both backends.
 *
 * The span's status decides when it has one: ERROR is an error, OK (set by the application, final) is
 * not. With no status (UNSET), the protocol's outcome decides, as the semantic conventions say an
 * instrumentation should have set it: HTTP 5xx, and 4xx on the client side (a server that answers 404
 * did its job); on the server side the gRPC codes of GRPC_SERVER_ERROR_CODES, on the client side any
 * code but OK. Proxies such as Envoy record `http.status_code` 500 and leave the status unset.
 */
export interface SpanOutcome {
  statusCode: string;
  kind: string;
  httpStatusCode: number | null;
  rpcStatusCode: number | null;
}

export function isErrorSpan(s: SpanOutcome): boolean {
  if (s.statusCode === 'ERROR') return true;
  if (s.statusCode === 'OK') return false;
  const client = s.kind === 'CLIENT';
  if (s.httpStatusCode !== null && s.httpStatusCode >= (client ? 400 : 500)) return true;
  if (s.rpcStatusCode !== null) return client ? s.rpcStatusCode !== 0 : GRPC_SERVER_ERROR_CODES.includes(s.rpcStatusCode);
  return false;
}

/** The columns the SQL form reads, by their names in DuckDB's otel_traces and the ClickHouse colony's span aliases. */
export const SPAN_OUTCOME_COLUMNS = ['status_code', 'kind', 'http_status_code', 'rpc_status_code'] as const;
export type SpanOutcomeColumn = (typeof SPAN_OUTCOME_COLUMNS)[number];

/**
 * isErrorSpan as a boolean SQL expression, the same text for DuckDB and ClickHouse (never NULL);
 * `col` names each column (a table prefix, or an expression over the exporter's columns).
 */
export function errorSpanSql(col: (c: SpanOutcomeColumn) => string = (c) => c): string {
  const [status, kind, http, rpc] = SPAN_OUTCOME_COLUMNS.map(col);
  return `(${status} = 'ERROR' OR (${status} != 'OK' AND coalesce(
    ${http} >= 500 OR (${kind} = 'CLIENT' AND ${http} >= 400)
    OR (${kind} = 'CLIENT' AND ${rpc} != 0) OR (${kind} != 'CLIENT' AND ${rpc} IN (${GRPC_SERVER_ERROR_CODES.join(', ')})), false)))`;
}
