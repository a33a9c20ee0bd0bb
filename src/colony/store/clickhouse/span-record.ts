import type { SpanRecord } from '../queries/spans.js';
import type { Source } from '../rows.js';
import { spanHotAttributes } from '../../otlp/semconv.js';
import { linksFromColumns } from '../span-links.js';

/** A span as the ClickHouse views return it with SPAN_DETAIL (see views.ts): its resource, or the resource's hash. */
export interface ChSpanRow {
  trace_id: string;
  span_id: string;
  parent_span_id: string;
  name: string;
  kind: string;
  service_name: string;
  source: Source;
  scope_name: string;
  start_ns: string | number;
  duration_ns: string | number;
  status_code: string;
  status_message: string;
  attributes: Record<string, string>;
  resource_attributes?: Record<string, string>;
  resource_hash?: string;
  event_times: string[];
  event_names: string[];
  event_attributes: Record<string, string>[];
  link_trace_ids: string[];
  link_span_ids: string[];
}

/**
 * The same record the DuckDB colony returns, its promoted attributes derived by the DuckDB colony's
 * own ingest code. Attribute values are strings here: the exporter's Map(String, String) columns keep no types.
 */
export function toSpanRecord(r: ChSpanRow, resourceAttributes: Record<string, string>): SpanRecord {
  const startNs = BigInt(r.start_ns);
  const durationNs = BigInt(r.duration_ns);
  return {
    traceId: r.trace_id,
    spanId: r.span_id,
    parentSpanId: r.parent_span_id,
    name: r.name,
    kind: r.kind,
    serviceName: r.service_name,
    source: r.source,
    scopeName: r.scope_name,
    startNs,
    endNs: startNs + durationNs,
    durationMs: Number(durationNs) / 1e6,
    statusCode: r.status_code,
    statusMessage: r.status_message,
    ...spanHotAttributes(r.attributes, r.name),
    attributes: r.attributes,
    resourceAttributes,
    events: r.event_times.map((t, i) => ({ time_ns: t, name: r.event_names[i], attributes: r.event_attributes[i] })),
    links: linksFromColumns(r.link_trace_ids, r.link_span_ids),
  };
}
