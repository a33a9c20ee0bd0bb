/**
 * The official OpenTelemetry JS exporters (JSON and protobuf over HTTP) send to our receiver; what
 * is stored must equal what the SDK recorded: ids, names, kinds, timestamps, attributes, status,
 * histogram buckets, log records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AggregationType, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { type RunningReceiver, startReceiver } from '../../../src/colony/otlp/receiver.js';
import { hrToNs } from '../../support/otel-sdk.js';

let store: ColonyStore;
let receiver: RunningReceiver;
const WIDE = { fromNs: 0n, toNs: 4_000_000_000_000_000_000n };

beforeAll(async () => {
  store = await ColonyStore.open({ path: ':memory:', threads: 2, memoryLimit: '1GB' });
  receiver = await startReceiver({ sink: store, port: 0 });
});
afterAll(async () => {
  await receiver.close();
  await store.close();
});

const ENCODINGS = [
  { name: 'json', trace: JsonTraceExporter, metric: JsonMetricExporter, log: JsonLogExporter },
  { name: 'protobuf', trace: ProtoTraceExporter, metric: ProtoMetricExporter, log: ProtoLogExporter },
] as const;

describe.each(ENCODINGS)('official exporters over OTLP/HTTP $name', (enc) => {
  const service = `exporter-${enc.name}`;
  const resource = resourceFromAttributes({ 'service.name': service, 'service.version': '1.2.3', 'deployment.environment.name': 'test' });

  it('stores spans exactly as the SDK recorded them', async () => {
    const recorded = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      resource,
      spanProcessors: [new SimpleSpanProcessor(recorded), new SimpleSpanProcessor(new enc.trace({ url: `${receiver.url}/v1/traces` }))],
    });
    const tracer = provider.getTracer('@opentelemetry/instrumentation-http', '0.9.0');
    const root = tracer.startSpan('POST /api/checkout', {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': 'POST', 'http.route': '/api/checkout', 'http.response.status_code': 500, 'app.items': 3, 'app.ratio': 0.25, 'app.flag': true, 'app.tags': ['a', 'b'] },
    });
    const child = tracer.startSpan('oteldemo.PaymentService/Charge', {
      kind: SpanKind.CLIENT,
      attributes: { 'rpc.system': 'grpc', 'rpc.service': 'oteldemo.PaymentService', 'rpc.method': 'Charge', 'rpc.grpc.status_code': 13, 'peer.service': 'payment' },
    }, trace.setSpan(ROOT_CONTEXT, root));
    child.addEvent('retry', { attempt: 2 });
    child.setStatus({ code: SpanStatusCode.ERROR, message: 'Invalid token' });
    child.end();
    root.setStatus({ code: SpanStatusCode.ERROR });
    root.end();
    await provider.forceFlush();
    // Read before shutdown: shutting down the in-memory exporter clears it.
    const sent = recorded.getFinishedSpans();
    await provider.shutdown();

    expect(sent).toHaveLength(2);
    const stored = await store.getTrace(sent[0].spanContext().traceId);
    expect(stored).toHaveLength(2);
    for (const s of sent) {
      const row = stored.find((r) => r.spanId === s.spanContext().spanId);
      expect(row).toBeDefined();
      expect(row).toMatchObject({
        traceId: s.spanContext().traceId,
        parentSpanId: s.parentSpanContext?.spanId ?? '',
        name: s.name,
        kind: ['INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'][s.kind],
        serviceName: service,
        source: 'otlp',
        scopeName: '@opentelemetry/instrumentation-http',
        startNs: hrToNs(s.startTime),
        endNs: hrToNs(s.endTime),
        statusCode: ['UNSET', 'OK', 'ERROR'][s.status.code],
        statusMessage: s.status.message ?? '',
      });
      expect(row?.attributes).toEqual(s.attributes);
      expect(row?.resourceAttributes).toMatchObject({ 'service.name': service, 'service.version': '1.2.3' });
    }
    const client = stored.find((r) => r.kind === 'CLIENT');
    expect(client).toMatchObject({ rpcSystem: 'grpc', rpcService: 'oteldemo.PaymentService', rpcMethod: 'Charge', rpcStatusCode: 13, peerService: 'payment' });
    expect(client?.events).toEqual([expect.objectContaining({ name: 'retry', attributes: { attempt: 2 } })]);
    const server = stored.find((r) => r.kind === 'SERVER');
    expect(server).toMatchObject({ httpMethod: 'POST', httpRoute: '/api/checkout', httpStatusCode: 500 });
  });

  it('stores histogram buckets and counters as sent', async () => {
    const exporter = new enc.metric({ url: `${receiver.url}/v1/metrics` });
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
    const provider = new MeterProvider({ resource, readers: [reader] });
    const meter = provider.getMeter('checkout-metrics');
    const bounds = [0.005, 0.01, 0.025, 0.05, 0.1];
    const h = meter.createHistogram('http.server.request.duration', { unit: 's', advice: { explicitBucketBoundaries: bounds } });
    for (const v of [0.001, 0.007, 0.007, 0.02, 0.3]) h.record(v, { 'http.request.method': 'GET', 'http.route': '/api/cart', 'http.response.status_code': 200 });
    meter.createCounter('app.orders').add(7, { region: 'eu' });
    await provider.forceFlush();
    await provider.shutdown();

    const [hist] = await store.db.query<{ bounds: string; bucket_counts: string; count: number; sum: number; unit: string; temporality: string; http_route: string }>(
      `SELECT bounds, bucket_counts, count, sum, unit, temporality, http_route FROM otel_metrics_histogram WHERE service_name = $s`, { s: service });
    expect(JSON.parse(hist.bounds)).toEqual(bounds);
    expect(JSON.parse(hist.bucket_counts)).toEqual([1, 2, 1, 0, 0, 1]);
    expect(hist).toMatchObject({ count: 5, unit: 's', temporality: 'cumulative', http_route: '/api/cart' });
    expect(hist.sum).toBeCloseTo(0.335, 9);
    const red = await store.redFromHistograms({ service, protocol: 'http', range: WIDE });
    expect(red[0]).toMatchObject({ requests: 5, errors: 0, httpRoute: '/api/cart', httpMethod: 'GET' });

    const [counter] = await store.db.query<{ value: number; metric_type: string; is_monotonic: boolean; attributes: string }>(
      `SELECT value, metric_type, is_monotonic, attributes FROM otel_metrics_number WHERE service_name = $s AND metric_name = 'app.orders'`, { s: service });
    expect(counter).toMatchObject({ value: 7, metric_type: 'sum', is_monotonic: true });
    expect(JSON.parse(counter.attributes)).toEqual({ region: 'eu' });
  });

  it('stores exponential histograms (an ExponentialHistogram view) and summaries through the decode workers', async () => {
    const exporter = new enc.metric({ url: `${receiver.url}/v1/metrics` });
    const provider = new MeterProvider({
      resource,
      views: [{ instrumentName: 'rpc.server.duration', aggregation: { type: AggregationType.EXPONENTIAL_HISTOGRAM } }],
      readers: [new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 })],
    });
    const h = provider.getMeter('checkout-metrics').createHistogram('rpc.server.duration', { unit: 'ms' });
    for (const v of [1, 2, 2, 8]) h.record(v, { 'rpc.system': 'grpc', 'rpc.service': 'Cart', 'rpc.method': 'Get' });
    await provider.forceFlush();
    await provider.shutdown();
    const now = String(BigInt(Date.now()) * 1_000_000n);
    const summary = { resourceMetrics: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] }, scopeMetrics: [{ metrics: [{
      name: 'gc.pause', unit: 'ms', summary: { dataPoints: [{ timeUnixNano: now, count: '3', sum: 6, quantileValues: [{ quantile: 0.5, value: 1.5 }, { quantile: 0.9, value: 3 }] }] },
    }] }] }] };
    expect((await fetch(`${receiver.url}/v1/metrics`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(summary) })).status).toBe(200);

    const listed = await store.listMetrics({ range: WIDE, service, names: ['rpc.server.duration', 'gc.pause'] });
    expect(listed).toMatchObject([
      { metricName: 'gc.pause', type: 'summary', points: 1, series: 1, quantiles: [{ quantile: 0.5, value: 1.5 }, { quantile: 0.9, value: 3 }] },
      { metricName: 'rpc.server.duration', type: 'histogram', series: 1, quantiles: null },
    ]);
    const [hist] = await store.db.query<{ bucket_counts: string; count: number }>(`SELECT bucket_counts, count FROM otel_metrics_histogram WHERE service_name = $s AND metric_name = 'rpc.server.duration' ORDER BY time_ns DESC LIMIT 1`, { s: service });
    expect(hist.count).toBe(4);
    expect((JSON.parse(hist.bucket_counts) as number[]).reduce((a, b) => a + b, 0)).toBe(4);
  });

  it('stores log records with severity, body, attributes and trace context', async () => {
    const provider = new LoggerProvider({ resource, processors: [new SimpleLogRecordProcessor({ exporter: new enc.log({ url: `${receiver.url}/v1/logs` }) })] });
    const traceId = '5b8efff798038103d269b633813fc60c';
    const spanId = 'eee19b7ec3c1b174';
    const ctx = trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId, traceFlags: 1 });
    provider.getLogger('payment-logger').emit({
      severityNumber: SeverityNumber.ERROR,
      severityText: 'ERROR',
      body: `Charge failed: Invalid token for ${enc.name}`,
      attributes: { 'app.user': 'u-1' },
      context: ctx,
    });
    await provider.forceFlush();
    await provider.shutdown();
    const { logs } = await store.queryLogs({ range: WIDE, service, limit: 10 });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ level: 'error', severityText: 'ERROR', body: `Charge failed: Invalid token for ${enc.name}`, traceId, spanId, source: 'otlp' });
    expect(logs[0].attributes).toEqual({ 'app.user': 'u-1' });
  });
});
