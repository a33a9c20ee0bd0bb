import { describe, expect, it } from 'vitest';
import { INVALID_TIME, decodeLogsJson, decodeLogsValue, decodeMetricsValue, decodeTracesJson, decodeTracesValue } from '../../../src/colony/otlp/decode-json.js';
import { MAX_ANY_VALUE_DEPTH } from '../../../src/colony/otlp/model.js';
import { attr, decodeError, metricOf, spanOf } from '../../support/otlp-decode.js';


describe('JSON values that are not what a field expects', () => {
  it('reads null and arrays where an object belongs as absent, never as an object', () => {
    expect(spanOf({ status: null })).toMatchObject({ statusCode: 0, statusMessage: '' });
    expect(spanOf({ status: [] })).toMatchObject({ statusCode: 0, statusMessage: '' });
    expect(spanOf({ events: [null, [], { name: 'e' }], links: [null, []] })).toMatchObject({ events: [{ timeNs: 0n, name: 'e', attributes: {} }], links: [] });
    expect(attr(null)).toBeNull();
    expect(attr([{ stringValue: 's' }])).toBeNull();
    expect(attr({ arrayValue: null })).toEqual([]);
    // A bare list in place of `{"values": [...]}` is read (opentelemetry-proto's examples/events.json writes it so).
    expect(attr({ arrayValue: [{ stringValue: 's' }] })).toEqual(['s']);
    expect(attr({ kvlistValue: null })).toEqual({});
    expect(attr({ kvlistValue: [{ key: 'a', value: { stringValue: 's' } }] })).toEqual({ a: 's' });
    expect(metricOf({ gauge: null, sum: [], histogram: { dataPoints: [null, [], {}] } }).data).toMatchObject({ type: 'histogram', points: [{ count: 0 }] });
    expect(metricOf({ exponentialHistogram: [] }).data).toBeNull();
    expect(metricOf({ summary: null }).data).toBeNull();
  });

  it('refuses null, an array or a number where the request needs an object, naming where', () => {
    expect(decodeError(() => decodeTracesJson(Buffer.from('null')))).toBe('request body must be an object');
    expect(decodeError(() => decodeTracesValue([]))).toBe('request body must be an object');
    expect(decodeError(() => decodeTracesValue({ resourceSpans: [null] }))).toBe('resourceSpans[0] must be an object');
    expect(decodeError(() => decodeTracesValue({ resourceSpans: [[]] }))).toBe('resourceSpans[0] must be an object');
    expect(decodeError(() => decodeTracesValue({ resourceSpans: [{ scopeSpans: [[]] }] }))).toBe('resourceSpans[0].scopeSpans[0] must be an object');
    expect(decodeError(() => decodeTracesValue({ resourceSpans: [{ scopeSpans: [{ spans: [[]] }] }] }))).toBe('spans[0] must be an object');
    expect(decodeError(() => decodeMetricsValue({ resourceMetrics: [{}, { scopeMetrics: [{}, {}, { metrics: [{}, 5] }] }] }))).toBe('metrics[1] must be an object');
    expect(decodeError(() => decodeLogsValue({ resourceLogs: [{ scopeLogs: [{ logRecords: {} }] }] }))).toBe('scopeLogs[0].logRecords must be an array');
    expect(decodeError(() => decodeLogsValue({ resourceLogs: [{}, { scopeLogs: 1 }] }))).toBe('resourceLogs[1].scopeLogs must be an array');
    expect(decodeError(() => decodeMetricsValue({ resourceMetrics: 'x' }))).toBe('resourceMetrics must be an array');
  });

  it('reads an absent or null list as empty', () => {
    expect(decodeTracesValue({})).toEqual([]);
    expect(decodeLogsValue({ resourceLogs: [{ scopeLogs: null }] })).toEqual([{ resource: { attributes: {} }, scopes: [] }]);
    expect(decodeMetricsValue({ resourceMetrics: [{ scopeMetrics: [{ metrics: null }, {}] }] })[0].scopes).toEqual([
      { scope: { name: '', version: '', attributes: {} }, items: [] },
      { scope: { name: '', version: '', attributes: {} }, items: [] },
    ]);
  });

  it('reads a double only from a number or a string', () => {
    for (const v of [true, false, [5], {}, null]) expect(attr({ doubleValue: v }), JSON.stringify(v)).toBe(0);
    expect(attr({ doubleValue: '-1e3' })).toBe(-1000);
    expect([attr({ doubleValue: ' ' }), attr({ doubleValue: '' })]).toEqual([0, 0]);
  });

  it('reads an id sent as a list of characters as malformed', () => {
    expect(spanOf({ traceId: Array(32).fill('a'), parentSpanId: Array(16).fill('1') })).toMatchObject({ traceId: null, parentSpanId: null });
  });

  it('reads an integer only from a number or a whole string of digits with an optional minus', () => {
    for (const v of ['x5', '5x', '+5', '', ' 5', '--5', '5-']) expect(attr({ intValue: v }), v).toBe(0);
    expect(attr({ intValue: '-9007199254740993' })).toBe('-9007199254740993');
    expect(attr({ intValue: '0' })).toBe(0);
    expect(attr({ intValue: 2.5 })).toBe(2.5);
    expect(attr({ intValue: null })).toBe(0);
    expect([attr({ intValue: [5] }), attr({ intValue: ['-5'] })]).toEqual([0, 0]);
  });

  it('reads a timestamp only from a whole string of digits', () => {
    const start = (v: unknown) => spanOf({ startTimeUnixNano: v }).startNs;
    for (const bad of ['x12', '12x', ' 12', '1e9', '0x10', {}, [1], -5, -1, -0.5]) expect(start(bad), JSON.stringify(bad)).toBe(INVALID_TIME);
    // The marker is a value no valid time takes: 1 ns is a time, not the marker.
    expect(INVALID_TIME).toBeLessThan(0n);
    expect([start('1'), start(1)]).toEqual([1n, 1n]);
    expect(start('00000000000000000007')).toBe(7n);
    expect(start(Number.MAX_SAFE_INTEGER)).toBe(BigInt(Number.MAX_SAFE_INTEGER));
  });

  it('reads bytes values as their base64 text and other AnyValue fields as absent', () => {
    expect(attr({ bytesValue: 5 })).toBe('');
    expect(attr({ unknownValue: 'x' })).toBeNull();
    expect(attr({ stringValue: null })).toBe('');
    expect(attr({ boolValue: 1 })).toBe(false);
  });

  it('takes the first AnyValue field in the order string, bool, int, double, array, list, bytes', () => {
    expect(attr({ bytesValue: 'QQ==', stringValue: 's' })).toBe('s');
    expect(attr({ intValue: '3', boolValue: true })).toBe(true);
    expect(attr({ doubleValue: 1.5, intValue: '3' })).toBe(3);
    expect(attr({ arrayValue: { values: [] }, doubleValue: 1.5 })).toBe(1.5);
    expect(attr({ kvlistValue: { values: [] }, arrayValue: { values: [{ boolValue: true }] } })).toEqual([true]);
    expect(attr({ bytesValue: 'QQ==', kvlistValue: { values: [] } })).toEqual({});
  });

  it('refuses arrayValue.values that is not a list, naming it', () => {
    expect(decodeError(() => attr({ arrayValue: { values: {} } }))).toBe('arrayValue.values must be an array');
    expect(attr({ kvlistValue: { values: {} } })).toEqual({});
  });
});

describe('JSON AnyValue nesting', () => {
  const nested = (depth: number, kind: 'array' | 'list' | 'mixed') => {
    let v: unknown = { stringValue: 'leaf' };
    for (let i = 0; i < depth; i++) {
      const asArray = kind === 'array' || (kind === 'mixed' && i % 2 === 0);
      v = asArray ? { arrayValue: { values: [v] } } : { kvlistValue: { values: [{ key: 'k', value: v }] } };
    }
    return v;
  };

  it('allows exactly the maximum depth of arrays, lists or both, and refuses one more', () => {
    for (const kind of ['array', 'list', 'mixed'] as const) {
      expect(() => attr(nested(MAX_ANY_VALUE_DEPTH, kind)), kind).not.toThrow();
      expect(decodeError(() => attr(nested(MAX_ANY_VALUE_DEPTH + 1, kind)))).toBe(`AnyValue nested deeper than ${MAX_ANY_VALUE_DEPTH} levels (arrays and key-value lists)`);
    }
  });

  it('counts the depth of a log body the same way', () => {
    const log = (body: unknown) => () => decodeLogsValue({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ body }] }] }] });
    expect(log(nested(MAX_ANY_VALUE_DEPTH, 'mixed'))).not.toThrow();
    expect(decodeError(log(nested(MAX_ANY_VALUE_DEPTH + 1, 'mixed')))).toMatch(/nested deeper than 64/);
  });

  it('counts depth, not siblings', () => {
    const siblings = Array.from({ length: 100 }, () => ({ arrayValue: { values: [{ kvlistValue: { values: [] } }] } }));
    expect(attr({ arrayValue: { values: siblings } })).toHaveLength(100);
  });
});

describe('JSON metrics and enums', () => {
  it('reads histogram temporality by number or name, with or without its prefix', () => {
    const temporality = (t: unknown) => (metricOf({ histogram: { aggregationTemporality: t, dataPoints: [] } }).data as { temporality: number }).temporality;
    expect([temporality(2), temporality('AGGREGATION_TEMPORALITY_DELTA'), temporality('CUMULATIVE'), temporality('UNSPECIFIED'), temporality('SOMETIMES'), temporality(null)]).toEqual([2, 1, 2, 0, 0, 0]);
    const sum = (t: unknown) => (metricOf({ sum: { aggregationTemporality: t } }).data as { temporality: number }).temporality;
    expect([sum('DELTA'), sum('AGGREGATION_TEMPORALITY_UNSPECIFIED'), sum(1)]).toEqual([1, 0, 1]);
  });

  it('reads a key-value without a key under the empty key, as the protobuf decoder does; a key of another type is dropped', () => {
    const v = { stringValue: 'v' };
    expect(spanOf({ attributes: [{ value: v }] }).attributes).toEqual({ '': 'v' });
    expect(spanOf({ attributes: [{ key: null, value: v }] }).attributes).toEqual({ '': 'v' });
    expect(spanOf({ attributes: [{ key: 7, value: v }, { key: 'k' }] }).attributes).toEqual({ k: null });
  });

  it("reads a histogram point's null sum, min and max as absent, as proto3 JSON does", () => {
    const point = (p: Record<string, unknown>) => (metricOf({ histogram: { dataPoints: [p] } }).data as { points: { sum: number | null; min: number | null; max: number | null }[] }).points[0];
    expect(point({ sum: null, min: null, max: null })).toMatchObject({ sum: null, min: null, max: null });
    expect(point({ sum: 0, min: 1.5, max: '2' })).toMatchObject({ sum: 0, min: 1.5, max: 2 });
  });

  it('prefers gauge, then sum, then histogram when a metric carries several', () => {
    expect(metricOf({ gauge: { dataPoints: [] }, sum: { dataPoints: [] } }).data).toEqual({ type: 'gauge', points: [] });
    expect(metricOf({ sum: { dataPoints: [] }, histogram: { dataPoints: [] } }).data).toMatchObject({ type: 'sum' });
    expect(metricOf({ histogram: { dataPoints: [] }, summary: { dataPoints: [{}] } }).data).toMatchObject({ type: 'histogram' });
    expect(metricOf({ exponentialHistogram: { dataPoints: [{}] }, summary: { dataPoints: [{}, {}] } }).data).toMatchObject({ type: 'exponentialHistogram' });
  });

  it('reads an integer point when asDouble is absent, and a double when both are sent', () => {
    const value = (p: Record<string, unknown>) => (metricOf({ gauge: { dataPoints: [p] } }).data as { points: { value: number }[] }).points[0].value;
    expect(value({ asInt: '-12' })).toBe(-12);
    expect(value({ asDouble: 0.5, asInt: '3' })).toBe(0.5);
    expect(value({ asDouble: 'NaN' })).toBeNaN();
    expect(value({})).toBe(0);
  });

  it('reads non-list bucket counts and bounds as empty', () => {
    const point = (metricOf({ histogram: { dataPoints: [{ bucketCounts: '1,2', explicitBounds: { 0: 1 }, count: '3' }] } }).data as { points: unknown[] }).points[0];
    expect(point).toMatchObject({ count: 3, bucketCounts: [], bounds: [] });
  });

  it('reads span kinds and status codes beyond the known names as sent, and unknown names as 0', () => {
    expect(spanOf({ kind: 9 }).kind).toBe(9);
    expect(spanOf({ kind: 'SPAN_KIND_UNSPECIFIED' }).kind).toBe(0);
    expect(spanOf({ kind: 'SPAN_KIND_CONSUMER' }).kind).toBe(5);
    expect(spanOf({ status: { code: 'UNSET' } }).statusCode).toBe(0);
    expect(spanOf({ status: { code: 'ERROR_ISH' } }).statusCode).toBe(0);
  });
});

describe('JSON log records', () => {
  it('reads a structured body, and ids the way spans do', () => {
    const [l] = decodeLogsValue({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { arrayValue: { values: [{ intValue: '1' }] } }, traceId: 'AB'.repeat(16), spanId: 'x' }] }] }] })[0].scopes[0].items;
    expect(l).toMatchObject({ body: [1], traceId: 'ab'.repeat(16), spanId: null });
  });

  it('decodes the request bytes as UTF-8', () => {
    expect(decodeLogsJson(Buffer.from('{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"severityText":"é"}]}]}]}'))[0].scopes[0].items[0].severityText).toBe('é');
  });
});
