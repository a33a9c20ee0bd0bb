import type { TimeRange } from '../../../core/time.js';
import { OPERATION } from '../queries/operations.js';
import { STREAM_RPC_SQL } from '../../unified/streams.js';
import { SPAN_P95_KINDS, type SpanP95Row } from '../queries/span-percentiles.js';
import type { ChClient } from './client.js';
import { inRange } from './sql.js';
import { spans } from './views.js';
import type { ChSchema } from './views.js';

/** queries/span-percentiles.ts on ClickHouse: quantileExactInclusive interpolates as DuckDB's quantile_cont. */
export async function operationSpanP95(ch: ChClient, s: ChSchema, range: TimeRange): Promise<SpanP95Row[]> {
  const view = `(SELECT service_name AS service, source, if(kind = 'CLIENT', 'db', 'server') AS k, ${OPERATION} AS operation, duration_ns, ${STREAM_RPC_SQL} AS stream
    FROM ${spans(s, inRange('Timestamp', range), ['service_name', 'source', 'kind', 'name', 'duration_ns', 'http_method', 'http_route', 'rpc_service', 'rpc_method', 'db_system', 'db_operation', 'db_table'])}
    WHERE ${SPAN_P95_KINDS})`;
  return ch.query<SpanP95Row>(
    `SELECT service, source, k AS kind, CAST(operation AS Nullable(String)) AS operation, toFloat64(quantileExactInclusive(0.95)(duration_ns) / 1e6) AS p95Ms
     FROM ${view} GROUP BY service, source, k, operation
     UNION ALL
     SELECT service, source, k AS kind, CAST(NULL AS Nullable(String)) AS operation, toFloat64(quantileExactInclusive(0.95)(duration_ns) / 1e6) AS p95Ms
     FROM ${view} WHERE NOT stream GROUP BY service, source, k`,
  );
}
