import { describe, expect, it } from 'vitest';
import { decodeLogsProto, decodeMetricsProto, decodeTracesProto } from '../../../src/colony/otlp/decode-proto.js';
import { MAX_ANY_VALUE_DEPTH, OtlpDecodeError } from '../../../src/colony/otlp/model.js';
import { double, fixed64, hex, int, len, str, varint } from '../../support/otlp-proto.js';

type Bytes = number[];
const VARINT = 0;
const I64 = 1;
const LEN = 2;
const I32 = 5;
/** bucket_counts and explicit_bounds: packed (LEN) or one I64 per value. */
const REPEATED_FIXED64 = -1;

const TRACE = 'ab'.repeat(16);
const SPAN_ID = 'cd'.repeat(8);
/** A request holding one item (span, metric or log record) made of `bytes`, in a resource and scope of its own. */
const oneItem = (bytes: Bytes) => Buffer.from(len(1, len(2, len(2, bytes))));
const spanOf = (bytes: Bytes) => decodeTracesProto(oneItem([...hex(1, TRACE), ...hex(2, SPAN_ID), ...bytes]))[0].scopes[0].items[0];
const metricOf = (bytes: Bytes) => decodeMetricsProto(oneItem(bytes))[0].scopes[0].items[0];
const logOf = (bytes: Bytes) => decodeLogsProto(oneItem(bytes))[0].scopes[0].items[0];
/** The attribute `k` of a span, its AnyValue given as raw bytes. */
const anyValue = (value: Bytes) => spanOf(len(9, [...str(1, 'k'), ...len(2, value)])).attributes.k;
const decodeError = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(OtlpDecodeError);
    return (err as Error).message;
  }
  throw new Error('expected a decode error');
};

/**
 * Every field the decoder knows, from opentelemetry-proto v1 (common, resource, trace, metrics, logs),
 * written out here rather than taken from the decoder, with a way to put a field into a request at the
 * place its message lives.
 */
const MESSAGES: { message: string; place: (field: Bytes) => () => unknown; fields: [number, string, number][] }[] = [
  { message: 'Export*ServiceRequest', place: (f) => () => decodeTracesProto(Buffer.from(f)), fields: [[1, 'resource_items', LEN]] },
  { message: 'Resource{Spans,Metrics,Logs}', place: (f) => () => decodeTracesProto(Buffer.from(len(1, f))), fields: [[1, 'resource', LEN], [2, 'scope_items', LEN], [3, 'schema_url', LEN]] },
  { message: 'Resource', place: (f) => () => decodeTracesProto(Buffer.from(len(1, len(1, f)))), fields: [[1, 'attributes', LEN], [2, 'dropped_attributes_count', VARINT]] },
  { message: 'Scope{Spans,Metrics,Logs}', place: (f) => () => decodeLogsProto(Buffer.from(len(1, len(2, f)))), fields: [[1, 'scope', LEN], [2, 'items', LEN], [3, 'schema_url', LEN]] },
  { message: 'InstrumentationScope', place: (f) => () => decodeMetricsProto(Buffer.from(len(1, len(2, len(1, f))))), fields: [[1, 'name', LEN], [2, 'version', LEN], [3, 'attributes', LEN], [4, 'dropped_attributes_count', VARINT]] },
  { message: 'KeyValue', place: (f) => () => spanOf(len(9, f)), fields: [[1, 'key', LEN], [2, 'value', LEN]] },
  {
    message: 'AnyValue', place: (f) => () => anyValue(f),
    fields: [[1, 'string_value', LEN], [2, 'bool_value', VARINT], [3, 'int_value', VARINT], [4, 'double_value', I64], [5, 'array_value', LEN], [6, 'kvlist_value', LEN], [7, 'bytes_value', LEN]],
  },
  { message: 'ArrayValue', place: (f) => () => anyValue(len(5, f)), fields: [[1, 'values', LEN]] },
  { message: 'KeyValueList', place: (f) => () => anyValue(len(6, f)), fields: [[1, 'values', LEN]] },
  {
    message: 'Span', place: (f) => () => spanOf(f),
    fields: [
      [1, 'trace_id', LEN], [2, 'span_id', LEN], [3, 'trace_state', LEN], [4, 'parent_span_id', LEN], [5, 'name', LEN], [6, 'kind', VARINT],
      [7, 'start_time_unix_nano', I64], [8, 'end_time_unix_nano', I64], [9, 'attributes', LEN], [10, 'dropped_attributes_count', VARINT],
      [11, 'events', LEN], [12, 'dropped_events_count', VARINT], [13, 'links', LEN], [14, 'dropped_links_count', VARINT], [15, 'status', LEN], [16, 'flags', I32],
    ],
  },
  { message: 'Span.Event', place: (f) => () => spanOf(len(11, f)), fields: [[1, 'time_unix_nano', I64], [2, 'name', LEN], [3, 'attributes', LEN], [4, 'dropped_attributes_count', VARINT]] },
  {
    message: 'Span.Link', place: (f) => () => spanOf(len(13, f)),
    fields: [[1, 'trace_id', LEN], [2, 'span_id', LEN], [3, 'trace_state', LEN], [4, 'attributes', LEN], [5, 'dropped_attributes_count', VARINT], [6, 'flags', I32]],
  },
  { message: 'Status', place: (f) => () => spanOf(len(15, f)), fields: [[2, 'message', LEN], [3, 'code', VARINT]] },
  {
    message: 'Metric', place: (f) => () => metricOf(f),
    fields: [[1, 'name', LEN], [2, 'description', LEN], [3, 'unit', LEN], [5, 'gauge', LEN], [7, 'sum', LEN], [9, 'histogram', LEN], [10, 'exponential_histogram', LEN], [11, 'summary', LEN], [12, 'metadata', LEN]],
  },
  { message: 'Gauge/Sum/Histogram', place: (f) => () => metricOf(len(7, f)), fields: [[1, 'data_points', LEN], [2, 'aggregation_temporality', VARINT], [3, 'is_monotonic', VARINT]] },
  {
    message: 'NumberDataPoint', place: (f) => () => metricOf(len(5, len(1, f))),
    fields: [[2, 'start_time_unix_nano', I64], [3, 'time_unix_nano', I64], [4, 'as_double', I64], [5, 'exemplars', LEN], [6, 'as_int', I64], [7, 'attributes', LEN], [8, 'flags', VARINT]],
  },
  {
    message: 'HistogramDataPoint', place: (f) => () => metricOf(len(9, len(1, f))),
    fields: [
      [2, 'start_time_unix_nano', I64], [3, 'time_unix_nano', I64], [4, 'count', I64], [5, 'sum', I64], [6, 'bucket_counts', REPEATED_FIXED64],
      [7, 'explicit_bounds', REPEATED_FIXED64], [8, 'exemplars', LEN], [9, 'attributes', LEN], [10, 'flags', VARINT], [11, 'min', I64], [12, 'max', I64],
    ],
  },
  {
    message: 'LogRecord', place: (f) => () => logOf(f),
    fields: [
      [1, 'time_unix_nano', I64], [2, 'severity_number', VARINT], [3, 'severity_text', LEN], [5, 'body', LEN], [6, 'attributes', LEN], [7, 'dropped_attributes_count', VARINT],
      [8, 'flags', I32], [9, 'trace_id', LEN], [10, 'span_id', LEN], [11, 'observed_time_unix_nano', I64], [12, 'event_name', LEN],
    ],
  },
];

/** A field of wire type `wire` with a harmless value. */
function fieldOf(field: number, wire: number): Bytes {
  const tag = varint((field << 3) | wire);
  if (wire === VARINT) return [...tag, 0];
  if (wire === I64) return [...tag, 0, 0, 0, 0, 0, 0, 0, 0];
  if (wire === I32) return [...tag, 0, 0, 0, 0];
  return [...tag, 0];
}

describe('wire types of every known field', () => {
  for (const { message, place, fields } of MESSAGES) {
    it(`${message}: refuses each field sent with another wire type, naming it, and accepts its own`, () => {
      for (const [n, name, wire] of fields) {
        const wrong = wire === VARINT ? LEN : VARINT;
        const expected = wire === REPEATED_FIXED64 ? '1 or 2' : String(wire);
        const said = decodeError(place(fieldOf(n, wrong))).replace(/ at byte \d+$/, '');
        expect(said).toBe(`truncated or malformed protobuf: ${message}.${name} (field ${n}) has wire type ${wrong}, expected ${expected}`);
        if (wire === REPEATED_FIXED64) {
          expect(place(fieldOf(n, I64))).not.toThrow();
          expect(place(fieldOf(n, LEN))).not.toThrow();
        } else {
          expect(place(fieldOf(n, wire))).not.toThrow();
        }
      }
      // A field number the message does not define is skipped whatever its wire type.
      for (const wire of [VARINT, I64, LEN, I32]) expect(place(fieldOf(99, wire))).not.toThrow();
    });
  }
});
