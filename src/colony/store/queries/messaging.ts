import type { Database } from '../db.js';
import type { Source } from '../rows.js';
import type { TimeRange } from '../../../core/time.js';
import { Where } from './filters.js';

/**
 * How long messages wait between being sent and being processed: per consumer service and source,
 * the delay from the end of the producer span to the start of the consumer span that processed it,
 * the producer found through the consumer's parent (context carried in the message) or its first
 * span link (batch consumers link instead). A consumer that falls behind shows here while its own
 * spans and its producers' stay as fast as ever.
 */
export interface MessagingDelayRow {
  service: string;
  source: Source;
  /** Consumer spans in the window whose producer span was found. */
  hops: number;
  meanDelayMs: number;
  maxDelayMs: number;
}

/** How far before the window a producer span is looked for: a message may wait this long and still be matched. */
export const PRODUCER_LOOKBACK_NS = 3_600_000_000_000n;

export async function messagingDelays(db: Database, range: TimeRange): Promise<MessagingDelayRow[]> {
  const w = new Where().add(`kind = 'CONSUMER'`).range('start_ns', range);
  const producedFrom = w.bind(range.fromNs - PRODUCER_LOOKBACK_NS);
  const to = w.bind(range.toNs);
  return db.query<MessagingDelayRow>(
    `WITH c AS (
       SELECT span_id, trace_id, parent_span_id, links, service_name, source, start_ns FROM otel_traces WHERE ${w.sql()}
     ), keys AS (
       SELECT span_id, service_name, source, start_ns, trace_id AS ptrace, parent_span_id AS pspan FROM c WHERE parent_span_id <> ''
       UNION ALL
       SELECT span_id, service_name, source, start_ns, json_extract_string(links, '$[0].traceId'), json_extract_string(links, '$[0].spanId')
       FROM c WHERE links IS NOT NULL
     ), producers AS (
       SELECT trace_id, span_id, start_ns + duration_ns AS end_ns FROM otel_traces
       WHERE kind = 'PRODUCER' AND start_ns > ${producedFrom}::BIGINT AND start_ns <= ${to}::BIGINT
     ), hops AS (
       SELECT k.span_id, k.service_name, k.source, min(k.start_ns - pr.end_ns) AS delay_ns
       FROM keys k JOIN producers pr ON pr.trace_id = k.ptrace AND pr.span_id = k.pspan
       GROUP BY k.span_id, k.service_name, k.source
     )
     SELECT service_name AS service, source, count(*)::INTEGER AS hops,
       round(avg(greatest(delay_ns, 0)) / 1e6, 3)::DOUBLE AS "meanDelayMs", round(max(greatest(delay_ns, 0)) / 1e6, 3)::DOUBLE AS "maxDelayMs"
     FROM hops GROUP BY service_name, source ORDER BY service_name, source`,
    w.params,
  );
}
