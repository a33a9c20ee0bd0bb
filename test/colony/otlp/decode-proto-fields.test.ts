import { describe, expect, it } from 'vitest';
import { decodeLogsProto, decodeMetricsProto, decodeTracesProto } from '../../../src/colony/otlp/decode-proto.js';
import { MAX_ANY_VALUE_DEPTH } from '../../../src/colony/otlp/model.js';
import { decodeError } from '../../support/otlp-decode.js';
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

describe('absent fields take the proto3 defaults', () => {
  it('a span, its event, link and status', () => {
    const empty = decodeTracesProto(oneItem([]))[0].scopes[0].items[0];
    expect(empty).toEqual({
      traceId: null, spanId: null, parentSpanId: '', traceState: '', name: '', kind: 0,
      startNs: 0n, endNs: 0n, attributes: {}, events: [], links: [], statusCode: 0, statusMessage: '',
    });
    const s = spanOf([...len(11, []), ...len(13, []), ...len(15, [])]);
    expect(s.events).toEqual([{ timeNs: 0n, name: '', attributes: {} }]);
    expect(s.links).toEqual([{ traceId: null, spanId: null, attributes: {} }]);
    expect([s.statusCode, s.statusMessage]).toEqual([0, '']);
  });

  it('a metric, its bodies and points', () => {
    expect(metricOf([])).toEqual({ name: '', description: '', unit: '', data: null });
    expect(metricOf(len(5, [])).data).toEqual({ type: 'gauge', points: [] });
    expect(metricOf(len(7, len(1, []))).data).toEqual({ type: 'sum', points: [{ attributes: {}, startNs: 0n, timeNs: 0n, value: 0 }], temporality: 0, monotonic: false });
    expect(metricOf(len(9, len(1, []))).data).toEqual({
      type: 'histogram', temporality: 0,
      points: [{ attributes: {}, startNs: 0n, timeNs: 0n, count: 0, sum: null, min: null, max: null, bucketCounts: [], bounds: [] }],
    });
  });

  it('a log record', () => {
    expect(logOf([])).toEqual({ timeNs: 0n, observedNs: 0n, severityNumber: 0, severityText: '', body: null, attributes: {}, traceId: '', spanId: '', eventName: '' });
  });

  it('a resource group without a resource, and a scope group without a scope', () => {
    const [g] = decodeLogsProto(Buffer.from(len(1, len(2, len(2, [])))));
    expect(g.resource).toEqual({ attributes: {} });
    expect(g.scopes[0].scope).toEqual({ name: '', version: '', attributes: {} });
  });

  it('a key-value without a key or a value: the empty key, a null value', () => {
    expect(spanOf(len(9, len(2, len(1, [...Buffer.from('v')])))).attributes).toEqual({ '': 'v' });
    expect(spanOf(len(9, str(1, 'k'))).attributes).toEqual({ k: null });
  });
});

describe('protobuf fields, one by one', () => {
  it('reads every span field into its own place', () => {
    const s = spanOf([
      ...str(3, 'k=v'), ...hex(4, 'ef'.repeat(8)), ...str(5, 'GET /'), ...int(6, 3), ...fixed64(7, 2n ** 63n + 1n), ...fixed64(8, 2n ** 64n - 1n),
      ...len(9, [...str(1, 'a'), ...len(2, int(3, -7))]),
      ...len(11, [...fixed64(1, 9n), ...str(2, 'exception'), ...len(3, [...str(1, 'e'), ...len(2, int(2, 1))]), ...int(4, 3)]),
      ...len(13, [...hex(1, '12'.repeat(16)), ...hex(2, '34'.repeat(8)), ...str(3, 'ignored=1'), ...len(4, [...str(1, 'l'), ...len(2, str(1, 'x'))]), ...int(5, 1)]),
      ...len(15, [...str(2, 'boom'), ...int(3, 2), ...int(9, 1)]),
    ]);
    expect(s).toEqual({
      traceId: TRACE, spanId: SPAN_ID, parentSpanId: 'ef'.repeat(8), traceState: 'k=v', name: 'GET /', kind: 3,
      startNs: 2n ** 63n + 1n, endNs: 2n ** 64n - 1n, attributes: { a: -7 },
      events: [{ timeNs: 9n, name: 'exception', attributes: { e: true } }],
      links: [{ traceId: '12'.repeat(16), spanId: '34'.repeat(8), attributes: { l: 'x' } }],
      statusCode: 2, statusMessage: 'boom',
    });
  });

  it('reads ids of the wrong length, or all zero, as malformed (null), and empty ones as absent', () => {
    expect(spanOf(hex(4, 'ef'.repeat(4))).parentSpanId).toBeNull();
    expect(spanOf(len(4, [])).parentSpanId).toBe('');
    expect(decodeTracesProto(oneItem([...len(1, Array(16).fill(0)), ...hex(2, SPAN_ID)]))[0].scopes[0].items[0].traceId).toBeNull();
    expect(logOf([...hex(9, 'ab'.repeat(8)), ...hex(10, SPAN_ID)])).toMatchObject({ traceId: null, spanId: SPAN_ID });
  });

  it('reads every log record field into its own place', () => {
    expect(logOf([
      ...fixed64(1, 10n), ...int(2, 17), ...str(3, 'ERROR'), ...len(5, str(1, 'boom')), ...len(6, [...str(1, 'a'), ...len(2, double(4, 0.5))]),
      ...int(7, 2), ...[(8 << 3) | 5, 1, 0, 0, 0], ...hex(9, TRACE), ...hex(10, SPAN_ID), ...fixed64(11, 11n), ...str(12, 'device.crash'),
    ])).toEqual({ timeNs: 10n, observedNs: 11n, severityNumber: 17, severityText: 'ERROR', body: 'boom', attributes: { a: 0.5 }, traceId: TRACE, spanId: SPAN_ID, eventName: 'device.crash' });
  });

  it('reads number points as doubles or signed integers, with their times and attributes', () => {
    const point = (value: Bytes) => [...fixed64(2, 5n), ...fixed64(3, 6n), ...value, ...len(7, [...str(1, 'r'), ...len(2, str(1, '/a'))]), ...int(8, 1)];
    const m = metricOf([...str(1, 'm'), ...len(5, [...len(1, point(double(4, -0.25))), ...len(1, point(fixed64(6, -3n))), ...len(1, point(fixed64(6, 2n ** 40n)))])]);
    expect(m.data).toEqual({ type: 'gauge', points: [-0.25, -3, 2 ** 40].map((value) => ({ attributes: { r: '/a' }, startNs: 5n, timeNs: 6n, value })) });
  });

  it('reads a sum\'s temporality and monotonicity, any non-zero varint being true', () => {
    expect(metricOf(len(7, [...int(2, 1), ...int(3, 2)])).data).toEqual({ type: 'sum', points: [], temporality: 1, monotonic: true });
    expect(metricOf(len(7, [...int(2, 2), ...int(3, 0)])).data).toMatchObject({ temporality: 2, monotonic: false });
  });

  it('reads every histogram point field, and the histogram\'s temporality', () => {
    const p = [
      ...fixed64(2, 1n), ...fixed64(3, 2n), ...fixed64(4, 10n), ...double(5, 1.5), ...fixed64(6, 4n), ...fixed64(6, 6n), ...double(7, 0.1),
      ...len(8, []), ...len(9, [...str(1, 'a'), ...len(2, str(1, 'b'))]), ...int(10, 1), ...double(11, 0.01), ...double(12, 0.9),
    ];
    expect(metricOf(len(9, [...len(1, p), ...int(2, 2)])).data).toEqual({
      type: 'histogram', temporality: 2,
      points: [{ attributes: { a: 'b' }, startNs: 1n, timeNs: 2n, count: 10, sum: 1.5, min: 0.01, max: 0.9, bucketCounts: [4, 6], bounds: [0.1] }],
    });
  });

  it('keeps a metric\'s data when its name comes after it', () => {
    expect(metricOf([...len(5, len(1, double(4, 1))), ...str(1, 'late'), ...str(3, 'ms')])).toMatchObject({ name: 'late', unit: 'ms', data: { type: 'gauge' } });
  });

  it('reads exponential histogram points: zigzag scale and offsets, packed and unpacked bucket counts', () => {
    const sint = (field: number, v: number) => int(field, v >= 0 ? 2 * v : -2 * v - 1);
    const p = [
      ...len(1, [...str(1, 'a'), ...len(2, str(1, 'b'))]), ...fixed64(2, 1n), ...fixed64(3, 2n), ...fixed64(4, 9n), ...double(5, 20.5),
      ...sint(6, -3), ...fixed64(7, 2n), ...len(8, [...sint(1, -2), ...len(2, [...varint(1), ...varint(300)])]),
      ...len(9, [...sint(1, 5), ...int(2, 4), ...int(2, 0)]), ...int(10, 1), ...len(11, []), ...double(12, -7), ...double(13, 99), ...double(14, 0.001),
    ];
    expect(metricOf(len(10, [...len(1, p), ...int(2, 1)])).data).toEqual({
      type: 'exponentialHistogram', temporality: 1,
      points: [{
        attributes: { a: 'b' }, startNs: 1n, timeNs: 2n, count: 9, sum: 20.5, min: -7, max: 99, scale: -3, zeroCount: 2, zeroThreshold: 0.001,
        positive: { offset: -2, counts: [1, 300] }, negative: { offset: 5, counts: [4, 0] },
      }],
    });
  });

  it('reads summary points with their quantile values in the order sent', () => {
    const p = [
      ...fixed64(2, 1n), ...fixed64(3, 2n), ...fixed64(4, 5n), ...double(5, 7.5), ...len(6, [...double(1, 0.99), ...double(2, 3)]),
      ...len(6, [...double(1, 0.5), ...double(2, 1)]), ...len(7, [...str(1, 'k'), ...len(2, str(1, 'v'))]), ...int(8, 1),
    ];
    expect(metricOf(len(11, len(1, p))).data).toEqual({
      type: 'summary',
      points: [{ attributes: { k: 'v' }, startNs: 1n, timeNs: 2n, count: 5, sum: 7.5, quantiles: [{ quantile: 0.99, value: 3 }, { quantile: 0.5, value: 1 }] }],
    });
  });

  it('skips a metric\'s metadata', () => {
    expect(metricOf([...str(1, 'm'), ...len(12, [...str(1, 'k'), ...len(2, str(1, 'v'))])])).toEqual({ name: 'm', description: '', unit: '', data: null });
  });
});

describe('AnyValue nesting', () => {
  const arrays = (n: number) => len(5, Array.from({ length: n }, () => len(1, len(5, []))).flat());
  const kvlists = (n: number) => len(6, Array.from({ length: n }, (_, i) => len(1, [...str(1, `k${i}`), ...len(2, len(6, []))])).flat());

  it('counts depth, not siblings: a hundred empty arrays or lists side by side decode', () => {
    expect(anyValue(arrays(100))).toEqual(Array(100).fill([]));
    expect(Object.keys(anyValue(kvlists(100)) as object)).toHaveLength(100);
  });

  it('allows exactly the maximum depth, counting arrays and lists alike', () => {
    let v: Bytes = str(1, 'leaf');
    for (let i = 0; i < MAX_ANY_VALUE_DEPTH; i++) v = i % 2 === 0 ? len(5, len(1, v)) : len(6, len(1, [...str(1, 'k'), ...len(2, v)]));
    expect(() => anyValue(v)).not.toThrow();
    expect(decodeError(() => anyValue(len(5, len(1, v))))).toBe(`AnyValue nested deeper than ${MAX_ANY_VALUE_DEPTH} levels (arrays and key-value lists)`);
    expect(decodeError(() => anyValue(len(6, len(1, [...str(1, 'k'), ...len(2, v)]))))).toMatch(/nested deeper/);
  });
});

describe('unknown fields, whatever their payload', () => {
  /**
   * Each message: a way to decode it in place, some known fields, and a known field of its own to hide
   * inside unknown ones: an unknown field read as anything but a whole field to skip would surface it.
   */
  const cases: [string, (m: Bytes) => unknown, Bytes, Bytes][] = [
    ['Export*ServiceRequest', (m) => decodeTracesProto(Buffer.from(m)), len(1, []), len(1, len(1, []))],
    ['ResourceSpans', (m) => decodeTracesProto(Buffer.from(len(1, m))), len(2, []), len(2, len(2, []))],
    ['Resource', (m) => decodeTracesProto(Buffer.from(len(1, len(1, m))))[0].resource, len(1, str(1, 'a')), len(1, str(1, 'b'))],
    ['ScopeSpans', (m) => decodeTracesProto(Buffer.from(len(1, len(2, m))))[0].scopes[0], len(2, []), len(2, [])],
    ['InstrumentationScope', (m) => decodeTracesProto(Buffer.from(len(1, len(2, len(1, m)))))[0].scopes[0].scope, str(1, 'lib'), str(2, '9')],
    ['Span', (m) => spanOf(m), str(5, 'name'), str(5, 'evil')],
    ['Span.Event', (m) => spanOf(len(11, m)).events, str(2, 'e'), str(2, 'evil')],
    ['Span.Link', (m) => spanOf(len(13, m)).links, hex(2, SPAN_ID), hex(2, 'ee'.repeat(8))],
    ['Status', (m) => spanOf(len(15, m)).statusMessage, str(2, 'boom'), str(2, 'evil')],
    ['KeyValue', (m) => spanOf(len(9, m)).attributes, str(1, 'k'), str(1, 'evil')],
    ['AnyValue', (m) => anyValue(m), str(1, 's'), str(1, 'evil')],
    ['ArrayValue', (m) => anyValue(len(5, m)), len(1, str(1, 's')), len(1, str(1, 'evil'))],
    ['KeyValueList', (m) => anyValue(len(6, m)), len(1, str(1, 'k')), len(1, str(1, 'evil'))],
    ['Metric', (m) => metricOf(m), str(1, 'm'), str(1, 'evil')],
    ['Sum', (m) => metricOf(len(7, m)).data, int(2, 2), int(2, 1)],
    ['NumberDataPoint', (m) => metricOf(len(5, len(1, m))).data, double(4, 1.5), double(4, 99)],
    ['HistogramDataPoint', (m) => metricOf(len(9, len(1, m))).data, double(5, 1.5), double(5, 99)],
    ['ExponentialHistogram', (m) => metricOf(len(10, m)).data, len(1, []), len(1, [])],
    ['ExponentialHistogramDataPoint', (m) => metricOf(len(10, len(1, m))).data, double(5, 1.5), double(5, 99)],
    ['ExponentialHistogramDataPoint.Buckets', (m) => metricOf(len(10, len(1, len(8, m)))).data, int(2, 3), int(2, 99)],
    ['SummaryDataPoint', (m) => metricOf(len(11, len(1, m))).data, double(5, 1.5), double(5, 99)],
    ['SummaryDataPoint.ValueAtQuantile', (m) => metricOf(len(11, len(1, len(6, m)))).data, double(2, 1.5), double(2, 99)],
    ['LogRecord', (m) => logOf(m), str(3, 'INFO'), str(3, 'evil')],
  ];
  /** Unknown fields of each wire type; the LEN one carries `hidden`, the I64 and I32 ones bytes that read as a string field. */
  const unknown = (hidden: Bytes) => [
    ...int(99, 300), ...len(98, hidden), ...fixed64(97, 0x6c6976650408n), ...[(96 << 3) | 5, 0x0a, 0x02, 0x68, 0x69],
  ];

  for (const [message, decode, known, hidden] of cases) {
    it(`${message}: skips them before, between and after its known fields`, () => {
      const plain = decode(known);
      expect(decode([...unknown(hidden), ...known, ...unknown(hidden)])).toEqual(plain);
      expect(decode([...known, ...unknown(hidden), ...known])).toEqual(decode([...known, ...known]));
    });
  }
});
