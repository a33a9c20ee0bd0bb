import { SEC, T0, attrs, hexId, logsBody, sdkResource, tracesBody } from './otlp-json.js';

/**
 * Span shapes as real SDKs send them (the OpenTelemetry Demo's export): a Kafka batch consumer
 * whose spans link to the producers' spans in other traces (messaging semantic conventions: a
 * batch receive has one link per message, no parent), and the checkout producers it links to.
 */
export const PRODUCER_TRACES = [hexId(16, 101), hexId(16, 102)];
export const PRODUCER_SPANS = [hexId(8, 201), hexId(8, 202)];
export const CONSUMER_TRACE = hexId(16, 103);

export function kafkaBatchExports(): Record<string, unknown>[] {
  const producers = tracesBody(sdkResource('checkout', { 'telemetry.sdk.language': 'go' }), 'go.opentelemetry.io/contrib/instrumentation/github.com/IBM/sarama/otelsarama',
    PRODUCER_TRACES.map((traceId, i) => ({
      traceId, spanId: PRODUCER_SPANS[i], name: 'orders publish', kind: 4, startNs: T0 + BigInt(i) * SEC, durationMs: 0.4,
      attributes: { 'messaging.system': 'kafka', 'messaging.destination.name': 'orders', 'messaging.operation.type': 'publish' },
    })));
  const consumer = tracesBody(sdkResource('accounting', { 'telemetry.sdk.language': 'dotnet' }), 'Confluent.Kafka', [{
    traceId: CONSUMER_TRACE, spanId: hexId(8, 203), name: 'orders receive', kind: 5, startNs: T0 + 3n * SEC, durationMs: 2.5,
    attributes: { 'messaging.system': 'kafka', 'messaging.destination.name': 'orders', 'messaging.operation.type': 'receive', 'messaging.batch.message_count': 2 },
    links: PRODUCER_TRACES.map((traceId, i) => ({ traceId, spanId: PRODUCER_SPANS[i] })),
  }]);
  return [producers, consumer];
}

/**
 * A histogram as the OTel Java and .NET SDKs export it: cumulative, with sum, min and max (the
 * OTel Demo's ad service, `http.server.request.duration` in seconds), two points of one series.
 */
export function sdkHistogramExport(): Record<string, unknown> {
  const point = (timeNs: bigint, counts: number[], sum: number, min: number, max: number) => ({
    attributes: attrs({ 'http.request.method': 'POST', 'http.response.status_code': 200 }),
    startTimeUnixNano: T0.toString(), timeUnixNano: timeNs.toString(),
    count: String(counts.reduce((a, b) => a + b, 0)), sum, min, max, bucketCounts: counts.map(String), explicitBounds: [0.005, 0.01, 0.025],
  });
  return {
    resourceMetrics: [{
      resource: { attributes: attrs(sdkResource('ad', { 'telemetry.sdk.language': 'java' })) },
      scopeMetrics: [{
        scope: { name: 'io.opentelemetry.http' },
        metrics: [{ name: 'http.server.request.duration', unit: 's', histogram: { aggregationTemporality: 2, dataPoints: [
          point(T0 + 30n * SEC, [2, 1, 0, 0], 0.012, 0.002, 0.006),
          point(T0 + 60n * SEC, [4, 3, 1, 0], 0.05, 0.001, 0.02),
        ] } }],
      }],
    }],
  };
}

/** Spans named as SDKs name them: a POST without a route, names that are only the method (`GET`, `HTTP GET`). */
export function routelessHttpExport(): Record<string, unknown> {
  const server = (i: number, name: string, method: string, route?: string) => ({
    traceId: hexId(16, 300 + i), spanId: hexId(8, 300 + i), name, kind: 2, startNs: T0 + BigInt(i) * SEC, durationMs: 3 + i,
    attributes: { 'http.request.method': method, 'http.response.status_code': 200, ...(route ? { 'http.route': route } : {}) },
  });
  return tracesBody(sdkResource('frontend-proxy'), 'envoy', [
    server(0, 'POST', 'POST'), server(1, 'GET', 'GET'), server(2, 'HTTP GET', 'GET'), server(3, 'GET /api/cart', 'GET', '/api/cart'),
  ]);
}

/** Log records that are events (OTLP LogRecord.eventName, as the OpenFeature hooks in the demo send them) beside a plain line. */
export function eventLogsExport(): Record<string, unknown> {
  return logsBody(sdkResource('frontend', { 'telemetry.sdk.language': 'nodejs' }), '@openfeature/open-telemetry-hooks', [
    { timeNs: T0 + SEC, body: '', eventName: 'feature_flag.evaluation', attributes: { 'feature_flag.key': 'adFailure', 'feature_flag.result.variant': 'off' } },
    { timeNs: T0 + 2n * SEC, body: 'GET /api/products 200' },
  ]);
}

/**
 * flagd as the OTel Demo runs it (connect-go with otelconnect): unary ResolveBoolean calls of a few
 * milliseconds all hour, and EventStream, a server-streaming RPC whose span lasts as long as a
 * client stays connected (30-48 s here); streams closed only in the second half hour.
 */
export function flagdExport(): Record<string, unknown> {
  const rpc = (i: number, method: string, startNs: bigint, durationMs: number) => ({
    traceId: hexId(16, 5000 + i), spanId: hexId(8, 5000 + i), name: `flagd.evaluation.v1.Service/${method}`, kind: 2, startNs, durationMs,
    attributes: { 'rpc.system': 'connect_rpc', 'rpc.service': 'flagd.evaluation.v1.Service', 'rpc.method': method, 'rpc.connect_rpc.status_code': 'ok' },
  });
  const calls = Array.from({ length: 240 }, (_, i) => rpc(i, 'ResolveBoolean', T0 + 7n * SEC + BigInt(i) * 15n * SEC, 1 + (i % 3)));
  const streams = [30, 34, 41, 45, 48, 38, 31, 36, 44, 47, 33, 40].map((s, i) => rpc(1000 + i, 'EventStream', T0 + 32n * 60n * SEC + BigInt(i) * 2n * 60n * SEC, s * 1000));
  return tracesBody(sdkResource('flagd', { 'telemetry.sdk.language': 'go' }), 'connectrpc.com/otelconnect', [...calls, ...streams]);
}
