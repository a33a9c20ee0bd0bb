import { describe, expect, it } from 'vitest';
import { decodeLogsJson, decodeMetricsJson, decodeTracesJson } from '../../../src/colony/otlp/decode-json.js';
import { decodeLogsProto, decodeMetricsProto, decodeTracesProto } from '../../../src/colony/otlp/decode-proto.js';
import { DEFAULT_MAX_EXPORT_ITEMS, countExportItems, tooManyItemsMessage } from '../../../src/colony/otlp/export-items.js';
import { OtlpDecodeError, type OtlpLogRecord, type OtlpMetric, type OtlpSpan, type ResourceGroup, type Signal } from '../../../src/colony/otlp/model.js';
import type { Encoding } from '../../../src/colony/otlp/responses.js';
import { decodeError } from '../../support/otlp-decode.js';
import { minimalSpansExport } from '../../support/minimal-spans.js';
import { int, len, logBytes, metricBytes, requestBytes, spanBytes, str } from '../../support/otlp-proto.js';

const TRACE = 'ab'.repeat(16);
const json = (v: unknown) => Buffer.from(JSON.stringify(v));
const count = (signal: Signal, encoding: Encoding, body: Buffer | number[]) => countExportItems(signal, encoding, Buffer.isBuffer(body) ? body : Buffer.from(body));

const span = (n: number, events = 0, links = 0): OtlpSpan => ({
  traceId: TRACE, spanId: n.toString(16).padStart(16, '0'), parentSpanId: '', traceState: '', name: `op ${n}`, kind: 2, startNs: 1n, endNs: 2n,
  attributes: { 'http.route': '/x', n }, statusCode: 0, statusMessage: '',
  events: Array.from({ length: events }, (_, i) => ({ timeNs: 1n, name: `e${i}`, attributes: { i } })),
  links: Array.from({ length: links }, () => ({ traceId: TRACE, spanId: 'cd'.repeat(8), attributes: {} })),
});
const scope = { name: 's', version: '1', attributes: { a: 'b' } };
const resource = (service: string) => ({ attributes: { 'service.name': service } });
const point = (v: number) => ({ attributes: { k: 'v' }, startNs: 1n, timeNs: 2n, value: v });

/** Two resources: the first with a scope of three spans (one with two events and a link) and an empty scope, the second with no scope. */
const traces: ResourceGroup<OtlpSpan>[] = [
  { resource: resource('a'), scopes: [{ scope, items: [span(1), span(2, 2, 1), span(3)] }, { scope, items: [] }] },
  { resource: resource('b'), scopes: [] },
];
const TRACE_ITEMS = 3 + 2 + 1 + 1 + 1;

const tracesJson = {
  resourceSpans: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'a' } }] },
      scopeSpans: [
        { scope: { name: 's' }, spans: [
          { traceId: TRACE, spanId: 'cd'.repeat(8), name: 'one' },
          { traceId: TRACE, spanId: 'ce'.repeat(8), name: 'two', events: [{ name: 'e0' }, { name: 'e1' }], links: [{ traceId: TRACE, spanId: 'cf'.repeat(8) }] },
          { traceId: TRACE, spanId: 'cg'.repeat(8), name: 'three', attributes: [{ key: 'events', value: { arrayValue: { values: [{ stringValue: 'not an event' }] } } }] },
        ] },
        { scope: { name: 'empty' }, spans: [] },
      ],
    },
    { resource: {} },
  ],
};

const metrics: ResourceGroup<OtlpMetric>[] = [{
  resource: resource('m'),
  scopes: [{ scope, items: [
    { name: 'g', description: '', unit: '', data: { type: 'gauge', points: [point(1), point(2), point(3)] } },
    { name: 's', description: '', unit: '', data: { type: 'sum', points: [point(1), point(2)], temporality: 2, monotonic: true } },
    { name: 'h', description: '', unit: '', data: { type: 'histogram', temporality: 1, points: [{ ...point(0), count: 3, sum: 6, min: 1, max: 3, bucketCounts: [1, 2], bounds: [2] }] } },
    { name: 'e', description: '', unit: '', data: { type: 'exponentialHistogram', temporality: 1, points: [1, 2].map(() => ({ ...point(0), count: 1, sum: 1, min: 1, max: 1, scale: 0, zeroCount: 0, zeroThreshold: 0, positive: { offset: 0, counts: [1] }, negative: { offset: 0, counts: [] } })) } },
    { name: 'q', description: '', unit: '', data: { type: 'summary', points: [{ ...point(0), count: 1, sum: 1, quantiles: [{ quantile: 0.5, value: 1 }] }] } },
    { name: 'no data', description: '', unit: '', data: null },
  ] }],
}];
const METRIC_ITEMS = 3 + 2 + 1 + 2 + 1 + 1;

const metricsJson = {
  resourceMetrics: [{ scopeMetrics: [{ metrics: [
    { name: 'g', gauge: { dataPoints: [{ asDouble: 1 }, { asDouble: 2 }, { asInt: '3' }] } },
    { name: 's', sum: { dataPoints: [{ asDouble: 1 }, { asDouble: 2 }], aggregationTemporality: 2, isMonotonic: true } },
    { name: 'h', histogram: { dataPoints: [{ count: '3', bucketCounts: ['1', '2'], explicitBounds: [2] }] } },
    { name: 'e', exponentialHistogram: { dataPoints: [{ count: '1' }, { count: '1' }] } },
    { name: 'q', summary: { dataPoints: [{ count: '1', quantileValues: [{ quantile: 0.5, value: 1 }] }] } },
    { name: 'no data' },
  ] }] }],
};

const log = (body: string): OtlpLogRecord => ({ timeNs: 1n, observedNs: 1n, severityNumber: 9, severityText: 'INFO', body, attributes: { k: 'v' }, traceId: '', spanId: '', eventName: '' });
const logs: ResourceGroup<OtlpLogRecord>[] = [{ resource: resource('l'), scopes: [{ scope, items: [log('a'), log('b'), log('c')] }, { scope, items: [log('d')] }] }];
const logsJson = { resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { stringValue: 'a' } }, {}, { body: { kvlistValue: { values: [] } } }] }, { logRecords: [{}] }] }] };

describe('items in an export, counted before it is decoded', () => {
  it('counts spans with their events and links, and an empty resource or scope as one, in protobuf and JSON alike', () => {
    const proto = requestBytes(traces, spanBytes);
    expect(count('traces', 'protobuf', proto)).toBe(TRACE_ITEMS);
    expect(count('traces', 'json', json(tracesJson))).toBe(TRACE_ITEMS);
    // What the decoders make of the same bodies: the objects the count stands for.
    const decoded = (r: ResourceGroup<OtlpSpan>[]) => r.reduce((n, g) => n + Math.max(1, g.scopes.reduce((m, s) => m + Math.max(1, s.items.reduce((k, x) => k + 1 + x.events.length + x.links.length, 0)), 0)), 0);
    expect(decoded(decodeTracesProto(proto))).toBe(TRACE_ITEMS);
    expect(decoded(decodeTracesJson(json(tracesJson)))).toBe(TRACE_ITEMS);
  });

  it('counts every data point of every kind of metric, and a metric without any as one', () => {
    const proto = requestBytes(metrics, (m) => metricBytes(m));
    expect(count('metrics', 'protobuf', proto)).toBe(METRIC_ITEMS);
    expect(count('metrics', 'json', json(metricsJson))).toBe(METRIC_ITEMS);
    const points = (r: ResourceGroup<OtlpMetric>[]) => r[0].scopes[0].items.reduce((n, m) => n + Math.max(1, m.data?.points.length ?? 0), 0);
    expect(points(decodeMetricsProto(proto))).toBe(METRIC_ITEMS);
    expect(points(decodeMetricsJson(json(metricsJson)))).toBe(METRIC_ITEMS);
  });

  it('counts log records across scopes', () => {
    const proto = requestBytes(logs, logBytes);
    expect(count('logs', 'protobuf', proto)).toBe(4);
    expect(count('logs', 'json', json(logsJson))).toBe(4);
    expect(decodeLogsProto(proto)[0].scopes.map((s) => s.items.length)).toEqual([3, 1]);
    expect(decodeLogsJson(json(logsJson))[0].scopes.map((s) => s.items.length)).toEqual([3, 1]);
  });

  it('counts an empty export as none, and a hundred thousand minimal spans as they are', () => {
    expect(count('traces', 'protobuf', [])).toBe(0);
    expect(count('traces', 'json', json({}))).toBe(0);
    expect(count('logs', 'json', Buffer.from(' \n{ "resourceLogs" : [ ] }\n'))).toBe(0);
    expect(count('traces', 'protobuf', minimalSpansExport(100_000, 'svc', 1n))).toBe(100_000);
  });

  it('steps over fields and values it does not count, whatever they hold', () => {
    // Protobuf: unknown fields of every wire type at each level, and a span's other fields.
    const unknown = [...int(90, 7), ...len(91, [1, 2, 3]), 0xe5, 0x05, 1, 2, 3, 4, 0xd9, 0x05, 1, 2, 3, 4, 5, 6, 7, 8];
    const proto = [...unknown, ...len(1, [...unknown, ...len(2, [...unknown, ...len(2, [...str(5, 'x'), ...unknown, ...len(11, [])]), ...len(2, [])])])];
    expect(count('traces', 'protobuf', proto)).toBe(3);
    // JSON: strings with brackets, quotes and escapes, nested containers, numbers and literals around the counted keys.
    const body = '{"x":"]}\\"{[","resourceSpans":[{"junk":[[{"spans":[1,2]}],{"a":{"b":[]}}],"scopeSpans":[{"n":-1.5e3,"t":true,"f":false,"z":null,"spans":[{"name":"a\\\\"},{"events":{"not":"an array"}}]}]}],"y":{}}';
    expect(JSON.parse(body)).toBeTruthy();
    expect(count('traces', 'json', Buffer.from(body))).toBe(2);
  });

  it('reads escaped keys as JSON.parse does, and counts a key given twice each time (an upper bound)', () => {
    expect(count('traces', 'json', Buffer.from('{"resource\\u0053pans":[{"scopeSpans":[{"sp\\u0061ns":[{},{},{}]}]}]}'))).toBe(3);
    expect(count('logs', 'json', Buffer.from('{"resourceLogs":[{"scopeLogs":[{"logRecords":[{}],"logRecords":[{},{}]}]}]}'))).toBe(3);
    expect(count('metrics', 'json', json({ resourceMetrics: [{ scopeMetrics: [{ metrics: [{ gauge: { dataPoints: [{}] }, sum: { dataPoints: [{}, {}] } }] }] }] }))).toBe(3);
  });

  it('counts nothing inside values that are not the arrays and objects the envelope has, leaving them to the decoder', () => {
    expect(count('traces', 'json', json({ resourceSpans: null }))).toBe(0);
    expect(count('traces', 'json', json({ resourceSpans: [{ scopeSpans: [{ spans: { 0: {} } }] }] }))).toBe(1);
    expect(count('traces', 'json', json([{ resourceSpans: [{}] }]))).toBe(0);
    expect(count('metrics', 'json', json({ resourceMetrics: [{ scopeMetrics: [{ metrics: [{ gauge: [{ dataPoints: [{}] }] }] }] }] }))).toBe(1);
  });
});

describe('malformed bodies are refused with an OtlpDecodeError, never a crash', () => {
  it('protobuf: a length past the end, a wrong wire type for a counted field, an unknown wire type', () => {
    expect(decodeError(() => count('traces', 'protobuf', [0x0a, 0x05, 0x12]))).toMatch(/^truncated or malformed protobuf: length-delimited field at byte 2/);
    expect(decodeError(() => count('traces', 'protobuf', [0x08, 0x01]))).toMatch(/Export\*ServiceRequest\.resource_items \(field 1\) has wire type 0, expected 2/);
    expect(decodeError(() => count('logs', 'protobuf', len(1, int(2, 5))))).toMatch(/scope_items \(field 2\) has wire type 0/);
    expect(decodeError(() => count('traces', 'protobuf', len(1, len(2, len(2, int(11, 1))))))).toMatch(/Span\.events \(field 11\) has wire type 0/);
    expect(decodeError(() => count('metrics', 'protobuf', len(1, len(2, len(2, int(5, 1))))))).toMatch(/Metric\.gauge \(field 5\) has wire type 0/);
    // Field 2 of the request is no field of it: skipped, by a wire type protobuf no longer has.
    expect(decodeError(() => count('metrics', 'protobuf', [0x13]))).toMatch(/unsupported wire type 3/);
  });

  it('JSON: an empty body, an unclosed string, object or array, a missing colon or comma, a bad escape in a key', () => {
    const cases: [string, RegExp][] = [
      ['', /the body ends where a value was expected/],
      ['{"resourceSpans":[{"scopeSpans":[{"spans":["open', /a string is not closed/],
      ['{"resourceSpans":[{"junk":{"a":[1,2}', /an object or array is not closed/],
      ['{"resourceSpans" [', /expected ":" after a key/],
      ['{"resourceSpans":[{} {}]}', /expected "," or "]" in an array/],
      ['{"resourceSpans":[] "x":1}', /expected "," or "}" in an object/],
      ['{resourceSpans:[]}', /expected a key in double quotes/],
      ['{"resourceSpans":[,]}', /unexpected ","/],
      ['{"resource\\xSpans":[]}', /a key with a bad escape/],
    ];
    for (const [body, message] of cases) {
      expect(decodeError(() => count('traces', 'json', Buffer.from(body))), body).toMatch(/^malformed JSON: /);
      expect(decodeError(() => count('traces', 'json', Buffer.from(body))), body).toMatch(message);
    }
  });

  it('JSON nested a million deep inside a skipped value: stepped over without recursion', () => {
    const deep = `{"x":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)},"resourceSpans":[{}]}`;
    expect(count('traces', 'json', Buffer.from(deep))).toBe(1);
    expect(decodeError(() => count('traces', 'json', Buffer.from(`{"x":${'['.repeat(1_000_000)}`)))).toMatch(/not closed/);
  });

  it('every cut of a valid body counts or fails with OtlpDecodeError, in both encodings', () => {
    const bodies: [Signal, Encoding, Buffer][] = [
      ['traces', 'protobuf', requestBytes(traces, spanBytes)],
      ['metrics', 'protobuf', requestBytes(metrics, (m) => metricBytes(m))],
      ['traces', 'json', json(tracesJson)],
      ['metrics', 'json', json(metricsJson)],
      ['logs', 'json', json(logsJson)],
    ];
    for (const [signal, encoding, body] of bodies) {
      for (let cut = 0; cut < body.length; cut++) {
        try {
          expect(count(signal, encoding, body.subarray(0, cut))).toBeGreaterThanOrEqual(0);
        } catch (err) {
          expect(err, `${signal} ${encoding} cut at ${cut}`).toBeInstanceOf(OtlpDecodeError);
        }
      }
    }
  });
});

describe('the cap', () => {
  it('is eight of the Collector\'s 8,192-item batches, and its refusal says how many, the limit and how to change it', () => {
    expect(DEFAULT_MAX_EXPORT_ITEMS).toBe(8 * 8192);
    const message = tooManyItemsMessage(380_000, DEFAULT_MAX_EXPORT_ITEMS);
    expect(message).toContain('380,000 items (spans with their events and links, log records, metric data points)');
    expect(message).toContain('more than the 65,536 the colony takes in one export');
    expect(message).toContain('--max-export-items N');
    expect(message).toContain('send_batch_max_size');
  });
});
