import type { TimeRange } from '../../../core/time.js';
import { msToNs } from '../../../core/time.js';
import type { Source } from '../rows.js';
import {
  DURATION_METRICS,
  GRPC_ERRORS,
  type HistogramSeries,
  type KeyColumns,
  type Protocol,
  type RedRow,
  type SeriesDelta,
  applyFilters,
  deltasInWindow,
  redFromSeriesDeltas,
  spanRedRow,
} from '../queries/red.js';
import type { SpanRecord, TraceSearch, TraceSearchResult } from '../queries/spans.js';
import { type HistogramOperationRow, OPERATION, PROTOCOL_OF, type SpanBucketRow, operationsFromDeltas } from '../queries/operations.js';
import type { CallSpanRow } from '../queries/calls.js';
import type { MinuteRow } from '../queries/timeline.js';
import { LOG_BUCKETS_PER_DOUBLING } from '../../unified/stats.js';
import type { ChClient } from './client.js';
import { Conditions, inRange, instant, lit, list } from './sql.js';
import { type ChSchema, SPAN_DETAIL, type SpanColumn, histograms, spans, table } from './views.js';
import { RESOURCE_HASH } from './derived.js';
import { resourcesByHash } from './resources.js';
import type { TraceReadCache } from './trace-read-cache.js';
import { qualified } from './ddl.js';
import { type ChSpanRow, toSpanRecord } from './span-record.js';
import type { RedAnswers, RedAsked, RedBase } from './batch.js';

/** Per protocol: which spans it counts, its group keys (the others are NULL) and what an error is. */
const SPAN_SHAPE: Record<Protocol, { where: string; keys: Partial<Record<(typeof KEYS)[number], string>>; error: string }> = {
  http: {
    where: `kind = 'SERVER' AND http_method IS NOT NULL`,
    keys: { k_http_route: 'coalesce(http_route, name)', k_http_method: 'http_method' },
    error: `http_status_code >= 500 OR (http_status_code IS NULL AND status_code = 'ERROR')`,
  },
  grpc: {
    where: `kind = 'SERVER' AND rpc_method IS NOT NULL`,
    keys: { k_rpc_service: 'rpc_service', k_rpc_method: 'rpc_method' },
    error: `rpc_status_code IN ${GRPC_ERRORS} OR (rpc_status_code IS NULL AND status_code = 'ERROR')`,
  },
  sql: {
    where: `kind = 'CLIENT' AND db_system IS NOT NULL`,
    keys: { k_db_system: 'db_system', k_db_operation: 'db_operation', k_db_table: 'db_table' },
    error: `status_code = 'ERROR'`,
  },
};

/** Group keys aliased apart from the view's columns (ClickHouse forbids an alias that shadows its own input). */
const KEYS = ['k_http_route', 'k_http_method', 'k_rpc_service', 'k_rpc_method', 'k_db_system', 'k_db_operation', 'k_db_table'] as const;

const RED_COLUMNS: readonly SpanColumn[] = ['name', 'kind', 'source', 'duration_ns', 'status_code', 'http_method', 'http_route', 'http_status_code',
  'rpc_service', 'rpc_method', 'rpc_status_code', 'db_system', 'db_operation', 'db_table'];

type KRow = { source: Source } & Record<(typeof KEYS)[number], string | null>;

function keyColumns(r: KRow): KeyColumns {
  return {
    source: r.source,
    http_route: r.k_http_route,
    http_method: r.k_http_method,
    rpc_service: r.k_rpc_service,
    rpc_method: r.k_rpc_method,
    db_system: r.k_db_system,
    db_operation: r.k_db_operation,
    db_table: r.k_db_table,
  };
}

/** The value `pick` gives for the row's protocol `p` (the protocol's index in `protocols`), NULL where it gives none. */
function perProtocol(protocols: readonly Protocol[], pick: (p: Protocol) => string | undefined): string {
  const branches = protocols.flatMap((p, i) => {
    const v = pick(p);
    return v === undefined ? [] : [`p = ${i}`, v];
  });
  return branches.length === 0 ? 'NULL' : `multiIf(${branches.join(', ')}, NULL)`;
}

/** A query over one source and how its rows become the answer; `order` is kept apart so the query can be one part of another. */
interface Part<T> {
  select: string;
  order: string | null;
  read(rows: readonly unknown[]): T;
}

type SpanRedRow = KRow & { p: number; requests: number; errors: number; q: number[] };

/**
 * Exact percentiles: quantileExactInclusive interpolates like DuckDB's quantile_cont (checked in the
 * tests). Several protocols from one pass over the spans: each span is repeated once per protocol it
 * counts for (ARRAY JOIN), rows in each protocol's own order.
 */
function spanRed(s: ChSchema, q: RedBase, protocols: readonly Protocol[]): Part<Map<Protocol, RedRow[]>> {
  const inner = new Conditions().add(inRange('Timestamp', q.range)).add('ServiceName = ?', q.service);
  const w = new Conditions();
  w.maybe(q.source, 'source = ?');
  applyFilters(w, q);
  const members = protocols.map((p) => `(${SPAN_SHAPE[p].where})`);
  const keys = KEYS.map((k) => `${perProtocol(protocols, (p) => SPAN_SHAPE[p].keys[k])} AS ${k}`);
  return {
    select: `SELECT p, source, ${keys.join(', ')}, toInt32(count()) AS requests,
       toInt32(countIf(ifNull(${perProtocol(protocols, (p) => SPAN_SHAPE[p].error)}, false))) AS errors,
       quantilesExactInclusive(0.5, 0.95, 0.99)(duration_ns) AS q
     FROM ${spans(s, inner.sql(), RED_COLUMNS)}
     ARRAY JOIN [${members.join(', ')}] AS member, [${protocols.map((_, i) => i).join(', ')}] AS p
     WHERE member AND ${w.sql()}
     GROUP BY p, source, ${KEYS.join(', ')}`,
    order: `p, requests DESC, source, ${KEYS.join(', ')}`,
    read: (rows) => {
      const all = rows as SpanRedRow[];
      return new Map(protocols.map((p, i) => [p, all.filter((r) => r.p === i).map((r) => spanRedRow(keyColumns(r), p, r))]));
    },
  };
}

async function run<T>(ch: ChClient, part: Part<T>): Promise<T> {
  return part.read(await ch.query(part.order === null ? part.select : `${part.select} ORDER BY ${part.order}`));
}

/**
 * Two parts as one query, each row serialized by ClickHouse itself (formatRow) so the two row shapes
 * can share a UNION: embedded ClickHouse runs one query at a time, and each query pays its planning.
 */
async function runBoth<A, B>(ch: ChClient, a: Part<A>, b: Part<B>): Promise<[A, B]> {
  const numbered = (i: number, part: Part<unknown>) =>
    `SELECT toUInt8(${i}) AS part, ${part.order === null ? 'toUInt64(0)' : `toUInt64(row_number() OVER (ORDER BY ${part.order}))`} AS n,
       formatRowNoNewline('JSONEachRow', *) AS row FROM (${part.select})`;
  const rows = await ch.query<{ part: number; row: string }>(`SELECT part, row FROM (${numbered(0, a)} UNION ALL ${numbered(1, b)}) ORDER BY part, n`);
  const of = (i: number) => rows.filter((r) => r.part === i).map((r) => JSON.parse(r.row) as unknown);
  return [a.read(of(0)), b.read(of(1))];
}

/** Per-series attributes, taken from any point. */
const SERIES_FIELDS = ['service_name', 'source', 'metric_name', 'unit', 'temporality', 'http_route', 'http_method', 'http_status_code', 'rpc_service', 'rpc_method',
  'rpc_status_code', 'db_system', 'db_operation', 'db_table', 'error_type'] as const;

type SeriesFields = Pick<HistogramSeries, (typeof SERIES_FIELDS)[number]>;

/** One point of a series: its bucket counts, bounds, start and time (nanoseconds as text). */
type Snapshot = [number[], number[], string, string];

interface ChSeriesRow {
  series_key: string;
  /** SERIES_FIELDS in order. */
  fields: SeriesFields[keyof SeriesFields][];
  n_after: number;
  n_before: number;
  last: Snapshot;
  before: Snapshot;
  first: Snapshot;
  window_counts: number[][];
}

/**
 * The same per-series snapshots as the DuckDB query; the window arithmetic is the shared deltasInWindow.
 * Each snapshot is one aggregate over a tuple and the attributes one `any` over a tuple: ClickHouse's
 * analysis of a query costs about as much per aggregate as a demo-sized table costs to read.
 */
function seriesDeltas(s: ChSchema, outer: Conditions, range: TimeRange): Part<SeriesDelta[]> {
  const snapshot = '(bucket_counts, bounds, toString(start_ns), toString(time_ns))';
  return {
    select: `SELECT series_key, any((${SERIES_FIELDS.join(', ')})) AS fields,
       toInt32(countIf(after)) AS n_after, toInt32(countIf(NOT after)) AS n_before,
       argMaxIf(${snapshot}, time_ns, after) AS last, argMaxIf(${snapshot}, time_ns, NOT after) AS before,
       argMinIf(${snapshot}, time_ns, after) AS first, groupArrayIf(bucket_counts, after AND temporality = 'delta') AS window_counts
     FROM (SELECT *, time_ns > ${lit(range.fromNs)} AS after FROM ${histograms(s, `TimeUnix <= ${instant(range.toNs)}`)} WHERE ${outer.sql()})
     GROUP BY series_key`,
    order: null,
    read: (rows) => deltasInWindow((rows as ChSeriesRow[]).map(toSeries), range),
  };
}

/** ClickHouse's -If aggregates give defaults, not NULL, over no rows: the counts say which snapshots exist. */
function toSeries(r: ChSeriesRow): HistogramSeries {
  const fields = Object.fromEntries(SERIES_FIELDS.map((f, i) => [f, r.fields[i]])) as SeriesFields;
  const snap = (x: Snapshot, present: boolean) => (present
    ? { counts: x[0], bounds: x[1], start: BigInt(x[2]), time: BigInt(x[3]) }
    : { counts: null, bounds: null, start: null, time: null });
  const last = snap(r.last, r.n_after > 0);
  const first = snap(r.first, r.n_after > 0);
  const before = snap(r.before, r.n_before > 0);
  return {
    ...fields,
    series_key: r.series_key,
    last_counts: last.counts,
    last_bounds: last.bounds,
    last_start: last.start,
    last_time: last.time,
    first_counts: first.counts,
    first_bounds: first.bounds,
    first_start: first.start,
    first_time: first.time,
    before_counts: before.counts,
    before_bounds: before.bounds,
    before_start: before.start,
    before_time: before.time,
    window_counts: r.window_counts.length > 0 ? r.window_counts : null,
  };
}

/** RED from duration histograms: each duration metric belongs to one protocol. */
function histogramRed(s: ChSchema, q: RedBase, protocols: readonly Protocol[]): Part<Map<Protocol, RedRow[]>> {
  const w = new Conditions().add('service_name = ?', q.service).add(`metric_name IN ${list(protocols.flatMap((p) => DURATION_METRICS[p]))}`);
  w.maybe(q.source, 'source = ?');
  applyFilters(w, q);
  const part = seriesDeltas(s, w, q.range);
  return {
    ...part,
    read: (rows) => {
      const deltas = part.read(rows);
      return new Map(protocols.map((p) => [p, redFromSeriesDeltas(deltas.filter((d) => DURATION_METRICS[p].includes(d.series.metric_name)), p)]));
    },
  };
}

/** The RED questions of one tick (batch.ts), from spans and histograms, in one query when both are asked. */
export async function red(ch: ChClient, s: ChSchema, q: RedBase, asked: RedAsked): Promise<RedAnswers> {
  const none = new Map<Protocol, RedRow[]>();
  if (asked.histograms.length === 0) return { spans: await run(ch, spanRed(s, q, asked.spans)), histograms: none };
  if (asked.spans.length === 0) return { spans: none, histograms: await run(ch, histogramRed(s, q, asked.histograms)) };
  const [fromSpans, fromHistograms] = await runBoth(ch, spanRed(s, q, asked.spans), histogramRed(s, q, asked.histograms));
  return { spans: fromSpans, histograms: fromHistograms };
}

export async function operationHistograms(ch: ChClient, s: ChSchema, range: TimeRange): Promise<HistogramOperationRow[]> {
  const w = new Conditions().add(`metric_name IN ${list([...PROTOCOL_OF.keys()])}`);
  return operationsFromDeltas(await run(ch, seriesDeltas(s, w, range)));
}

export async function operationSpanBuckets(ch: ChClient, s: ChSchema, range: TimeRange): Promise<SpanBucketRow[]> {
  const rows = await ch.query<Omit<SpanBucketRow, 'kind'> & { k: 'server' | 'db' }>(
    `SELECT service_name AS service, source, if(kind = 'CLIENT', 'db', 'server') AS k, ${OPERATION} AS operation,
       toInt32(ceil(log2(greatest(duration_ns, 1000) / 1e6) * ${LOG_BUCKETS_PER_DOUBLING})) AS bucket,
       toInt32(count()) AS requests, toInt32(countIf(status_code = 'ERROR')) AS errors
     FROM ${spans(s, inRange('Timestamp', range), ['service_name', 'source', 'kind', 'name', 'duration_ns', 'status_code', 'http_method', 'http_route', 'rpc_service', 'rpc_method', 'db_system', 'db_operation', 'db_table'])}
     WHERE kind IN ('SERVER', 'CONSUMER') OR (kind = 'CLIENT' AND db_system IS NOT NULL)
     GROUP BY service, source, k, operation, bucket ORDER BY service, source, k, operation, bucket`,
  );
  return rows.map(({ k, ...r }) => ({ ...r, kind: k }));
}

/**
 * The same stable sample as the DuckDB colony: root server or consumer traces ordered by the md5 of
 * their id; their server, consumer and non-database client spans (database calls are the caller's own time).
 */
export async function callSpans(ch: ChClient, s: ChSchema, range: TimeRange, maxTraces: number): Promise<CallSpanRow[]> {
  const kinds = `(kind IN ('SERVER', 'CONSUMER') OR (kind = 'CLIENT' AND db_system IS NULL))`;
  const view = spans(s, inRange('Timestamp', range), ['trace_id', 'span_id', 'parent_span_id', 'service_name', 'source', 'kind', 'start_ns', 'duration_ns', 'status_code', 'peer_service', 'server_address', 'rpc_service', 'db_system']);
  const rows = await ch.query<Omit<CallSpanRow, 'error'> & { error: number }>(
    `SELECT trace_id AS traceId, span_id AS spanId, parent_span_id AS parentSpanId, service_name AS service, source, kind,
       toFloat64((start_ns - ${lit(range.fromNs)}) / 1e6) AS startMs, toFloat64(duration_ns / 1e6) AS durationMs,
       status_code = 'ERROR' AS error,
       if(kind = 'CLIENT', coalesce(peer_service, server_address, rpc_service), NULL) AS peer
     FROM ${view} WHERE ${kinds} AND trace_id IN (
       SELECT DISTINCT trace_id FROM ${view} WHERE ${kinds} AND parent_span_id = '' AND kind IN ('SERVER', 'CONSUMER')
       ORDER BY lower(hex(MD5(trace_id))) LIMIT ${lit(maxTraces)})
     ORDER BY traceId, start_ns, spanId`,
  );
  return rows.map((r) => ({ ...r, error: Boolean(r.error) }));
}

export async function minuteSeries(ch: ChClient, s: ChSchema, range: TimeRange): Promise<MinuteRow[]> {
  return ch.query<MinuteRow>(
    `SELECT service_name AS service, source, toInt32(intDiv(start_ns - ${lit(range.fromNs)}, 60000000000)) AS minute,
       toInt32(count()) AS requests, toInt32(countIf(status_code = 'ERROR')) AS errors, toFloat64(sum(duration_ns) / 1e6) AS durationMs
     FROM ${spans(s, inRange('Timestamp', range), ['service_name', 'source', 'kind', 'start_ns', 'duration_ns', 'status_code'])} WHERE kind IN ('SERVER', 'CONSUMER')
     GROUP BY service, source, minute ORDER BY service, source, minute`,
  );
}

const ORDER: Record<NonNullable<TraceSearch['order']>, string> = {
  errors: 'has_error DESC, max_duration DESC, last_start DESC',
  slowest: 'max_duration DESC, last_start DESC',
  recent: 'last_start DESC, max_duration DESC',
};

/** Traces with a matching span, returned whole; the picked ids are fetched in a second, keyed query. */
export async function searchTraces(ch: ChClient, s: ChSchema, cache: TraceReadCache, q: TraceSearch): Promise<TraceSearchResult> {
  const inner = new Conditions().add(inRange('Timestamp', q.range));
  inner.maybe(q.service, 'ServiceName = ?');
  inner.maybe(q.traceId?.toLowerCase(), 'TraceId = ?');
  const w = new Conditions();
  w.maybe(q.source, 'source = ?');
  if (q.minDurationMs !== undefined) w.add('duration_ns >= ?', msToNs(q.minDurationMs));
  if (q.errorsOnly) w.add(`status_code = 'ERROR'`);
  const order = q.order ?? 'recent';
  const hasError = order === 'errors'
    ? `trace_id IN (SELECT trace_id FROM ${spans(s, inRange('Timestamp', q.range), ['trace_id', 'status_code'])} WHERE status_code = 'ERROR')`
    : 'false';
  const picked = await ch.query<{ trace_id: string; matched: number }>(
    `SELECT trace_id, max(duration_ns) AS max_duration, max(start_ns) AS last_start, ${hasError} AS has_error,
       toInt32(count() OVER ()) AS matched
     FROM ${spans(s, inner.sql(), ['trace_id', 'source', 'start_ns', 'duration_ns', 'status_code'])} WHERE ${w.sql()} GROUP BY trace_id
     ORDER BY ${ORDER[order]} LIMIT ${lit(q.maxTraces)}`,
  );
  if (picked.length === 0) return { traces: [], matchedTraces: 0 };
  const bySpan = await traceSpans(ch, s, cache, picked.map((p) => p.trace_id));
  return { traces: picked.map((p) => ({ traceId: p.trace_id, spans: bySpan.get(p.trace_id) ?? [] })), matchedTraces: picked[0].matched };
}

/**
 * Every span of the given traces, start order, a re-sent span once. On a large table the exporter's
 * trace-id lookup table bounds the scan to each trace's time span (its Start and End are whole seconds).
 */
async function traceSpans(ch: ChClient, s: ChSchema, cache: TraceReadCache, ids: readonly string[]): Promise<Map<string, SpanRecord[]>> {
  const byId = `TraceId IN ${list(ids)}`;
  const bounded = await cache.boundsPay(ch, s.database, s.tables.traces);
  const bounds = bounded ? `WITH (SELECT (minOrNull(Start), maxOrNull(End) + 1) FROM ${qualified(s.database, `${s.tables.traces}_trace_id_ts`)} WHERE ${byId}) AS bounds ` : '';
  const where = bounded ? `${byId} AND (isNull(bounds.1) OR toDateTime(Timestamp) BETWEEN bounds.1 AND bounds.2)` : byId;
  const rows = await ch.query<ChSpanRow>(`${bounds}SELECT * FROM ${spans(s, where, SPAN_DETAIL)} ORDER BY trace_id, start_ns, span_id`);
  const resources = await resourcesOf(ch, s, cache, ids, rows);
  const out = new Map<string, SpanRecord[]>();
  let last = '';
  for (const r of rows) {
    const key = `${r.trace_id}/${r.span_id}`;
    if (key === last) continue;
    last = key;
    const list = out.get(r.trace_id) ?? [];
    list.push(toSpanRecord(r, r.resource_attributes ?? resources.get(r.resource_hash ?? '') ?? {}));
    out.set(r.trace_id, list);
  }
  return out;
}

/**
 * The resources of spans read by hash: remembered, else from the resource table, else (a view's
 * insert not visible yet) from the spans' own rows.
 */
async function resourcesOf(ch: ChClient, s: ChSchema, cache: TraceReadCache, ids: readonly string[], rows: readonly ChSpanRow[]): Promise<Map<string, Record<string, string>>> {
  if (s.resourceTable === null) return new Map();
  const { found, missing: notCached } = cache.cachedResources([...new Set(rows.map((r) => r.resource_hash ?? ''))]);
  if (notCached.length === 0) return found;
  const fetched = await resourcesByHash(ch, s.database, s.resourceTable, notCached);
  const missing = notCached.filter((h) => !fetched.has(h));
  if (missing.length > 0) {
    const late = await ch.query<{ h: string; r: Record<string, string> }>(
      `SELECT toString(${RESOURCE_HASH.expr}) AS h, any(ResourceAttributes) AS r FROM ${table(s, 'traces')}
       WHERE TraceId IN ${list(ids)} AND h IN ${list(missing)} GROUP BY h`,
    );
    for (const x of late) fetched.set(x.h, x.r);
  }
  cache.remember(fetched);
  for (const [h, r] of fetched) found.set(h, r);
  return found;
}

export async function getTrace(ch: ChClient, s: ChSchema, cache: TraceReadCache, traceId: string): Promise<SpanRecord[]> {
  const id = traceId.toLowerCase();
  return (await traceSpans(ch, s, cache, [id])).get(id) ?? [];
}
