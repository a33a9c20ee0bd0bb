import type { TimeRange } from '../../../core/time.js';
import { type MessagingDelayRow, PRODUCER_LOOKBACK_NS } from '../queries/messaging.js';
import type { ChClient } from './client.js';
import { inRange } from './sql.js';
import { type ChSchema, spanExpr, table } from './views.js';

/** queries/messaging.ts over the exporter's spans table: the producer through the parent or the first link. */
export async function messagingDelays(ch: ChClient, s: ChSchema, range: TimeRange): Promise<MessagingDelayRow[]> {
  const kind = spanExpr(s, 'kind');
  const consumers = `SELECT SpanId AS span_id, ServiceName AS service_name, ${spanExpr(s, 'source')} AS source, toUnixTimestamp64Nano(Timestamp) AS start_ns,
      TraceId AS trace_id, ParentSpanId AS parent_span_id, Links.TraceId AS link_traces, Links.SpanId AS link_spans
    FROM ${table(s, 'traces')} WHERE ${inRange('Timestamp', range)} AND ${kind} = 'CONSUMER'`;
  const producers = `SELECT TraceId AS trace_id, SpanId AS span_id, toUnixTimestamp64Nano(Timestamp) + toInt64(Duration) AS end_ns
    FROM ${table(s, 'traces')} WHERE ${inRange('Timestamp', { fromNs: range.fromNs - PRODUCER_LOOKBACK_NS, toNs: range.toNs })} AND ${kind} = 'PRODUCER'`;
  return ch.query<MessagingDelayRow>(
    `WITH c AS (${consumers}),
     keys AS (
       SELECT span_id, service_name, source, start_ns, trace_id AS ptrace, parent_span_id AS pspan FROM c WHERE parent_span_id != ''
       UNION ALL
       SELECT span_id, service_name, source, start_ns, link_traces[1], link_spans[1] FROM c WHERE length(link_spans) > 0
     ),
     hops AS (
       SELECT k.span_id AS span_id, k.service_name AS service_name, k.source AS source, min(k.start_ns - pr.end_ns) AS delay_ns
       FROM keys AS k INNER JOIN (${producers}) AS pr ON pr.trace_id = k.ptrace AND pr.span_id = k.pspan
       GROUP BY k.span_id, k.service_name, k.source
     )
     SELECT service_name AS service, source, toInt32(count()) AS hops,
       round(avg(greatest(delay_ns, 0)) / 1e6, 3) AS meanDelayMs, round(max(greatest(delay_ns, 0)) / 1e6, 3) AS maxDelayMs
     FROM hops GROUP BY service_name, source ORDER BY service_name, source`,
  );
}
