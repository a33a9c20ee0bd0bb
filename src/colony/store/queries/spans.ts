import type { Database } from '../db.js';
import type { HotAttributes, Source } from '../rows.js';
import type { TimeRange } from '../../../core/time.js';
import { msToNs } from '../../../core/time.js';
import { Where } from './filters.js';
import { errorSpanSql } from '../../otlp/span-error.js';
import { type SpanLink, linksFromJson } from '../span-links.js';

export interface SpanRecord extends HotAttributes {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: string;
  serviceName: string;
  source: Source;
  scopeName: string;
  startNs: bigint;
  endNs: bigint;
  durationMs: number;
  statusCode: string;
  statusMessage: string;
  attributes: Record<string, unknown>;
  resourceAttributes: Record<string, unknown>;
  events: unknown[];
  links: SpanLink[];
}

const SPAN_COLUMNS = `t.trace_id, t.span_id, t.parent_span_id, t.name, t.kind, t.service_name, t.source, t.scope_name,
  t.start_ns, t.end_ns, t.duration_ns, t.status_code, t.status_message,
  t.http_method, t.http_route, t.http_status_code, t.rpc_system, t.rpc_service, t.rpc_method, t.rpc_status_code,
  t.db_system, t.db_operation, t.db_table, t.db_statement, t.peer_service, t.server_address,
  t.attributes, t.resource_attributes, t.events, t.links`;

type SpanSqlRow = Record<string, unknown> & { start_ns: bigint; end_ns: bigint; duration_ns: bigint };

function toSpan(r: SpanSqlRow): SpanRecord {
  return {
    traceId: r.trace_id as string,
    spanId: r.span_id as string,
    parentSpanId: r.parent_span_id as string,
    name: r.name as string,
    kind: r.kind as string,
    serviceName: r.service_name as string,
    source: r.source as Source,
    scopeName: r.scope_name as string,
    startNs: r.start_ns,
    endNs: r.end_ns,
    durationMs: Number(r.duration_ns) / 1e6,
    statusCode: r.status_code as string,
    statusMessage: (r.status_message as string | null) ?? '',
    httpMethod: r.http_method as string | null,
    httpRoute: r.http_route as string | null,
    httpStatusCode: r.http_status_code as number | null,
    rpcSystem: r.rpc_system as string | null,
    rpcService: r.rpc_service as string | null,
    rpcMethod: r.rpc_method as string | null,
    rpcStatusCode: r.rpc_status_code as number | null,
    dbSystem: r.db_system as string | null,
    dbOperation: r.db_operation as string | null,
    dbTable: r.db_table as string | null,
    dbStatement: r.db_statement as string | null,
    peerService: r.peer_service as string | null,
    serverAddress: r.server_address as string | null,
    attributes: JSON.parse(r.attributes as string),
    resourceAttributes: JSON.parse(r.resource_attributes as string),
    events: r.events === null ? [] : JSON.parse(r.events as string),
    links: linksFromJson(r.links as string | null),
  };
}

export interface TraceSearch {
  range: TimeRange;
  service?: string;
  traceId?: string;
  minDurationMs?: number;
  source?: Source;
  errorsOnly?: boolean;
  /** Limits traces, not spans: every returned trace is whole. */
  maxTraces: number;
  /** Traces to skip in the order asked for (a list read page by page); 0 when absent. */
  offset?: number;
  /** `errors`: traces with an error span anywhere first, then the slowest (what an investigator wants). */
  order?: 'errors' | 'recent' | 'slowest';
}

export interface TraceResult {
  traceId: string;
  spans: SpanRecord[];
}

export interface TraceSearchResult {
  traces: TraceResult[];
  /** Traces that matched before `maxTraces` cut the list. */
  matchedTraces: number;
}

/**
 * Finds traces with at least one span matching every condition, and returns those traces whole
 * (all spans, from both sources), failing, most recent or slowest first.
 */
export async function searchTraces(db: Database, q: TraceSearch): Promise<TraceSearchResult> {
  const w = new Where().range('start_ns', q.range);
  w.maybe(q.service, 'service_name = ?');
  w.maybe(q.traceId?.toLowerCase(), 'trace_id = ?');
  w.maybe(q.source, 'source = ?');
  if (q.minDurationMs !== undefined) w.add('duration_ns >= ?::BIGINT', msToNs(q.minDurationMs));
  if (q.errorsOnly) w.add(errorSpanSql());
  const orderBy = {
    errors: 'm.has_error DESC, m.max_duration DESC, m.last_start DESC, m.trace_id',
    slowest: 'm.max_duration DESC, m.last_start DESC, m.trace_id',
    recent: 'm.last_start DESC, m.max_duration DESC, m.trace_id',
  }[q.order ?? 'recent'];
  // The trace id breaks ties, so pages read one after another neither repeat nor skip a trace.
  const limit = w.bind(q.maxTraces);
  const offset = w.bind(q.offset ?? 0);
  // A trace fails when any of its spans does, not only the spans that matched the filters.
  const hasError = q.order === 'errors'
    ? `trace_id IN (SELECT trace_id FROM otel_traces WHERE ${errorSpanSql()} AND start_ns > ${w.bind(q.range.fromNs)}::BIGINT AND start_ns <= ${w.bind(q.range.toNs)}::BIGINT)`
    : 'false';
  const rows = await db.query<SpanSqlRow & { matched: number }>(
    `WITH m AS (
       SELECT trace_id, max(duration_ns) AS max_duration, max(start_ns) AS last_start, ${hasError} AS has_error,
         (count(*) OVER ())::INTEGER AS matched
       FROM otel_traces WHERE ${w.sql()} GROUP BY trace_id
       ORDER BY ${orderBy.replaceAll('m.', '')} LIMIT ${limit} OFFSET ${offset}
     )
     SELECT ${SPAN_COLUMNS}, m.matched FROM otel_traces t JOIN m USING (trace_id)
     ORDER BY ${orderBy}, t.start_ns, t.span_id`,
    w.params,
  );
  const traces: TraceResult[] = [];
  for (const r of rows) {
    const last = traces[traces.length - 1];
    if (last && last.traceId === r.trace_id) last.spans.push(toSpan(r));
    else traces.push({ traceId: r.trace_id as string, spans: [toSpan(r)] });
  }
  return { traces, matchedTraces: rows[0]?.matched ?? 0 };
}

/** Every stored span of one trace, both sources, in start order. */
export async function getTrace(db: Database, traceId: string): Promise<SpanRecord[]> {
  const rows = await db.query<SpanSqlRow>(
    `SELECT ${SPAN_COLUMNS} FROM otel_traces t WHERE t.trace_id = $id ORDER BY t.start_ns, t.span_id`,
    { id: traceId.toLowerCase() },
  );
  return rows.map(toSpan);
}
