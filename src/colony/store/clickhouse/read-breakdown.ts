import { ALL_SPANS, BREAKDOWN_SPANS, BUCKET, type BreakdownQuery, type BreakdownRow, MAX_VALUES_PER_KEY, OPERATION_MATCH, keysOf } from '../queries/breakdown.js';
import type { ChClient } from './client.js';
import { Conditions, inAnyRange, lit } from './sql.js';
import { type ChSchema, type SpanColumn, spanAliases, table } from './views.js';

const COLUMNS: readonly SpanColumn[] = ['name', 'kind', 'source', 'start_ns', 'duration_ns', 'status_code', 'http_method', 'http_route', 'http_status_code',
  'rpc_service', 'rpc_method', 'rpc_status_code', 'db_system', 'db_operation', 'db_table', 'peer_service', 'server_address'];

/** The first non-empty value among `names` of an exporter map (a missing key reads as ''). */
function firstOf(map: string, names: readonly string[]): string {
  return `coalesce(${names.map((n) => `nullIf(${map}[${lit(n)}], '')`).join(', ')})`;
}

/**
 * The DuckDB read's rows (queries/breakdown.ts) straight over the exporter's table: one row per span
 * and key by ARRAY JOIN of (key, value) tuples, values from the promoted columns or the maps.
 */
export async function breakdownRows(ch: ChClient, s: ChSchema, q: BreakdownQuery): Promise<BreakdownRow[]> {
  const ranges = [q.range, ...(q.baseline ? [q.baseline] : [])];
  const w = new Conditions().add(inAnyRange('Timestamp', ranges)).add('ServiceName = ?', q.service).add('p.2 IS NOT NULL');
  if (q.operation !== undefined) w.add(OPERATION_MATCH, q.operation, q.operation, q.operation);
  else w.add(BREAKDOWN_SPANS);
  const pairs = keysOf(q).map((k) => {
    const v = k.column ? `nullIf(toString(${k.column}), '')` : firstOf(k.scope === 'resource' ? 'ResourceAttributes' : 'SpanAttributes', k.names);
    return `(${lit(k.key)}, ${v})`;
  });
  const period = `toInt32(start_ns > ${lit(q.range.fromNs)} AND start_ns <= ${lit(q.range.toNs)})`;
  const rows = await ch.query<BreakdownRow>(
    `SELECT key, value, source, period, error, bucket, spans FROM (
       SELECT key, value, source, period, error, bucket, spans,
         dense_rank() OVER (PARTITION BY key ORDER BY value_spans DESC, value) AS rank
       FROM (
         SELECT key, value, source, period, error, bucket, spans, sum(spans) OVER (PARTITION BY key, value) AS value_spans
         FROM (
           WITH ${spanAliases(s, COLUMNS).defs}
           SELECT p.1 AS key, assumeNotNull(p.2) AS value, source, ${period} AS period, status_code = 'ERROR' AS error,
             toInt32(${BUCKET}) AS bucket, toInt32(count()) AS spans
           FROM ${table(s, 'traces')}
           ARRAY JOIN [(${lit(ALL_SPANS)}, toNullable('*')), ${pairs.join(', ')}] AS p
           WHERE ${w.sql()}
           GROUP BY key, value, source, period, error, bucket
         )
       )
     ) WHERE rank <= ${MAX_VALUES_PER_KEY}
     ORDER BY key, value, source, period, error, bucket`,
  );
  return rows.map((r) => ({ ...r, error: Boolean(r.error) }));
}
