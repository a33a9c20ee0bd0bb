import type { TimeRange } from '../../../core/time.js';
import { msToNs } from '../../../core/time.js';
import type { Source } from '../rows.js';
import {
  DURATION_METRICS,
  type KeyColumns,
  type Protocol,
  type RedRow,
  applyFilters,
  redFromSeriesDeltas,
  spanRedRow,
} from '../queries/red.js';
import type { SpanRecord, TraceSearch, TraceSearchResult } from '../queries/spans.js';
import { type HistogramOperationRow, OPERATION, PROTOCOL_OF, type SpanBucketRow, operationsFromDeltas } from '../queries/operations.js';
import { type CallSpanRow, SAMPLE_KEY_SQL, SAMPLE_ROOTS_PER_TRACE } from '../queries/calls.js';
import type { MinuteRow } from '../queries/timeline.js';
import { LOG_BUCKETS_PER_DOUBLING } from '../../unified/stats.js';
import type { ChClient } from './client.js';
import { Conditions, byWindow, inAnyRange, inRange, lit, list, windowsOf } from './sql.js';
import { type ChSchema, SPAN_DETAIL, type SpanColumn, spanAliases, spanExpr, spans, table } from './views.js';
import { RESOURCE_HASH } from './derived.js';
import { resourcesByHash } from './resources.js';
import type { TraceReadCache } from './trace-read-cache.js';
import { qualified } from './ddl.js';
import { type ChSpanRow, toSpanRecord } from './span-record.js';
import type { RedAnswers, RedAsked, RedBase } from './batch.js';
import { type Part, seriesDeltas } from './read-series.js';
import { SPAN_OUTCOME_COLUMNS, errorSpanSql } from '../../otlp/span-error.js';
import { STREAM_RPC_SQL } from '../../unified/streams.js';

/** Per protocol: which spans it counts and its group key (up to three slots, the KeyColumns each fills). */
const SPAN_SHAPE: Record<Protocol, { where: string; key: [string, string, string]; fills: (keyof KeyColumns)[] }> = {
  http: {
    where: `kind = 'SERVER' AND http_method IS NOT NULL`,
    key: ['coalesce(http_route, name)', 'http_method', 'NULL'],
    fills: ['http_route', 'http_method'],
  },
  grpc: {
    where: `kind = 'SERVER' AND rpc_method IS NOT NULL`,
    key: ['rpc_service', 'rpc_method', 'NULL'],
    fills: ['rpc_service', 'rpc_method'],
  },
  sql: {
    where: `kind = 'CLIENT' AND db_system IS NOT NULL`,
    key: ['db_system', 'db_operation', 'db_table'],
    fills: ['db_system', 'db_operation', 'db_table'],
  },
};

const RED_COLUMNS: readonly SpanColumn[] = ['name', 'kind', 'source', 'duration_ns', 'status_code', 'http_method', 'http_route', 'http_status_code',
  'rpc_service', 'rpc_method', 'rpc_status_code', 'db_system', 'db_operation', 'db_table'];

function keyColumns(source: Source, p: Protocol, key: readonly (string | null)[]): KeyColumns {
  const k: KeyColumns = { source, http_route: null, http_method: null, rpc_service: null, rpc_method: null, db_system: null, db_operation: null, db_table: null };
  SPAN_SHAPE[p].fills.forEach((c, i) => Object.assign(k, { [c]: key[i] }));
  return k;
}

type SpanRedRow = { p: number; source: Source; k: (string | null)[]; requests: number; errors: number; q: number[] };

/**
 * Exact percentiles: quantileExactInclusive interpolates like DuckDB's quantile_cont (checked in the
 * tests). Several protocols from one pass over the spans: each span is repeated once per protocol
 * (ARRAY JOIN of parallel arrays: is it a member, the protocol, its group key), rows
 * in each protocol's own order. Straight over the table, with few expressions: on a demo-sized table
 * ClickHouse spends more time analysing and planning a query than running it.
 */
function spanRed(s: ChSchema, q: RedBase, protocols: readonly Protocol[]): Part<Map<Protocol, RedRow[]>> {
  const w = new Conditions().add(inRange('Timestamp', q.range)).add('ServiceName = ?', q.service).add('member');
  w.maybe(q.source, 'source = ?');
  applyFilters(w, q);
  const shapes = protocols.map((p) => SPAN_SHAPE[p]);
  return {
    sql: `WITH ${spanAliases(s, RED_COLUMNS).defs}
     SELECT p, source, k, toInt32(count()) AS requests, toInt32(countIf(${errorSpanSql()})) AS errors, quantilesExactInclusive(0.5, 0.95, 0.99)(duration_ns) AS q
     FROM ${table(s, 'traces')}
     ARRAY JOIN [${shapes.map((x) => `(${x.where})`).join(', ')}] AS member, [${protocols.map((_, i) => i).join(', ')}] AS p,
       [${shapes.map((x) => `(${x.key.join(', ')})`).join(', ')}] AS k
     WHERE ${w.sql()}
     GROUP BY p, source, k
     ORDER BY p, requests DESC, source, k.1, k.2, k.3`,
    read: (rows) => {
      const all = rows as SpanRedRow[];
      return new Map(protocols.map((p, i) => [p, all.filter((r) => r.p === i).map((r) => spanRedRow(keyColumns(r.source, p, r.k), p, r))]));
    },
  };
}

async function run<T>(ch: ChClient, part: Part<T>): Promise<T> {
  return part.read(await ch.query(part.sql));
}

/** RED from duration histograms: each duration metric belongs to one protocol. */
function histogramRed(s: ChSchema, q: RedBase, protocols: readonly Protocol[], skipHistory: boolean): Part<Map<Protocol, RedRow[]>> {
  const w = new Conditions().add('service_name = ?', q.service).add(`metric_name IN ${list(protocols.flatMap((p) => DURATION_METRICS[p]))}`);
  w.maybe(q.source, 'source = ?');
  applyFilters(w, q);
  const part = seriesDeltas(s, w, [q.range], skipHistory);
  return {
    ...part,
    read: (rows) => {
      const [deltas] = part.read(rows);
      return new Map(protocols.map((p) => [p, redFromSeriesDeltas(deltas.filter((d) => DURATION_METRICS[p].includes(d.series.metric_name)), p)]));
    },
  };
}

/**
 * The RED questions of one tick (batch.ts), from spans and histograms: two queries, side by side
 * where the server allows. (One UNION of both, each row serialized by formatRow, measured slower in
 * embedded ClickHouse: its wrapper cost more to plan than a second query's fixed cost.)
 */
export async function red(ch: ChClient, s: ChSchema, q: RedBase, asked: RedAsked, skipHistory: () => Promise<boolean>): Promise<RedAnswers> {
  const none = new Map<Protocol, RedRow[]>();
  const [fromSpans, fromHistograms] = await Promise.all([
    asked.spans.length === 0 ? none : run(ch, spanRed(s, q, asked.spans)),
    asked.histograms.length === 0 ? none : skipHistory().then((skip) => run(ch, histogramRed(s, q, asked.histograms, skip))),
  ]);
  return { spans: fromSpans, histograms: fromHistograms };
}

/** Operations from histograms for each window asked in one tick (store.ts batches them), from one pass. */
export async function operationHistograms(ch: ChClient, s: ChSchema, ranges: readonly TimeRange[], skipHistory: boolean): Promise<HistogramOperationRow[][]> {
  const w = new Conditions().add(`metric_name IN ${list([...PROTOCOL_OF.keys()])}`);
  return (await run(ch, seriesDeltas(s, w, ranges, skipHistory))).map(operationsFromDeltas);
}

/** Operation buckets for each window asked in one tick (store.ts batches them), from one pass over their spans. */
export async function operationSpanBuckets(ch: ChClient, s: ChSchema, ranges: readonly TimeRange[]): Promise<SpanBucketRow[][]> {
  const rows = await ch.query<Omit<SpanBucketRow, 'kind'> & { w: number; k: 'server' | 'db' }>(
    `SELECT w, service_name AS service, source, if(kind = 'CLIENT', 'db', 'server') AS k, ${OPERATION} AS operation,
       toInt32(ceil(log2(greatest(duration_ns, 1000) / 1e6) * ${LOG_BUCKETS_PER_DOUBLING})) AS bucket,
       toInt32(count()) AS requests, toInt32(countIf(${errorSpanSql()})) AS errors
     FROM ${spans(s, inAnyRange('Timestamp', ranges), ['service_name', 'source', 'kind', 'name', 'start_ns', 'duration_ns', 'status_code', 'http_status_code', 'rpc_status_code', 'http_method', 'http_route', 'rpc_service', 'rpc_method', 'db_system', 'db_operation', 'db_table'])}
     ARRAY JOIN ${windowsOf('start_ns', ranges)} AS w
     WHERE kind IN ('SERVER', 'CONSUMER') OR (kind = 'CLIENT' AND db_system IS NOT NULL)
     GROUP BY w, service, source, k, operation, bucket ORDER BY w, service, source, k, operation, bucket`,
  );
  return byWindow(rows, ranges.length).map((window) => window.map(({ k, ...r }) => ({ ...r, kind: k })));
}

/**
 * The same stable sample as the DuckDB colony, for each window asked in one tick: root server or
 * consumer traces in SAMPLE_KEY_SQL order (queries/calls.ts), `maxTraces` per window; their server, consumer and
 * non-database client spans (database calls are the caller's own time).
 */
export async function callSpans(ch: ChClient, s: ChSchema, ranges: readonly TimeRange[], maxTraces: number): Promise<CallSpanRow[][]> {
  const kinds = `(kind IN ('SERVER', 'CONSUMER') OR (kind = 'CLIENT' AND db_system IS NULL)) AND NOT ${STREAM_RPC_SQL}`;
  const view = `${spans(s, inAnyRange('Timestamp', ranges), ['trace_id', 'span_id', 'parent_span_id', 'service_name', 'source', 'kind', 'start_ns', 'duration_ns', 'status_code', 'http_status_code', 'rpc_status_code', 'peer_service', 'server_address', 'rpc_service', 'rpc_method', 'db_system'])}
     ARRAY JOIN ${windowsOf('start_ns', ranges)} AS w`;
  const rows = await ch.query<Omit<CallSpanRow, 'error'> & { w: number; error: number }>(
    `SELECT w, trace_id AS traceId, span_id AS spanId, parent_span_id AS parentSpanId, service_name AS service, source, kind,
       toFloat64((start_ns - [${ranges.map((r) => lit(r.fromNs)).join(', ')}][w + 1]) / 1e6) AS startMs, toFloat64(duration_ns / 1e6) AS durationMs,
       ${errorSpanSql()} AS error,
       if(kind = 'CLIENT', coalesce(peer_service, server_address, rpc_service), NULL) AS peer
     FROM ${view} WHERE ${kinds} AND (w, trace_id) IN (
       SELECT w, trace_id FROM (
         SELECT w, trace_id FROM ${view} WHERE ${kinds} AND parent_span_id = '' AND kind IN ('SERVER', 'CONSUMER')
         ORDER BY w, ${SAMPLE_KEY_SQL} LIMIT ${lit(maxTraces * SAMPLE_ROOTS_PER_TRACE)} BY w)
       GROUP BY w, trace_id ORDER BY w, ${SAMPLE_KEY_SQL} LIMIT ${lit(maxTraces)} BY w)
     ORDER BY w, traceId, start_ns, spanId`,
  );
  return byWindow(rows, ranges.length).map((window) => window.map((r) => ({ ...r, error: Boolean(r.error) })));
}

export async function minuteSeries(ch: ChClient, s: ChSchema, range: TimeRange, service?: string): Promise<MinuteRow[]> {
  return ch.query<MinuteRow>(
    `SELECT service_name AS service, source, toInt32(intDiv(start_ns - ${lit(range.fromNs)}, 60000000000)) AS minute,
       toInt32(count()) AS requests, toInt32(countIf(${errorSpanSql()})) AS errors, toFloat64(sum(duration_ns) / 1e6) AS durationMs
     FROM ${spans(s, `${inRange('Timestamp', range)}${service === undefined ? '' : ` AND ServiceName = ${lit(service)}`}`, ['service_name', 'source', 'kind', 'start_ns', 'duration_ns', 'status_code', 'http_status_code', 'rpc_status_code', 'rpc_method'])}
     WHERE kind IN ('SERVER', 'CONSUMER') AND NOT ${STREAM_RPC_SQL}
     GROUP BY service, source, minute ORDER BY service, source, minute`,
  );
}

/** The trace id breaks ties (as on DuckDB), so pages read one after another neither repeat nor skip a trace. */
const ORDER: Record<NonNullable<TraceSearch['order']>, string> = {
  errors: 'has_error DESC, max_duration DESC, last_start DESC, trace_id',
  slowest: 'max_duration DESC, last_start DESC, trace_id',
  recent: 'last_start DESC, max_duration DESC, trace_id',
};

/** Traces with a matching span, returned whole; the picked ids are fetched in a second, keyed query. */
export async function searchTraces(ch: ChClient, s: ChSchema, cache: TraceReadCache, q: TraceSearch): Promise<TraceSearchResult> {
  const w = new Conditions().add(inRange('Timestamp', q.range));
  w.maybe(q.service, 'ServiceName = ?');
  w.maybe(q.traceId?.toLowerCase(), 'TraceId = ?');
  w.maybe(q.source, 'source = ?');
  if (q.minDurationMs !== undefined) w.add('duration_ns >= ?', msToNs(q.minDurationMs));
  if (q.errorsOnly) w.add(errorSpanSql());
  const order = q.order ?? 'recent';
  const hasError = order === 'errors'
    ? `trace_id IN (SELECT TraceId FROM ${table(s, 'traces')} WHERE ${inRange('Timestamp', q.range)} AND ${errorSpanSql((c) => spanExpr(s, c))})`
    : 'false';
  const picked = await ch.query<{ trace_id: string; matched: number }>(
    `WITH ${spanAliases(s, ['trace_id', 'source', 'start_ns', 'duration_ns', ...SPAN_OUTCOME_COLUMNS]).defs}
     SELECT trace_id, max(duration_ns) AS max_duration, max(start_ns) AS last_start, ${hasError} AS has_error,
       toInt32(count() OVER ()) AS matched
     FROM ${table(s, 'traces')} WHERE ${w.sql()} GROUP BY trace_id
     ORDER BY ${ORDER[order]} LIMIT ${lit(q.maxTraces)} OFFSET ${lit(q.offset ?? 0)}`,
  );
  if (picked.length === 0) return { traces: [], matchedTraces: 0 };
  const bySpan = await traceSpans(ch, s, cache, picked.map((p) => p.trace_id));
  return { traces: picked.map((p) => ({ traceId: p.trace_id, spans: bySpan.get(p.trace_id) ?? [] })), matchedTraces: picked[0].matched };
}

/** The query of traceSpans; `bounded`: first ask the trace-id lookup table for the traces' time bounds. */
export function traceSpansSql(s: ChSchema, ids: readonly string[], bounded: boolean): string {
  const byId = `TraceId IN ${list(ids)}`;
  const bounds = bounded ? `(SELECT (minOrNull(Start), maxOrNull(End) + 1) FROM ${qualified(s.database, `${s.tables.traces}_trace_id_ts`)} WHERE ${byId}) AS bounds, ` : '';
  const where = bounded ? `${byId} AND (isNull(bounds.1) OR toDateTime(Timestamp) BETWEEN bounds.1 AND bounds.2)` : byId;
  const detail = spanAliases(s, SPAN_DETAIL);
  return `WITH ${bounds}${detail.defs} SELECT ${detail.names} FROM ${table(s, 'traces')} WHERE ${where} ORDER BY trace_id, start_ns, span_id`;
}

/**
 * Every span of the given traces, start order, a re-sent span once. On a large table the exporter's
 * trace-id lookup table bounds the scan to each trace's time span (its Start and End are whole seconds).
 */
async function traceSpans(ch: ChClient, s: ChSchema, cache: TraceReadCache, ids: readonly string[]): Promise<Map<string, SpanRecord[]>> {
  const rows = await ch.query<ChSpanRow>(traceSpansSql(s, ids, await cache.boundsPay(ch, s.database, s.tables.traces)));
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
