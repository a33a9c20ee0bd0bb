import { describe, expect, it } from 'vitest';
import { INVALID_TIME, decodeTracesJson, parseHexId } from '../../../src/colony/otlp/decode-json.js';
import { SPAN, TRACE, attr, buf, decodeError, logOf, metricOf, spanOf } from '../../support/otlp-decode.js';


describe('hex ids, character by character', () => {
  it('accepts every hex digit in either case and nothing next to them', () => {
    expect(parseHexId('0123456789abcdef', 8)).toBe('0123456789abcdef');
    expect(parseHexId('ABCDEF0000000001', 8)).toBe('abcdef0000000001');
    // The characters just outside each range: / : @ G ` g.
    for (const c of ['/', ':', '@', 'G', '`', 'g']) expect(parseHexId(`${c}${'1'.repeat(15)}`, 8)).toBeNull();
    expect(parseHexId(null, 8)).toBe('');
    expect(parseHexId('1'.repeat(17), 8)).toBeNull();
  });
});

describe('timestamps', () => {
  it('reads non-negative integers as numbers or strings of up to 20 digits; anything else marks the span invalid', () => {
    const start = (v: unknown) => spanOf({ startTimeUnixNano: v }).startNs;
    expect([start(0), start(1234), start('1234'), start('1'.repeat(20)), start(undefined), start(null)]).toEqual([0n, 1234n, 1234n, BigInt('1'.repeat(20)), 0n, 0n]);
    for (const bad of [-1, 1.5, '1'.repeat(21), '-5', '12a', '', true]) expect(start(bad)).toBe(INVALID_TIME);
  });
});

describe('attribute values', () => {
  it('decodes every AnyValue kind', () => {
    expect(attr({ stringValue: 's' })).toBe('s');
    expect(attr({ stringValue: 5 })).toBe('');
    expect(attr({ boolValue: true })).toBe(true);
    expect(attr({ boolValue: 'true' })).toBe(false);
    expect(attr({ intValue: 7 })).toBe(7);
    expect(attr({ intValue: '-42' })).toBe(-42);
    expect(attr({ intValue: '9007199254740993' })).toBe('9007199254740993');
    expect(attr({ intValue: '4.5' })).toBe(0);
    expect(attr({ intValue: true })).toBe(0);
    expect(attr({ doubleValue: 1.5 })).toBe(1.5);
    expect(attr({ doubleValue: '2.5' })).toBe(2.5);
    expect(attr({ doubleValue: 'NaN' })).toBeNaN();
    expect([attr({ doubleValue: 'Infinity' }), attr({ doubleValue: '-Infinity' })]).toEqual([Infinity, -Infinity]);
    expect([attr({ doubleValue: 'abc' }), attr({ doubleValue: null })]).toEqual([0, 0]);
    expect(attr({ bytesValue: 'AQI=' })).toBe('AQI=');
    expect(attr({ arrayValue: { values: [{ stringValue: 'a' }, { intValue: '1' }] } })).toEqual(['a', 1]);
    expect(attr({ arrayValue: 'x' })).toEqual([]);
    expect(attr({ kvlistValue: { values: [{ key: 'x', value: { boolValue: true } }, { key: 1, value: { boolValue: true } }, 'junk'] } })).toEqual({ x: true });
    expect(attr({ kvlistValue: [] })).toEqual({});
    // opentelemetry-proto's examples/events.json writes the lists bare, without `values`.
    expect(attr({ kvlistValue: [{ key: 'type', value: { intValue: '0' } }, { key: 'url', value: { stringValue: 'https://x' } }] })).toEqual({ type: 0, url: 'https://x' });
    expect(attr({ arrayValue: [{ stringValue: 'a' }, { boolValue: false }] })).toEqual(['a', false]);
    expect([attr({}), attr('plain'), attr(null)]).toEqual([null, null, null]);
  });

  it('reads attributes only from a list of key-value objects', () => {
    expect(spanOf({ attributes: { k: { stringValue: 's' } } }).attributes).toEqual({});
  });
});

describe('spans', () => {
  it('reads kinds and status codes as numbers or names, with or without their prefix', () => {
    expect([spanOf({ kind: 2 }).kind, spanOf({ kind: 'SPAN_KIND_CLIENT' }).kind, spanOf({ kind: 'PRODUCER' }).kind, spanOf({ kind: 'BOGUS' }).kind, spanOf({ kind: true }).kind]).toEqual([2, 3, 4, 0, 0]);
    expect(spanOf({ status: { code: 'STATUS_CODE_ERROR', message: 'boom' } })).toMatchObject({ statusCode: 2, statusMessage: 'boom' });
    expect(spanOf({ status: { code: 'OK' } }).statusCode).toBe(1);
    expect(spanOf({ status: 'ERROR' })).toMatchObject({ statusCode: 0, statusMessage: '' });
  });

  it('reads names, trace state, events and links, skipping entries that are not objects', () => {
    const s = spanOf({
      name: 'GET /', traceState: 'k=v', parentSpanId: 'ef'.repeat(8),
      events: [{ timeUnixNano: '5', name: 'exception', attributes: [{ key: 'a', value: { intValue: 1 } }] }, 'junk'],
      links: [{ traceId: 'ef'.repeat(16), spanId: '12'.repeat(8), attributes: [] }, 3],
    });
    expect(s).toMatchObject({ name: 'GET /', traceState: 'k=v', parentSpanId: 'ef'.repeat(8) });
    expect(s.events).toEqual([{ timeNs: 5n, name: 'exception', attributes: { a: 1 } }]);
    expect(s.links).toEqual([{ traceId: 'ef'.repeat(16), spanId: '12'.repeat(8), attributes: {} }]);
    expect(spanOf({ events: {}, links: 'x' })).toMatchObject({ events: [], links: [] });
  });

  it('reads the resource and scope of each group', () => {
    const [g] = decodeTracesJson(buf({ resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'svc' } }] }, scopeSpans: [
      { scope: { name: 'lib', version: '1.2', attributes: [{ key: 'x', value: { boolValue: true } }] }, spans: [] },
      { scope: 'junk', spans: [] },
    ] }] }));
    expect(g.resource.attributes).toEqual({ 'service.name': 'svc' });
    expect(g.scopes.map((s) => s.scope)).toEqual([{ name: 'lib', version: '1.2', attributes: { x: true } }, { name: '', version: '', attributes: {} }]);
    expect(decodeTracesJson(buf({ resourceSpans: [{ resource: 'junk' }] }))[0]).toEqual({ resource: { attributes: {} }, scopes: [] });
    expect(decodeTracesJson(buf({ resourceSpans: null }))).toEqual([]);
  });

  it('says where a request is malformed', () => {
    expect(decodeError(() => decodeTracesJson(Buffer.from('{"resourceSpans": [')))).toMatch(/^malformed JSON: /);
    expect(decodeError(() => decodeTracesJson(buf([1])))).toBe('request body must be an object');
    expect(decodeError(() => decodeTracesJson(buf({ resourceSpans: {} })))).toBe('resourceSpans must be an array');
    expect(decodeError(() => decodeTracesJson(buf({ resourceSpans: [3] })))).toBe('resourceSpans[0] must be an object');
    expect(decodeError(() => decodeTracesJson(buf({ resourceSpans: [{ scopeSpans: 'x' }] })))).toBe('resourceSpans[0].scopeSpans must be an array');
    expect(decodeError(() => decodeTracesJson(buf({ resourceSpans: [{ scopeSpans: [{}, 1] }] })))).toBe('resourceSpans[0].scopeSpans[1] must be an object');
    expect(decodeError(() => decodeTracesJson(buf({ resourceSpans: [{ scopeSpans: [{ spans: 1 }] }] })))).toBe('scopeSpans[0].spans must be an array');
    expect(decodeError(() => decodeTracesJson(buf({ resourceSpans: [{ scopeSpans: [{ spans: [{}, null] }] }] })))).toBe('spans[1] must be an object');
  });
});

describe('metrics', () => {
  it('reads gauges and sums with double or integer points', () => {
    const g = metricOf({ description: 'd', unit: 'By', gauge: { dataPoints: [{ asDouble: 1.5, timeUnixNano: '10', startTimeUnixNano: '5', attributes: [{ key: 'a', value: { stringValue: 'x' } }] }, { asInt: '7' }, 'junk'] } });
    expect(g).toEqual({ name: 'm', description: 'd', unit: 'By', data: { type: 'gauge', points: [{ attributes: { a: 'x' }, startNs: 5n, timeNs: 10n, value: 1.5 }, { attributes: {}, startNs: 0n, timeNs: 0n, value: 7 }] } });
    expect(metricOf({ sum: { dataPoints: [{ asInt: 3 }], aggregationTemporality: 'AGGREGATION_TEMPORALITY_CUMULATIVE', isMonotonic: true } }).data).toEqual({ type: 'sum', points: [{ attributes: {}, startNs: 0n, timeNs: 0n, value: 3 }], temporality: 2, monotonic: true });
    expect(metricOf({ sum: { dataPoints: 'x', aggregationTemporality: 1, isMonotonic: 'true' } }).data).toEqual({ type: 'sum', points: [], temporality: 1, monotonic: false });
  });

  it('reads histograms, leaving absent sum, min and max null', () => {
    const h = metricOf({ histogram: { aggregationTemporality: 'DELTA', dataPoints: [
      { count: '6', sum: 12.5, min: '0.5', max: 9, bucketCounts: ['1', 2, '3'], explicitBounds: [1, '5'] },
      { count: 0 },
    ] } });
    expect(h.data).toEqual({ type: 'histogram', temporality: 1, points: [
      { attributes: {}, startNs: 0n, timeNs: 0n, count: 6, sum: 12.5, min: 0.5, max: 9, bucketCounts: [1, 2, 3], bounds: [1, 5] },
      { attributes: {}, startNs: 0n, timeNs: 0n, count: 0, sum: null, min: null, max: null, bucketCounts: [], bounds: [] },
    ] });
  });

  it('reads exponential histograms and summaries, with defaults for absent fields', () => {
    expect(metricOf({ exponentialHistogram: { aggregationTemporality: 'AGGREGATION_TEMPORALITY_CUMULATIVE', dataPoints: [
      { count: '7', sum: 3.5, scale: -2, zeroCount: '1', zeroThreshold: 0.25, positive: { offset: -3, bucketCounts: ['2', 4] }, negative: { bucketCounts: ['0'] }, min: 0, max: null },
      {},
    ] } }).data).toEqual({ type: 'exponentialHistogram', temporality: 2, points: [
      { attributes: {}, startNs: 0n, timeNs: 0n, count: 7, sum: 3.5, min: 0, max: null, scale: -2, zeroCount: 1, zeroThreshold: 0.25,
        positive: { offset: -3, counts: [2, 4] }, negative: { offset: 0, counts: [0] } },
      { attributes: {}, startNs: 0n, timeNs: 0n, count: 0, sum: null, min: null, max: null, scale: 0, zeroCount: 0, zeroThreshold: 0,
        positive: { offset: 0, counts: [] }, negative: { offset: 0, counts: [] } },
    ] });
    expect(metricOf({ summary: { dataPoints: [{ count: '3', sum: 6, quantileValues: [{ quantile: 0.5, value: '2' }, { value: 1 }, 'x'] }] } }).data).toEqual({
      type: 'summary', points: [{ attributes: {}, startNs: 0n, timeNs: 0n, count: 3, sum: 6, quantiles: [{ quantile: 0.5, value: 2 }, { quantile: 0, value: 1 }] }],
    });
    expect(metricOf({ summary: {} }).data).toEqual({ type: 'summary', points: [] });
    expect(metricOf({ gauge: 'x' })).toEqual({ name: 'm', description: '', unit: '', data: null });
  });
});

describe('log records', () => {
  it('reads every field, with defaults for absent or mistyped ones', () => {
    expect(logOf({
      timeUnixNano: '10', observedTimeUnixNano: '11', severityNumber: 17, severityText: 'ERROR', body: { stringValue: 'boom' },
      attributes: [{ key: 'a', value: { intValue: '2' } }], traceId: TRACE, spanId: SPAN, eventName: 'device.app.lifecycle',
    })).toEqual({ timeNs: 10n, observedNs: 11n, severityNumber: 17, severityText: 'ERROR', body: 'boom', attributes: { a: 2 }, traceId: TRACE, spanId: SPAN, eventName: 'device.app.lifecycle' });
    expect(logOf({ severityNumber: '17' })).toEqual({ timeNs: 0n, observedNs: 0n, severityNumber: 0, severityText: '', body: null, attributes: {}, traceId: '', spanId: '', eventName: '' });
  });
});
