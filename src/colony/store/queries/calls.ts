import type { Database } from '../db.js';
import type { Source } from '../rows.js';
import type { TimeRange } from '../../../core/time.js';
import { Where } from './filters.js';
import { errorSpanSql } from '../../otlp/span-error.js';
import { STREAM_RPC_SQL } from '../../unified/streams.js';

/**
 * The spans of a sample of traces that tell who waited on whom: server, consumer and client spans,
 * times in milliseconds from the window's start. Self time and time spent in callees are computed
 * from these rows (unified/self-time.ts), so a second backend only has to return them.
 */
export interface CallSpanRow {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  service: string;
  source: Source;
  kind: 'SERVER' | 'CONSUMER' | 'CLIENT';
  startMs: number;
  durationMs: number;
  error: boolean;
  /** For client spans: the peer the caller named (a service, a database, a host), when it named one. */
  peer: string | null;
}

/**
 * How the sample of traces is drawn, the same on every backend: by the trace id's low 64 bits (the
 * part the W3C format, and AWS X-Ray ids carried in it, make random; X-Ray's high bits are a
 * timestamp), then the id. Cheap on purpose: with a root per trace, hashing (md5) and de-duplicating
 * every root of the window cost 5-14 s of CPU per summary at 3M roots and starved ingest beside it
 * (the soak bench, issue 39); a substring's order, de-duplicating only the first roots, about a tenth.
 */
export const SAMPLE_KEY_SQL = 'substring(trace_id, 17), trace_id';
/**
 * Roots read in sample order before their ids are de-duplicated: a trace has one root, or a few (an
 * eBPF twin of it, consumers without a parent), so this many hold `maxTraces` distinct traces but
 * for traces with more roots than that, which then leave the sample smaller, never different across backends.
 */
export const SAMPLE_ROOTS_PER_TRACE = 4;

/**
 * Server, consumer and (non-database) client spans of the traces with a root in the window, at most
 * `maxTraces` of them, picked in SAMPLE_KEY_SQL order (a stable sample any backend can reproduce).
 * Rows come in trace, start, span order: consumers keep the last of a kind, so the order must not
 * depend on the scan.
 */
export async function callSpans(db: Database, range: TimeRange, maxTraces: number): Promise<CallSpanRow[]> {
  // Database calls are the caller's own time and need no row of their own; a stream's span is how
  // long a client stayed connected, neither own time nor a callee's (unified/streams.ts).
  const w = new Where().range('start_ns', range).add(`(kind IN ('SERVER', 'CONSUMER') OR (kind = 'CLIENT' AND db_system IS NULL)) AND NOT ${STREAM_RPC_SQL}`);
  const from = w.bind(range.fromNs);
  const limit = w.bind(maxTraces);
  const roots = w.bind(maxTraces * SAMPLE_ROOTS_PER_TRACE);
  return db.query<CallSpanRow>(
    `WITH picked AS (
       SELECT trace_id FROM (
         SELECT trace_id FROM otel_traces WHERE ${w.sql()} AND parent_span_id = '' AND kind IN ('SERVER', 'CONSUMER')
         ORDER BY ${SAMPLE_KEY_SQL} LIMIT ${roots})
       GROUP BY trace_id ORDER BY ${SAMPLE_KEY_SQL} LIMIT ${limit}
     )
     SELECT trace_id AS "traceId", span_id AS "spanId", parent_span_id AS "parentSpanId", service_name AS service, source, kind,
       ((start_ns - ${from}::BIGINT) / 1e6)::DOUBLE AS "startMs", (duration_ns / 1e6)::DOUBLE AS "durationMs",
       ${errorSpanSql()} AS error,
       CASE WHEN kind = 'CLIENT' THEN coalesce(peer_service, server_address, rpc_service) END AS peer
     FROM otel_traces WHERE trace_id IN (SELECT trace_id FROM picked) AND ${w.sql()}
     ORDER BY trace_id, start_ns, span_id`,
    w.params,
  );
}
