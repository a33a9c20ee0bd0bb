import type { Database } from '../db.js';
import { type LogLevel, LOG_LEVELS, type Source } from '../rows.js';
import type { TimeRange } from '../../../core/time.js';
import { Where, likeContains } from './filters.js';

export interface LogQuery {
  range: TimeRange;
  service?: string;
  /** The lowest level returned: `warn` returns warn, error and fatal. */
  minLevel?: LogLevel;
  /** Case-insensitive substring of the body. */
  text?: string;
  traceId?: string;
  limit: number;
}

export interface LogRecordOut {
  timeNs: bigint;
  serviceName: string;
  source: Source;
  level: LogLevel;
  severityText: string;
  body: string;
  traceId: string;
  spanId: string;
  attributes: Record<string, unknown>;
  /** The record's event name (`event.name`), '' for a plain log line. */
  eventName: string;
}

export interface LogQueryResult {
  logs: LogRecordOut[];
  /** All matches, of which `logs` holds the newest `limit`. */
  total: number;
}

export async function queryLogs(db: Database, q: LogQuery): Promise<LogQueryResult> {
  const w = new Where().range('time_ns', q.range);
  w.maybe(q.service, 'service_name = ?');
  if (q.minLevel) {
    const levels = LOG_LEVELS.slice(LOG_LEVELS.indexOf(q.minLevel));
    w.add(`level IN (${levels.map(() => '?').join(', ')})`, ...levels);
  }
  if (q.text) w.add(`body ILIKE ? ESCAPE '\\'`, likeContains(q.text));
  w.maybe(q.traceId?.toLowerCase(), 'trace_id = ?');
  const rows = await db.query<Record<string, unknown> & { time_ns: bigint; total: number }>(
    `SELECT time_ns, service_name, source, level, severity_text, body, trace_id, span_id, attributes, coalesce(attributes->>'event.name', '') AS event_name,
       (count(*) OVER ())::INTEGER AS total
     FROM otel_logs WHERE ${w.sql()} ORDER BY time_ns DESC, log_id LIMIT ${w.bind(q.limit)}`,
    w.params,
  );
  return {
    total: rows[0]?.total ?? 0,
    logs: rows.map((r) => ({
      timeNs: r.time_ns,
      serviceName: r.service_name as string,
      source: r.source as Source,
      level: r.level as LogLevel,
      severityText: r.severity_text as string,
      body: r.body as string,
      traceId: r.trace_id as string,
      spanId: r.span_id as string,
      attributes: JSON.parse(r.attributes as string),
      eventName: r.event_name as string,
    })),
  };
}
