import { describe, expect, it } from 'vitest';
import { decodeLogsJson, decodeMetricsJson, decodeTracesJson } from '../../../src/colony/otlp/decode-json.js';
import { decodeLogsProto, decodeMetricsProto, decodeTracesProto } from '../../../src/colony/otlp/decode-proto.js';
import { hex, int, len, logBytes, metricBytes, requestBytes, spanBytes, str } from '../../support/otlp-proto.js';

const buf = (v: unknown) => Buffer.from(JSON.stringify(v));
const kv = (key: string, value: unknown) => ({ key, value });
const RESOURCE = { attributes: [kv('service.name', { stringValue: 'checkout' }), kv('host.cpus', { intValue: '8' })] };
const SCOPE = { name: '@opentelemetry/instrumentation-http', version: '0.1.0', attributes: [kv('scope.flag', { boolValue: true })] };
/** Every kind of attribute value the decoders must agree on. */
const ATTRIBUTES = [
  kv('s', { stringValue: 'text ünïcode' }), kv('t', { boolValue: true }), kv('f', { boolValue: false }), kv('i', { intValue: '42' }),
  kv('neg', { intValue: '-1' }), kv('min', { intValue: '-9223372036854775808' }), kv('big', { intValue: '9007199254740993' }),
  kv('d', { doubleValue: 2.5 }), kv('inf', { doubleValue: 'Infinity' }),
  kv('arr', { arrayValue: { values: [{ stringValue: 'a' }, { intValue: '2' }, { arrayValue: { values: [{ boolValue: true }] } }] } }),
  kv('map', { kvlistValue: { values: [kv('x', { doubleValue: 0.5 }), kv('y', { kvlistValue: { values: [kv('z', { stringValue: 'deep' })] } })] } }),
];

describe('the protobuf decoder reads what the JSON decoder reads', () => {
  it('spans: ids, names, kinds, times, attributes, events, links and status', () => {
    const json = decodeTracesJson(buf({ resourceSpans: [{ resource: RESOURCE, scopeSpans: [{ scope: SCOPE, spans: [
      {
        traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), parentSpanId: 'ef'.repeat(8), traceState: 'k=v', name: 'POST /orders', kind: 2,
        startTimeUnixNano: '1764671400123456789', endTimeUnixNano: '18446744073709551615', attributes: ATTRIBUTES,
        events: [{ timeUnixNano: '1764671400200000000', name: 'exception', attributes: [kv('exception.type', { stringValue: 'Boom' })] }, { name: 'second' }],
        links: [{ traceId: '12'.repeat(16), spanId: '34'.repeat(8), attributes: [kv('l', { intValue: '1' })] }],
        status: { code: 2, message: 'failed' },
      },
      { traceId: 'ab'.repeat(16), spanId: '56'.repeat(8), name: 'child', kind: 5, startTimeUnixNano: '1', endTimeUnixNano: '2', status: {} },
    ] }, { scope: { name: 'second-scope' }, spans: [] }] }, { resource: { attributes: [] }, scopeSpans: [] }] }));
    expect(json[0].scopes[0].items[0].attributes.min).toBe('-9223372036854775808');
    expect(decodeTracesProto(requestBytes(json, spanBytes))).toEqual(json);
  });

  it('metrics: gauges and sums of doubles and integers, explicit and exponential histograms, summaries', () => {
    const point = (extra: Record<string, unknown>) => ({ startTimeUnixNano: '100', timeUnixNano: '200', attributes: [kv('route', { stringValue: '/a' })], ...extra });
    const json = decodeMetricsJson(buf({ resourceMetrics: [{ resource: RESOURCE, scopeMetrics: [{ scope: SCOPE, metrics: [
      { name: 'process.memory.usage', description: 'RSS', unit: 'By', gauge: { dataPoints: [point({ asDouble: 1.25e8 }), point({ asDouble: -0.5 })] } },
      { name: 'requests', sum: { dataPoints: [point({ asDouble: 12.5 })], aggregationTemporality: 2, isMonotonic: true } },
      { name: 'queue', sum: { dataPoints: [point({ asDouble: 3.5 })], aggregationTemporality: 1, isMonotonic: false } },
      { name: 'http.server.request.duration', unit: 's', histogram: { aggregationTemporality: 1, dataPoints: [
        point({ count: '10', sum: 1.5, min: 0.01, max: 0.9, bucketCounts: ['1', '2', '3', '4'], explicitBounds: [0.005, 0.1, 0.5] }),
        point({ count: '0', bucketCounts: [], explicitBounds: [] }),
      ] } },
      { name: 'exp', exponentialHistogram: { aggregationTemporality: 2, dataPoints: [
        point({ count: '12', sum: 40.5, min: -3, max: 30, scale: 2, zeroCount: '1', zeroThreshold: 0.5,
          positive: { offset: -1, bucketCounts: ['3', '0', '5'] }, negative: { offset: 3, bucketCounts: ['2', '1'] } }),
        point({ count: '0', scale: -4 }),
      ] } },
      { name: 'quantiles', summary: { dataPoints: [point({ count: '4', sum: 2.5, quantileValues: [{ quantile: 0.5, value: 0.25 }, { quantile: 1, value: 1.5 }] })] } },
      { name: 'nothing' },
    ] }] }] }));
    expect(decodeMetricsProto(requestBytes(json, (m) => metricBytes(m)))).toEqual(json);
  });

  it('metrics: integer points, negative ones included', () => {
    const json = decodeMetricsJson(buf({ resourceMetrics: [{ scopeMetrics: [{ metrics: [
      { name: 'lag', gauge: { dataPoints: [{ asInt: '1000', timeUnixNano: '5' }, { asInt: '-3', timeUnixNano: '6' }] } },
      { name: 'count', sum: { dataPoints: [{ asInt: 7 }], aggregationTemporality: 1, isMonotonic: true } },
    ] }] }] }));
    expect(decodeMetricsProto(requestBytes(json, (m) => metricBytes(m, true)))).toEqual(json);
  });

  it('log records: every field, a structured body and an empty one', () => {
    const json = decodeLogsJson(buf({ resourceLogs: [{ resource: RESOURCE, scopeLogs: [{ scope: SCOPE, logRecords: [
      {
        timeUnixNano: '1764671400000000001', observedTimeUnixNano: '1764671400000000002', severityNumber: 17, severityText: 'ERROR',
        body: { kvlistValue: { values: [kv('msg', { stringValue: 'boom' }), kv('n', { intValue: '3' })] } }, attributes: ATTRIBUTES,
        traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), eventName: 'device.crash',
      },
      { body: { stringValue: 'plain' }, severityNumber: 9 },
      { timeUnixNano: '3' },
    ] }] }] }));
    expect(decodeLogsProto(requestBytes(json, logBytes))).toEqual(json);
  });
});

describe('protobuf values the JSON form cannot spell', () => {
  /** One span with one attribute whose AnyValue is `value` (raw bytes). */
  const withValue = (value: number[]) => requestBytes([{ resource: { attributes: {} }, scopes: [{ scope: { name: '', version: '', attributes: {} }, items: [0] }] }], () => [
    ...hex(1, 'ab'.repeat(16)), ...hex(2, 'cd'.repeat(8)), ...len(9, [...str(1, 'k'), ...len(2, value)]),
  ]);
  const valueOf = (value: number[]) => decodeTracesProto(withValue(value))[0].scopes[0].items[0].attributes.k;
  it('reads any non-zero bool varint as true, and bytes as base64', () => {
    expect([valueOf(int(2, 2)), valueOf(int(2, 1)), valueOf(int(2, 0))]).toEqual([true, true, false]);
    expect(valueOf(len(7, [1, 2, 255]))).toBe('AQL/');
    expect(valueOf([])).toBeNull();
  });
});
