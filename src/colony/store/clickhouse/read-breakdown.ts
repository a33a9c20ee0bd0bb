import { ALL_SPANS, BREAKDOWN_SPANS, BUCKET, type BreakdownQuery, type BreakdownRow, MAX_VALUES_PER_KEY, OPERATION_MATCH, keysOf } from '../queries/breakdown.js';
import type { ChClient } from './client.js';
import { Conditions, inAnyRange, list, lit } from './sql.js';
import { type ChSchema, type SpanColumn, derived, spanAliases, table } from './views.js';
import { qualified } from './ddl.js';
import { errorSpanSql } from '../../otlp/span-error.js';

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
 * each span once per key before grouping cost ~3x the CPU. On a demo-sized table planning is most of
 * the time, so the query keeps few scopes: a span's latency bucket, window, failure and source travel
 * as one integer (a cell) and each value's cells come back as one sumMap, its 50-value cap a LIMIT BY.
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
  const period = `(start_ns > ${lit(q.range.fromNs)} AND start_ns <= ${lit(q.range.toNs)})`;
  const spanGroups = keys.flatMap((k, i) => (k.scope === 'span' ? [`v${i}`] : []));
  const groups = ['cell', 'rh', ...spanGroups].join(', ');
  const stored = s.resourceTable !== null;
  const rh = stored ? derived(s, 'traces', 'resource_hash') : 'cityHash64(ResourceAttributes)';
  const cell = `(toInt32(${BUCKET}) + ${BUCKET_OFFSET}) * 8 + ${period} * 4 + (${errorSpanSql()}) * 2 + (source = 'ebpf')`;
  const grouped = `WITH ${spanAliases(s, COLUMNS).defs}, mapFilter((k, v) -> k IN ${list(spanNames)}, SpanAttributes) AS span_map
      SELECT ${[`${cell} AS cell`, `${rh} AS rh`, ...spanValues, ...(stored ? [] : ['any(ResourceAttributes) AS resource']), 'count() AS n'].join(', ')}
      FROM ${table(s, 'traces')} WHERE ${w.sql()}
      GROUP BY ${groups}`;
  const from = stored
    ? `(${grouped}) AS g LEFT JOIN (SELECT Hash, any(Resource) AS resource FROM ${qualified(s.database, s.resourceTable ?? '')} GROUP BY Hash) AS r ON g.rh = r.Hash`
    : `(${grouped})`;
  const rows = await ch.query<{ key: string; value: string; cells: [number[], (number | string)[]] }>(
    `SELECT p.1 AS key, assumeNotNull(p.2) AS value, sumMap([cell], [n]) AS cells, sum(n) AS total
     FROM ${from}
     ARRAY JOIN [${[`(${lit(ALL_SPANS)}, toNullable('*'))`, ...pairs].join(', ')}] AS p
     WHERE p.2 IS NOT NULL
     GROUP BY key, value ORDER BY key, total DESC, value LIMIT ${MAX_VALUES_PER_KEY} BY key`,
  );
  return rows.flatMap(({ key, value, cells: [codes, counts] }) => codes.map((code, i) => decodeCell(key, value, code, Number(counts[i])))).sort(byRow);
}

/** Cells are one integer (sumMap keys): log bucket (offset to stay positive), period, failure, source, low bits last. */
const BUCKET_OFFSET = 1024;

function decodeCell(key: string, value: string, code: number, spans: number): BreakdownRow {
  return { key, value, source: code & 1 ? 'ebpf' : 'otlp', period: (code >> 2) & 1, error: ((code >> 1) & 1) === 1, bucket: Math.floor(code / 8) - BUCKET_OFFSET, spans };
}

/** The DuckDB read's order: key, value, source, period, failure, bucket. */
function byRow(a: BreakdownRow, b: BreakdownRow): number {
  const text = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return text(a.key, b.key) || text(a.value, b.value) || text(a.source, b.source) || a.period - b.period || Number(a.error) - Number(b.error) || a.bucket - b.bucket;
}
