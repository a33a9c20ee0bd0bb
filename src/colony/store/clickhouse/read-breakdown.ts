import { ALL_SPANS, BREAKDOWN_SPANS, BUCKET, type BreakdownQuery, type BreakdownRow, MAX_VALUES_PER_KEY, OPERATION_MATCH, keysOf } from '../queries/breakdown.js';
import type { ChClient } from './client.js';
import { Conditions, inAnyRange, list, lit } from './sql.js';
import { type ChSchema, type SpanColumn, derived, spanAliases, table } from './views.js';
import { qualified } from './ddl.js';

const COLUMNS: readonly SpanColumn[] = ['name', 'kind', 'source', 'start_ns', 'duration_ns', 'status_code', 'http_method', 'http_route', 'http_status_code',
  'rpc_service', 'rpc_method', 'rpc_status_code', 'db_system', 'db_operation', 'db_table', 'peer_service', 'server_address'];

/** The first non-empty value among `names` of a map (a missing key reads as ''). */
function firstOf(map: string, names: readonly string[]): string {
  return `coalesce(${names.map((n) => `nullIf(${map}[${lit(n)}], '')`).join(', ')})`;
}

/**
 * The DuckDB read's rows (queries/breakdown.ts) straight over the exporter's table. Map lookups are
 * most of the cost, so: the spans are grouped first, by their resource's hash and every span key's
 * value (looked up in the span map cut down to the names read: one pass over it, not one per name);
 * each group's resource map is then fetched once (from the resource table where there is one, else
 * any span's) and its keys looked up; then one row per group and key by ARRAY JOIN, summed. Repeating
 * each span once per key before grouping cost ~3x the CPU.
 */
export async function breakdownRows(ch: ChClient, s: ChSchema, q: BreakdownQuery): Promise<BreakdownRow[]> {
  const ranges = [q.range, ...(q.baseline ? [q.baseline] : [])];
  const w = new Conditions().add(inAnyRange('Timestamp', ranges)).add('ServiceName = ?', q.service);
  if (q.operation !== undefined) w.add(OPERATION_MATCH, q.operation, q.operation, q.operation);
  else w.add(BREAKDOWN_SPANS);
  const keys = keysOf(q);
  const spanNames = keys.filter((k) => k.scope === 'span' && !k.column).flatMap((k) => k.names);
  const spanValues = keys.flatMap((k, i) => {
    if (k.scope !== 'span') return [];
    return [`${k.column ? `nullIf(toString(${k.column}), '')` : firstOf('span_map', k.names)} AS v${i}`];
  });
  const pairs = keys.map((k, i) => `(${lit(k.key)}, ${k.scope === 'resource' ? firstOf('resource', k.names) : `v${i}`})`);
  const period = `toInt32(start_ns > ${lit(q.range.fromNs)} AND start_ns <= ${lit(q.range.toNs)})`;
  const spanGroups = keys.flatMap((k, i) => (k.scope === 'span' ? [`v${i}`] : []));
  const groups = ['source', 'period', 'error', 'bucket', 'rh', ...spanGroups].join(', ');
  const stored = s.resourceTable !== null;
  const rh = stored ? derived(s, 'traces', 'resource_hash') : 'cityHash64(ResourceAttributes)';
  const grouped = `SELECT ${groups}, ${stored ? '' : 'any(resource_map) AS resource, '}count() AS n FROM (
      WITH ${spanAliases(s, COLUMNS).defs}
      SELECT source, ${period} AS period, status_code = 'ERROR' AS error, toInt32(${BUCKET}) AS bucket, ${rh} AS rh,
        ${[...(stored ? [] : ['ResourceAttributes AS resource_map']), `mapFilter((k, v) -> k IN ${list(spanNames)}, SpanAttributes) AS span_map`, ...spanValues].join(', ')}
      FROM ${table(s, 'traces')} WHERE ${w.sql()}
    ) GROUP BY ${groups}`;
  const withResources = stored
    ? `SELECT g.*, r.resource FROM (${grouped}) AS g
       LEFT JOIN (SELECT Hash, any(Resource) AS resource FROM ${qualified(s.database, s.resourceTable ?? '')} GROUP BY Hash) AS r ON g.rh = r.Hash`
    : grouped;
  const rows = await ch.query<BreakdownRow>(
    `SELECT key, value, source, period, error, bucket, spans FROM (
       SELECT key, value, source, period, error, bucket, spans,
         dense_rank() OVER (PARTITION BY key ORDER BY value_spans DESC, value) AS rank
       FROM (
         SELECT key, value, source, period, error, bucket, spans, sum(spans) OVER (PARTITION BY key, value) AS value_spans
         FROM (
           SELECT p.1 AS key, assumeNotNull(p.2) AS value, source, period, error, bucket, toInt32(sum(n)) AS spans
           FROM (SELECT ${['source', 'period', 'error', 'bucket', 'n', 'resource', ...spanGroups].join(', ')} FROM (${withResources}))
           ARRAY JOIN [(${lit(ALL_SPANS)}, toNullable('*')), ${pairs.join(', ')}] AS p
           WHERE p.2 IS NOT NULL
           GROUP BY key, value, source, period, error, bucket
         )
       )
     ) WHERE rank <= ${MAX_VALUES_PER_KEY}
     ORDER BY key, value, source, period, error, bucket`,
  );
  return rows.map((r) => ({ ...r, error: Boolean(r.error) }));
}
