import { ALL_SPANS, BREAKDOWN_SPANS, BUCKET, type BreakdownQuery, type BreakdownRow, MAX_VALUES_PER_KEY, OPERATION_MATCH, keysOf } from '../queries/breakdown.js';
import type { ChClient } from './client.js';
import { Conditions, inAnyRange, list, lit } from './sql.js';
import { type ChSchema, type SpanColumn, derived, spanAliases, table } from './views.js';
import { resourcesByHash } from './resources.js';
import type { TraceReadCache } from './trace-read-cache.js';
import { errorSpanSql } from '../../otlp/span-error.js';

const COLUMNS: readonly SpanColumn[] = ['name', 'kind', 'source', 'start_ns', 'duration_ns', 'status_code', 'http_method', 'http_route', 'http_status_code',
  'rpc_service', 'rpc_method', 'rpc_status_code', 'db_system', 'db_operation', 'db_table', 'peer_service', 'server_address'];

/** The first non-empty value among `names` of a map (a missing key reads as ''). */
function firstOf(map: string, names: readonly string[]): string {
  return `coalesce(${names.map((n) => `nullIf(${map}[${lit(n)}], '')`).join(', ')})`;
}

/**
 * The DuckDB read's rows (queries/breakdown.ts) over the exporter's table. Map lookups are most of
 * the cost, so the spans are grouped in ClickHouse by their resource's hash and every span key's
 * value (looked up in the span map cut down to the names read: one pass over it, not one per name),
 * a span's latency bucket, window, failure and source travelling as one integer (a cell). Each
 * group's resource map is then fetched once (from the resource table where there is one, through the
 * trace reads' cache, else any span's), and the few thousand groups are unfolded per key and value
 * here. On a demo-sized table planning was most of a query's time (~24 of ~36 ms): unfolding them in
 * the query as well (ARRAY JOIN, sumMap, LIMIT BY) cost ~10 ms more planning than it does here.
 */
export async function breakdownRows(ch: ChClient, s: ChSchema, q: BreakdownQuery, cache?: TraceReadCache): Promise<BreakdownRow[]> {
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
  const period = `(start_ns > ${lit(q.range.fromNs)} AND start_ns <= ${lit(q.range.toNs)})`;
  const spanGroups = keys.flatMap((k, i) => (k.scope === 'span' ? [`v${i}`] : []));
  const stored = s.resourceTable !== null;
  const rh = stored ? derived(s, 'traces', 'resource_hash') : 'cityHash64(ResourceAttributes)';
  const cell = `(toInt32(${BUCKET}) + ${BUCKET_OFFSET}) * 8 + ${period} * 4 + (${errorSpanSql()}) * 2 + (source = 'ebpf')`;
  const groups = await ch.query<GroupRow>(
    `WITH ${spanAliases(s, COLUMNS).defs}${spanNames.length > 0 ? `, mapFilter((k, v) -> k IN ${list(spanNames)}, SpanAttributes) AS span_map` : ''}
     SELECT ${[`${cell} AS cell`, `toString(${rh}) AS rh`, ...spanValues, ...(stored ? [] : ['any(ResourceAttributes) AS resource']), 'count() AS n'].join(', ')}
     FROM ${table(s, 'traces')} WHERE ${w.sql()}
     GROUP BY ${['cell', 'rh', ...spanGroups].join(', ')}`,
  );
  const resources = stored ? await resourceMaps(ch, s, cache, groups) : null;
  const byKey = new Map<string, Map<string, ValueCells>>();
  const add = (key: string, value: string, cellCode: number, n: number) => {
    let values = byKey.get(key);
    if (!values) byKey.set(key, (values = new Map()));
    let v = values.get(value);
    if (!v) values.set(value, (v = { total: 0, cells: new Map() }));
    v.total += n;
    v.cells.set(cellCode, (v.cells.get(cellCode) ?? 0) + n);
  };
  for (const g of groups) {
    const n = Number(g.n);
    const resource = (resources ? resources.get(g.rh) : g.resource) ?? {};
    add(ALL_SPANS, '*', g.cell, n);
    keys.forEach((k, i) => {
      const v = k.scope === 'resource' ? firstNonEmpty(resource, k.names) : (g[`v${i}`] as string | null);
      if (v !== null && v !== undefined && v !== '') add(k.key, v, g.cell, n);
    });
  }
  const out: BreakdownRow[] = [];
  for (const [key, values] of byKey) {
    // The most frequent values first (ties by value), at most MAX_VALUES_PER_KEY of them: as the DuckDB read ranks them.
    const kept = [...values].sort(([a, x], [b, y]) => y.total - x.total || (a < b ? -1 : a > b ? 1 : 0)).slice(0, MAX_VALUES_PER_KEY);
    for (const [value, v] of kept) for (const [code, spans] of v.cells) out.push(decodeCell(key, value, code, spans));
  }
  return out.sort(byRow);
}

interface GroupRow {
  cell: number;
  rh: string;
  n: number | string;
  resource?: Record<string, string>;
  [v: `v${number}`]: string | null;
}

interface ValueCells {
  total: number;
  cells: Map<number, number>;
}

/** The first non-empty value among `names` of a resource map (queries/breakdown.ts firstOf). */
function firstNonEmpty(map: Record<string, string>, names: readonly string[]): string | null {
  for (const n of names) if (map[n]) return map[n];
  return null;
}

/** Each group's resource map by its hash, from the trace reads' cache and then the resource table (a hash not there reads as no attributes). */
async function resourceMaps(ch: ChClient, s: ChSchema, cache: TraceReadCache | undefined, groups: readonly GroupRow[]): Promise<Map<string, Record<string, string>>> {
  const hashes = [...new Set(groups.map((g) => g.rh))];
  const { found, missing } = cache ? cache.cachedResources(hashes) : { found: new Map<string, Record<string, string>>(), missing: hashes };
  if (missing.length === 0) return found;
  const fetched = await resourcesByHash(ch, s.database, s.resourceTable ?? '', missing);
  cache?.remember(fetched);
  for (const [h, r] of fetched) found.set(h, r);
  return found;
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
