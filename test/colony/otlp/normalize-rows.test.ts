import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { INVALID_TIME } from '../../../src/colony/otlp/decode-json.js';
import type { Attributes, ExponentialPoint, HistogramPoint, SummaryPoint, LogsRequest, MetricsRequest, NumberPoint, OtlpLogRecord, OtlpMetric, OtlpMetricData, OtlpSpan, TracesRequest } from '../../../src/colony/otlp/model.js';
import { UNKNOWN_SERVICE, eventKindOf, levelOf, normalizeLogs, normalizeMetrics, normalizeTraces, rejectionMessage } from '../../../src/colony/otlp/normalize.js';

const TRACE = 'ab'.repeat(16);
const SPAN = 'cd'.repeat(8);
const T = 1_764_671_400_000_000_000n;
const MAX_INT64 = 2n ** 63n - 1n;
const RESOURCE = { 'service.name': 'checkout', 'host.name': 'h1' };

const group = <T>(items: T[], resource: Attributes = RESOURCE, scopeName = 'lib', scopeVersion = '1.0') =>
  [{ resource: { attributes: resource }, scopes: [{ scope: { name: scopeName, version: scopeVersion, attributes: {} }, items }] }];
const span = (over: Partial<OtlpSpan> = {}): OtlpSpan => ({
  traceId: TRACE, spanId: SPAN, parentSpanId: '', traceState: '', name: 'GET /', kind: 2, startNs: T, endNs: T + 5n,
  attributes: {}, events: [], links: [], statusCode: 0, statusMessage: '', ...over,
});
const traces = (spans: OtlpSpan[], resource?: Attributes, scopeName?: string) => normalizeTraces(group(spans, resource, scopeName) as TracesRequest);
const reasons = (n: { reasons: Map<string, number> }) => Object.fromEntries(n.reasons);
const md5 = (parts: string[]) => createHash('md5').update(parts.join('\u0000')).digest('hex');

describe('spans to rows', () => {
  it('writes every column of an accepted span', () => {
    const n = traces([span({
      parentSpanId: 'ef'.repeat(8), traceState: 'k=v', name: 'POST /orders', kind: 3, statusCode: 2, statusMessage: 'boom',
      attributes: { 'http.request.method': 'POST', 'http.route': '/orders', 'http.response.status_code': 502, 'server.address': 'api' },
      events: [{ timeNs: T + 1n, name: 'exception', attributes: { 'exception.type': 'E' } }],
      links: [{ traceId: '12'.repeat(16), spanId: '34'.repeat(8), attributes: { l: 1 } }],
    })]);
    expect([n.accepted, n.rejected, n.reasons.size]).toEqual([1, 0, 0]);
    expect(n.batch.spans).toEqual([{
      traceId: TRACE, spanId: SPAN, parentSpanId: 'ef'.repeat(8), traceState: 'k=v', name: 'POST /orders', kind: 'CLIENT',
      serviceName: 'checkout', source: 'otlp', scopeName: 'lib', scopeVersion: '1.0', startNs: T, endNs: T + 5n,
      statusCode: 'ERROR', statusMessage: 'boom',
      attributes: '{"http.request.method":"POST","http.route":"/orders","http.response.status_code":502,"server.address":"api"}',
      resourceAttributes: '{"service.name":"checkout","host.name":"h1"}',
      events: `[{"time_ns":"${T + 1n}","name":"exception","attributes":{"exception.type":"E"}}]`,
      links: `[{"traceId":"${'12'.repeat(16)}","spanId":"${'34'.repeat(8)}","attributes":{"l":1}}]`,
      httpMethod: 'POST', httpRoute: '/orders', httpStatusCode: 502, rpcSystem: null, rpcService: null, rpcMethod: null, rpcStatusCode: null,
      dbSystem: null, dbOperation: null, dbTable: null, dbStatement: null, peerService: null, serverAddress: 'api',
    }]);
    expect(n.batch.numberPoints.length + n.batch.histogramPoints.length + n.batch.logs.length + n.batch.events.length).toBe(0);
  });

  it('writes empty events and links as [], and unknown kinds and status codes as UNSPECIFIED and UNSET', () => {
    const [row] = traces([span({ kind: 9, statusCode: 7 })]).batch.spans;
    expect(row).toMatchObject({ events: '[]', links: '[]', kind: 'UNSPECIFIED', statusCode: 'UNSET' });
    expect(traces([span({ kind: 0, statusCode: 1 })]).batch.spans[0]).toMatchObject({ kind: 'UNSPECIFIED', statusCode: 'OK' });
    expect(traces([span({ kind: 5 })]).batch.spans[0].kind).toBe('CONSUMER');
  });

  it('names the service from service.name, else unknown_service', () => {
    expect(traces([span()], { 'service.name': '' }).batch.spans[0].serviceName).toBe(UNKNOWN_SERVICE);
    expect(traces([span()], { 'service.name': 5 }).batch.spans[0].serviceName).toBe('unknown_service');
    expect(traces([span()], {}).batch.spans[0]).toMatchObject({ serviceName: 'unknown_service', resourceAttributes: '{}' });
  });

  it('classifies the source from the resource and scope', () => {
    expect(traces([span()], { 'service.name': 'a', 'telemetry.sdk.name': 'beyla' }).batch.spans[0].source).toBe('ebpf');
    expect(traces([span()], RESOURCE, 'github.com/grafana/beyla').batch.spans[0].source).toBe('ebpf');
  });

  it('splits a Beyla gRPC span name into service and method only when rpc.method is missing and the system is grpc', () => {
    const row = (name: string, attributes: Attributes) => traces([span({ name, attributes })]).batch.spans[0];
    expect(row('/shop.Cart/Get', { 'rpc.system': 'grpc' })).toMatchObject({ rpcService: 'shop.Cart', rpcMethod: 'Get' });
    expect(row('/shop.Cart/Get', { 'rpc.system': 'grpc', 'rpc.service': 'Given' })).toMatchObject({ rpcService: 'Given', rpcMethod: 'Get' });
    expect(row('/shop.Cart/Get', { 'rpc.system': 'grpc', 'rpc.method': 'Named' })).toMatchObject({ rpcService: null, rpcMethod: 'Named' });
    expect(row('/shop.Cart/Get', { 'rpc.system': 'http' })).toMatchObject({ rpcService: null, rpcMethod: null });
    expect(row('shop.Cart/Get', { 'rpc.system': 'grpc' })).toMatchObject({ rpcService: null, rpcMethod: null });
  });
});

describe('spans rejected, each for its reason', () => {
  const cases: [string, Partial<OtlpSpan>, string][] = [
    ['a malformed trace id', { traceId: null }, 'spans with an invalid trace_id (expected 32 hex characters, not all zero)'],
    ['no trace id', { traceId: '' }, 'spans with an invalid trace_id (expected 32 hex characters, not all zero)'],
    ['a malformed span id', { spanId: null }, 'spans with an invalid span_id (expected 16 hex characters, not all zero)'],
    ['no span id', { spanId: '' }, 'spans with an invalid span_id (expected 16 hex characters, not all zero)'],
    ['a malformed parent', { parentSpanId: null }, 'spans with an invalid parent_span_id (expected 16 hex characters or empty)'],
    ['a malformed start', { startNs: INVALID_TIME }, 'spans with a malformed start_time_unix_nano (expected unsigned integer nanoseconds)'],
    ['a start of 2^63', { startNs: MAX_INT64 + 1n, endNs: MAX_INT64 + 2n }, 'spans with start_time_unix_nano out of range (expected nanoseconds below 2^63)'],
    ['an end of 2^63', { endNs: MAX_INT64 + 1n }, 'spans with end_time_unix_nano out of range (expected nanoseconds below 2^63)'],
    ['a malformed end', { endNs: INVALID_TIME }, 'spans with a malformed end_time_unix_nano (expected unsigned integer nanoseconds)'],
    ['no start', { startNs: 0n }, 'spans without a start time'],
    ['an end before the start', { endNs: T - 1n }, 'spans that end before they start'],
    ['an http status beyond int32', { attributes: { 'http.response.status_code': 2 ** 31 } }, 'spans with an invalid http status code (http.response.status_code) (expected an integer in the int32 range)'],
    ['a fractional rpc status', { attributes: { 'rpc.grpc.status_code': 2.5 } }, 'spans with an invalid rpc status code (rpc.grpc.status_code) (expected an integer in the int32 range)'],
  ];
  for (const [what, over, reason] of cases) {
    it(`rejects a span with ${what}, keeping the others`, () => {
      const n = traces([span({ spanId: '01'.repeat(8) }), span(over), span({ spanId: '02'.repeat(8) })]);
      expect(reasons(n)).toEqual({ [reason]: 1 });
      expect([n.accepted, n.rejected]).toEqual([2, 1]);
      expect(n.batch.spans.map((s) => s.spanId)).toEqual(['01'.repeat(8), '02'.repeat(8)]);
    });
  }

  it('accepts the edges: a zero-length span, the largest time, int32 status codes at both ends', () => {
    const n = traces([
      span({ endNs: T }), span({ startNs: MAX_INT64, endNs: MAX_INT64 }), span({ startNs: 1n, endNs: 1n }),
      span({ attributes: { 'http.response.status_code': 2 ** 31 - 1, 'rpc.grpc.status_code': -(2 ** 31) } }),
    ]);
    expect([n.accepted, n.rejected]).toEqual([4, 0]);
  });

  it('counts each reason and sums them in the rejection message', () => {
    const n = traces([span({ traceId: null }), span({ startNs: 0n }), span({ traceId: '' }), span()]);
    expect([n.accepted, n.rejected]).toEqual([1, 3]);
    expect(rejectionMessage(n)).toBe('2 spans with an invalid trace_id (expected 32 hex characters, not all zero); 1 spans without a start time');
    expect(rejectionMessage(traces([span()]))).toBe('');
  });
});

describe('metrics to rows', () => {
  const metric = (data: OtlpMetricData | null, name = 'requests'): OtlpMetric => ({ name, description: 'd', unit: 'ms', data });
  const metrics = (ms: OtlpMetric[], resource?: Attributes) => normalizeMetrics(group(ms, resource) as MetricsRequest);
  const np = (over: Partial<NumberPoint> = {}): NumberPoint => ({ attributes: { route: '/a' }, startNs: T - 10n, timeNs: T, value: 1.5, ...over });
  const hp = (over: Partial<HistogramPoint> = {}): HistogramPoint => ({
    attributes: { route: '/a' }, startNs: T - 10n, timeNs: T, count: 3, sum: 0.6, min: 0.1, max: 0.3, bucketCounts: [1, 2], bounds: [0.2], ...over,
  });
  const resourceJson = '{"service.name":"checkout","host.name":"h1"}';

  it('writes every column of a gauge, a sum and a histogram point', () => {
    const n = metrics([
      metric({ type: 'gauge', points: [np()] }, 'g'),
      metric({ type: 'sum', points: [np({ value: -2 })], temporality: 1, monotonic: true }, 's'),
      metric({ type: 'histogram', points: [hp({ attributes: { 'http.request.method': 'GET', 'http.response.status_code': '200' } })], temporality: 2 }, 'h'),
    ]);
    const base = (name: string, attributes: string) => ({
      seriesKey: md5([name, 'checkout', 'otlp', resourceJson, attributes]), metricName: name, description: 'd', unit: 'ms', serviceName: 'checkout',
      source: 'otlp', scopeName: 'lib', startNs: T - 10n, timeNs: T, attributes, resourceAttributes: resourceJson,
    });
    expect(n.batch.numberPoints).toEqual([
      { ...base('g', '{"route":"/a"}'), metricType: 'gauge', temporality: 'unspecified', isMonotonic: false, value: 1.5 },
      { ...base('s', '{"route":"/a"}'), metricType: 'sum', temporality: 'delta', isMonotonic: true, value: -2 },
    ]);
    expect(n.batch.histogramPoints).toEqual([{
      ...base('h', '{"http.request.method":"GET","http.response.status_code":"200"}'),
      httpMethod: 'GET', httpRoute: null, httpStatusCode: 200, rpcSystem: null, rpcService: null, rpcMethod: null, rpcStatusCode: null,
      dbSystem: null, dbOperation: null, dbTable: null, dbStatement: null, peerService: null, serverAddress: null,
      temporality: 'cumulative', count: 3, sum: 0.6, min: 0.1, max: 0.3, bounds: [0.2], bucketCounts: [1, 2],
    }]);
    expect([n.accepted, n.rejected]).toEqual([3, 0]);
  });

  it('names the temporality of sums and histograms: delta, cumulative, else unspecified', () => {
    const sumTemporality = (t: number) => metrics([metric({ type: 'sum', points: [np()], temporality: t, monotonic: false })]).batch.numberPoints[0].temporality;
    const histTemporality = (t: number) => metrics([metric({ type: 'histogram', points: [hp()], temporality: t })]).batch.histogramPoints[0].temporality;
    expect([0, 1, 2, 3].map(sumTemporality)).toEqual(['unspecified', 'delta', 'cumulative', 'unspecified']);
    expect([0, 1, 2, 3].map(histTemporality)).toEqual(['unspecified', 'delta', 'cumulative', 'unspecified']);
  });

  it('keys a series by metric, service, source, resource and point attributes, and by nothing else', () => {
    const key = (name: string, resource: Attributes, attributes: Attributes, over: Partial<NumberPoint> = {}) =>
      metrics([metric({ type: 'gauge', points: [np({ attributes, ...over })] }, name)], resource).batch.numberPoints[0].seriesKey;
    const k = key('m', RESOURCE, { a: 1 });
    expect(key('m', RESOURCE, { a: 1 }, { timeNs: T + 1n, value: 99 })).toBe(k);
    expect(key('m2', RESOURCE, { a: 1 })).not.toBe(k);
    expect(key('m', { ...RESOURCE, 'host.name': 'h2' }, { a: 1 })).not.toBe(k);
    expect(key('m', { ...RESOURCE, 'telemetry.sdk.name': 'beyla' }, { a: 1 })).not.toBe(k);
    expect(key('m', RESOURCE, { a: 2 })).not.toBe(k);
  });

  it('drops a metric without data silently', () => {
    const n = metrics([metric(null), metric({ type: 'summary', points: [] }), metric({ type: 'exponentialHistogram', points: [], temporality: 1 })]);
    expect([n.accepted, n.rejected]).toEqual([0, 0]);
  });

  it('stores exponential histogram points as explicit bounds, in the histogram table, with their temporality', () => {
    const e: ExponentialPoint = {
      attributes: { 'http.route': '/a' }, startNs: T - 10n, timeNs: T, count: 6, sum: 9, min: 0, max: 4, scale: 0, zeroCount: 1, zeroThreshold: 0,
      positive: { offset: 0, counts: [2, 3] }, negative: { offset: 0, counts: [] },
    };
    const n = metrics([metric({ type: 'exponentialHistogram', points: [e, { ...e, scale: 99 }], temporality: 2 }, 'http.server.request.duration')]);
    expect(n.batch.histogramPoints).toMatchObject([{
      metricName: 'http.server.request.duration', temporality: 'cumulative', httpRoute: '/a', count: 6, sum: 9, min: 0, max: 4,
      bounds: [0, 1, 2, 4], bucketCounts: [1, 0, 2, 3, 0],
    }]);
    expect(reasons(n)).toEqual({ 'exponential histogram points with a scale outside -10..20': 1 });
  });

  it('stores summary points with their quantiles sorted, and rejects a quantile outside [0, 1]', () => {
    const s: SummaryPoint = { attributes: {}, startNs: T - 10n, timeNs: T, count: 4, sum: 2, quantiles: [{ quantile: 0.99, value: 1.5 }, { quantile: 0.5, value: 0.4 }] };
    const n = metrics([metric({ type: 'summary', points: [s, { ...s, quantiles: [{ quantile: 1.5, value: 1 }] }] }, 'rpc.duration')]);
    expect(n.batch.summaryPoints).toMatchObject([{ metricName: 'rpc.duration', serviceName: 'checkout', count: 4, sum: 2, quantiles: [0.5, 0.99], quantileValues: [0.4, 1.5] }]);
    expect([n.accepted, n.rejected]).toEqual([1, 1]);
    expect(reasons(n)).toEqual({ 'summary points with a quantile outside [0, 1] or a non-finite value': 1 });
  });

  it('rejects every point of a metric without a name', () => {
    const n = metrics([metric({ type: 'gauge', points: [np(), np(), np()] }, ''), metric({ type: 'gauge', points: [] }, '')]);
    expect(reasons(n)).toEqual({ 'data points of a metric without a name': 3 });
    expect(n.accepted).toBe(0);
  });

  it('rejects points without a time or with a time the store cannot hold, each for its reason', () => {
    const n = metrics([metric({ type: 'gauge', points: [
      np({ timeNs: 0n }), np({ timeNs: INVALID_TIME }), np({ startNs: INVALID_TIME }), np({ startNs: MAX_INT64 + 1n }), np({ timeNs: MAX_INT64 + 1n, startNs: INVALID_TIME }),
      np({ startNs: 0n }), np({ timeNs: MAX_INT64 }),
    ] })]);
    expect(reasons(n)).toEqual({
      'data points with a missing time_unix_nano': 1,
      'data points with a malformed time_unix_nano (expected unsigned integer nanoseconds)': 1,
      'data points with a malformed start_time_unix_nano (expected unsigned integer nanoseconds)': 1,
      'data points with start_time_unix_nano out of range (expected nanoseconds below 2^63)': 1,
      'data points with time_unix_nano out of range (expected nanoseconds below 2^63)': 1,
    });
    expect(n.accepted).toBe(2);
  });

  it('rejects histogram points whose buckets do not match their bounds, or whose status code is not an int32', () => {
    const n = metrics([metric({ type: 'histogram', temporality: 2, points: [
      hp({ bucketCounts: [1, 2, 3] }), hp({ bucketCounts: [1], bounds: [0.2] }), hp({ attributes: { 'http.response.status_code': 1e12 } }),
      hp({ bucketCounts: [], bounds: [] }), hp({ bucketCounts: [], bounds: [1, 2] }), hp({ bucketCounts: [4], bounds: [] }),
    ] })]);
    expect(reasons(n)).toEqual({
      'histogram points whose bucket_counts length is not explicit_bounds length + 1': 2,
      'histogram points with an invalid http status code (http.response.status_code) (expected an integer in the int32 range)': 1,
    });
    expect(n.batch.histogramPoints.map((p) => p.bucketCounts)).toEqual([[], [], [4]]);
  });
});

describe('log records to rows', () => {
  const record = (over: Partial<OtlpLogRecord> = {}): OtlpLogRecord => ({
    timeNs: T, observedNs: T + 1n, severityNumber: 17, severityText: 'ERROR', body: 'boom', attributes: { a: 1 }, traceId: TRACE, spanId: SPAN, eventName: '', ...over,
  });
  const logs = (records: OtlpLogRecord[], resource?: Attributes, scopeName?: string) => normalizeLogs(group(records, resource, scopeName) as LogsRequest);
  const resourceJson = '{"service.name":"checkout","host.name":"h1"}';

  it('writes every column of an accepted record, its id a hash of its content', () => {
    const n = logs([record()]);
    const logId = md5([resourceJson, 'lib', String(T), String(T + 1n), '17', 'ERROR', 'boom', '{"a":1}', TRACE, SPAN]);
    expect(n.batch.logs).toEqual([{
      logId, timeNs: T, observedNs: T + 1n, serviceName: 'checkout', source: 'otlp', scopeName: 'lib', severityNumber: 17, severityText: 'ERROR',
      level: 'error', body: 'boom', traceId: TRACE, spanId: SPAN, attributes: '{"a":1}', resourceAttributes: resourceJson,
    }]);
    expect([n.accepted, n.rejected, n.batch.events.length]).toEqual([1, 0, 0]);
  });

  it('writes a structured body as JSON and an absent one as empty', () => {
    expect(logs([record({ body: { msg: 'x', n: [1, true] } })]).batch.logs[0].body).toBe('{"msg":"x","n":[1,true]}');
    expect(logs([record({ body: null })]).batch.logs[0].body).toBe('');
    expect(logs([record({ body: 42 })]).batch.logs[0].body).toBe('42');
  });

  it('takes the observed time when the time is unset, and rejects a record with neither', () => {
    expect(logs([record({ timeNs: 0n, observedNs: 7n })]).batch.logs[0]).toMatchObject({ timeNs: 7n, observedNs: 7n });
    expect(logs([record({ timeNs: 3n, observedNs: 0n })]).batch.logs[0]).toMatchObject({ timeNs: 3n, observedNs: 0n });
    const n = logs([record({ timeNs: 0n, observedNs: 0n })]);
    expect(reasons(n)).toEqual({ 'log records with neither time nor observed time': 1 });
  });

  it('rejects records with malformed ids, times or severities, each for its reason', () => {
    const n = logs([
      record({ traceId: null }), record({ spanId: null }), record({ timeNs: INVALID_TIME }), record({ observedNs: MAX_INT64 + 1n }),
      record({ severityNumber: 2 ** 31 }), record({ severityNumber: 2.5 }), record({ traceId: '', spanId: '' }), record({ severityNumber: -(2 ** 31) }),
    ]);
    expect(reasons(n)).toEqual({
      'log records with an invalid trace_id or span_id (expected hex of 16 or 8 bytes)': 2,
      'log records with a malformed time_unix_nano (expected unsigned integer nanoseconds)': 1,
      'log records with observed_time_unix_nano out of range (expected nanoseconds below 2^63)': 1,
      'log records with an invalid severity_number (expected an integer in the int32 range)': 2,
    });
    expect(n.accepted).toBe(2);
  });

  it('gives records differing in any one field different ids, and a re-sent record its earlier id', () => {
    const idOf = (over: Partial<OtlpLogRecord>, resource: Attributes = RESOURCE, scope = 'lib') => logs([record(over)], resource, scope).batch.logs[0].logId;
    const base = idOf({});
    const variants = [
      idOf({}, { ...RESOURCE, 'host.name': 'h2' }), idOf({}, RESOURCE, 'other'), idOf({ timeNs: T + 9n }), idOf({ observedNs: T + 9n }),
      idOf({ severityNumber: 18 }), idOf({ severityText: 'FATAL' }), idOf({ body: 'other' }), idOf({ attributes: { a: 2 } }),
      idOf({ traceId: '12'.repeat(16) }), idOf({ spanId: '34'.repeat(8) }),
    ];
    expect(new Set([base, ...variants]).size).toBe(variants.length + 1);
    const pair = logs([record({ body: 'first' }), record({ body: 'second' })]).batch.logs.map((l) => l.logId);
    expect(logs([record({ body: 'second' })]).batch.logs[0].logId).toBe(pair[1]);
    expect(idOf({ body: 'first' })).toBe(pair[0]);
  });

  it('numbers identical records of one request by occurrence: the first keeps the content id', () => {
    const [a, b, c] = logs([record(), record(), record()]).batch.logs.map((l) => l.logId);
    expect(a).toBe(logs([record()]).batch.logs[0].logId);
    expect(b).toBe(md5([a, '1']));
    expect(c).toBe(md5([a, '2']));
  });

  it('maps severity numbers to levels by fours, and the text only outside 1 to 24', () => {
    expect([1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24].map((n) => levelOf(n, 'error'))).toEqual(['trace', 'trace', 'debug', 'debug', 'info', 'info', 'warn', 'warn', 'error', 'error', 'fatal', 'fatal']);
    expect([0, 25, -1].map((n) => levelOf(n, 'debug'))).toEqual(['debug', 'debug', 'debug']);
    const byText = ['FATAL', 'Critical', 'err', 'Error', 'WARNING', 'warn', 'DEBUG', 'trace', 'notice', 'information', ''].map((t) => levelOf(0, t));
    expect(byText).toEqual(['fatal', 'fatal', 'error', 'error', 'warn', 'warn', 'debug', 'trace', 'info', 'info', 'info']);
    expect(['xerror', 'a warn', 'my debug', 'stacktrace', 'nonfatal'].map((t) => levelOf(0, t))).toEqual(['info', 'info', 'info', 'info', 'info']);
  });

  it('makes an operational event of a record named by event_name or the event.name attribute', () => {
    const kinds = ['deploy', 'deployment', 'restart', 'crash', 'alert', 'config_change', 'config', 'coral.deploy', 'coral.CRASH', 'Restart'].map((e) => eventKindOf(e, {}));
    expect(kinds).toEqual(['deploy', 'deploy', 'restart', 'crash', 'alert', 'config_change', 'config_change', 'deploy', 'crash', 'restart']);
    // The prefix is matched in any case, as the kind is.
    expect(['CORAL.CRASH', 'Coral.Deploy'].map((e) => eventKindOf(e, {}))).toEqual(['crash', 'deploy']);
    expect(eventKindOf('login', { 'event.name': 'deploy' })).toBeNull();
    expect(eventKindOf('', { 'event.name': 'alert' })).toBe('alert');
    expect(eventKindOf('', { 'event.name': 5 })).toBeNull();
    expect(eventKindOf('', {})).toBeNull();
    // Only a leading "coral." is a prefix.
    expect(['crashcoral.', 'coralxdeploy', 'x.coral.deploy'].map((e) => eventKindOf(e, {}))).toEqual([null, null, null]);
    const n = logs([record({ eventName: 'coral.alert', body: 'p99 high', attributes: { sev: 'page' } }), record({ eventName: 'login' })]);
    expect(n.batch.events).toEqual([{ eventId: n.batch.logs[0].logId, timeNs: T, serviceName: 'checkout', kind: 'alert', title: 'p99 high', attributes: '{"sev":"page","event.name":"coral.alert"}' }]);
    // The record's event name is kept as its event.name attribute (withEventName), on the log line too.
    expect(JSON.parse(n.batch.logs[1].attributes)).toMatchObject({ 'event.name': 'login' });
    expect(n.batch.logs).toHaveLength(2);
  });
});

describe('lone surrogates in JSON columns', () => {
  it('become U+FFFD, while pairs and escaped backslashes before the letters ud800 stay', () => {
    const attrs = (a: Attributes) => JSON.parse(traces([span({ attributes: a })]).batch.spans[0].attributes) as Attributes;
    expect(attrs({ hi: 'a\ud800b', lo: '\udfff', pair: '\ud83d\ude00', text: '\\ud800', both: '\\\ud800', upper: '\udbff!' })).toEqual({
      hi: 'a\ufffdb', lo: '\ufffd', pair: '\u{1F600}', text: '\\ud800', both: '\\\ufffd', upper: '\ufffd!',
    });
    expect(traces([span()], { 'service.name': 'x\udc00' }).batch.spans[0].resourceAttributes).toBe('{"service.name":"x\ufffd"}');
    expect(normalizeLogs(group([{ timeNs: T, observedNs: 0n, severityNumber: 0, severityText: '', body: ['\ud800'], attributes: {}, traceId: '', spanId: '', eventName: '' }]) as LogsRequest).batch.logs[0].body).toBe('["\ufffd"]');
  });
});
