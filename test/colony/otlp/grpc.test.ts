/**
 * OTLP/gRPC: the official OpenTelemetry JS gRPC exporters (traces, metrics, logs; gzip) send to the
 * colony's gRPC receiver, and a raw grpc-js client checks the failure statuses: a bad payload, an
 * oversized one, a saturated store (RESOURCE_EXHAUSTED with RetryInfo), a broken store (UNAVAILABLE),
 * a missing token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Metadata, type ServiceError, credentials, status } from '@grpc/grpc-js';
import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-grpc';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-grpc';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { type RunningGrpcReceiver, startGrpcReceiver } from '../../../src/colony/otlp/grpc.js';
import type { IngestSink } from '../../../src/colony/otlp/ingest.js';
import { DecodePool } from '../../../src/colony/otlp/decode-pool.js';
import { StoreBusyError } from '../../../src/colony/store/busy.js';
import { WireReader } from '../../../src/colony/otlp/wire.js';
import { protobufTraces, sdkSpans } from '../../support/otel-sdk.js';

const TRACES = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';
const WIDE = { fromNs: 0n, toNs: 4_000_000_000_000_000_000n };

let store: ColonyStore;
let receiver: RunningGrpcReceiver;
let decoders: DecodePool;

beforeAll(async () => {
  store = await ColonyStore.open({ path: ':memory:', threads: 2, memoryLimit: '1GB' });
  // As `coral colony serve` runs it: exports decoded on the OTLP/HTTP receiver's decode worker.
  decoders = new DecodePool(1);
  receiver = await startGrpcReceiver({ sink: store, host: '127.0.0.1', port: 0, maxBodyBytes: 1024 * 1024, decoders });
});
afterAll(async () => {
  await receiver.close();
  await decoders.close();
  await store.close();
});

/** One unary Export call with raw bytes, as any gRPC client sends it. */
function exportRaw(address: string, path: string, body: Buffer, o: { gzip?: boolean; token?: string } = {}): Promise<{ response?: Buffer; error?: ServiceError }> {
  const client = new Client(address, credentials.createInsecure(), o.gzip ? { 'grpc.default_compression_algorithm': 2 } : {});
  const metadata = new Metadata();
  if (o.token) metadata.set('authorization', `Bearer ${o.token}`);
  return new Promise((resolve) => {
    client.makeUnaryRequest(path, (b: Buffer) => b, (b: Buffer) => b, body, metadata, (error, response) => {
      client.close();
      resolve({ response: response ?? undefined, error: error ?? undefined });
    });
  });
}

describe('official OTLP/gRPC exporters', () => {
  const resource = resourceFromAttributes({ 'service.name': 'grpc-exporter', 'service.version': '2.0.0' });

  it('stores spans sent with gzip exactly as the SDK recorded them', async () => {
    const recorded = new InMemorySpanExporter();
    const exporter = new OTLPTraceExporter({ url: `http://${receiver.address}`, compression: CompressionAlgorithm.GZIP });
    const provider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(recorded), new SimpleSpanProcessor(exporter)] });
    const tracer = provider.getTracer('@opentelemetry/instrumentation-grpc', '0.5.0');
    const root = tracer.startSpan('oteldemo.CheckoutService/PlaceOrder', { kind: SpanKind.SERVER, attributes: { 'rpc.system': 'grpc', 'rpc.service': 'oteldemo.CheckoutService', 'rpc.method': 'PlaceOrder', 'rpc.grpc.status_code': 0 } });
    tracer.startSpan('SELECT orders', { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'postgresql', 'db.operation.name': 'SELECT' } }, trace.setSpan(ROOT_CONTEXT, root)).end();
    root.end();
    await provider.forceFlush();
    const sent = recorded.getFinishedSpans();
    await provider.shutdown();
    const stored = await store.getTrace(sent[0].spanContext().traceId);
    expect(stored.map((s) => s.spanId).sort()).toEqual(sent.map((s) => s.spanContext().spanId).sort());
    expect(stored.find((s) => s.kind === 'SERVER')).toMatchObject({ serviceName: 'grpc-exporter', source: 'otlp', rpcService: 'oteldemo.CheckoutService', rpcMethod: 'PlaceOrder', scopeName: '@opentelemetry/instrumentation-grpc' });
  });

  it('stores histograms and counters', async () => {
    const reader = new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter({ url: `http://${receiver.address}`, compression: CompressionAlgorithm.GZIP }), exportIntervalMillis: 3_600_000 });
    const provider = new MeterProvider({ resource, readers: [reader] });
    const meter = provider.getMeter('grpc-metrics');
    const h = meter.createHistogram('rpc.server.duration', { unit: 'ms', advice: { explicitBucketBoundaries: [5, 10, 50] } });
    for (const v of [1, 7, 7, 60]) h.record(v, { 'rpc.system': 'grpc', 'rpc.method': 'PlaceOrder' });
    meter.createCounter('app.orders').add(3);
    await provider.forceFlush();
    await provider.shutdown();
    const [hist] = await store.db.query<{ bucket_counts: string; count: number }>(`SELECT bucket_counts, count FROM otel_metrics_histogram WHERE service_name = 'grpc-exporter'`);
    expect(JSON.parse(hist.bucket_counts)).toEqual([1, 2, 0, 1]);
    expect(hist.count).toBe(4);
    const [counter] = await store.db.query<{ value: number }>(`SELECT value FROM otel_metrics_number WHERE service_name = 'grpc-exporter' AND metric_name = 'app.orders'`);
    expect(counter.value).toBe(3);
  });

  it('stores log records', async () => {
    const provider = new LoggerProvider({ resource, processors: [new SimpleLogRecordProcessor({ exporter: new OTLPLogExporter({ url: `http://${receiver.address}` }) })] });
    provider.getLogger('grpc-logger').emit({ severityNumber: SeverityNumber.WARN, severityText: 'WARN', body: 'retrying PlaceOrder over gRPC' });
    await provider.forceFlush();
    await provider.shutdown();
    const { logs } = await store.queryLogs({ range: WIDE, service: 'grpc-exporter', limit: 10 });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ level: 'warn', body: 'retrying PlaceOrder over gRPC', source: 'otlp' });
  });

  it('reports a failed export to the SDK when the payload is refused', async () => {
    const busy = await startGrpcReceiver({ sink: { write: () => Promise.reject(new Error('disk full')) }, host: '127.0.0.1', port: 0, maxBodyBytes: 1024 * 1024 });
    const exporter = new OTLPTraceExporter({ url: `http://${busy.address}`, timeoutMillis: 3000 });
    const result = await new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(sdkSpansSync, resolve));
    await exporter.shutdown();
    await busy.close();
    expect(result.code).toBe(1);
    expect(result.error?.message).toMatch(/UNAVAILABLE|store unavailable/);
  });
});

let sdkSpansSync: Awaited<ReturnType<typeof sdkSpans>>;
beforeAll(async () => {
  sdkSpansSync = await sdkSpans(2, 'grpc-failing');
});

/** google.rpc.Status from the grpc-status-details-bin trailer: code, and the RetryInfo delay in seconds if any. */
function retryDelay(details: Buffer): { code: number; retrySeconds: number | null } {
  const r = new WireReader(details);
  let code = 0;
  let retrySeconds: number | null = null;
  while (r.pos < r.end) {
    const tag = r.varint();
    const fieldNo = Math.floor(tag / 8);
    if (fieldNo === 1) code = r.varint();
    else if (fieldNo === 3) {
      const [s, e] = r.lengthDelimited();
      const any = new WireReader(details, s, e);
      let typeUrl = '';
      while (any.pos < any.end) {
        const t = any.varint();
        if (Math.floor(t / 8) === 1) typeUrl = any.string();
        else if (Math.floor(t / 8) === 2 && typeUrl.endsWith('google.rpc.RetryInfo')) {
          const [rs, re] = any.lengthDelimited();
          const info = new WireReader(details, rs, re);
          info.varint(); // retry_delay, field 1
          const [ds, de] = info.lengthDelimited();
          const dur = new WireReader(details, ds, de);
          dur.varint(); // seconds, field 1
          retrySeconds = dur.varint();
        } else any.skip(t & 7);
      }
    } else r.skip(tag & 7);
  }
  return { code, retrySeconds };
}

describe('OTLP/gRPC statuses', () => {
  it('answers a partial success for the spans with malformed ids only', async () => {
    const spans = await sdkSpans(4, 'grpc-partial');
    // A 5-byte span id: the SDK serializes it as given, the receiver must reject that span alone.
    (spans[1].spanContext() as { spanId: string }).spanId = '0102030405';
    const { response, error } = await exportRaw(receiver.address, TRACES, protobufTraces(spans), { gzip: true });
    expect(error).toBeUndefined();
    const decoded = ProtobufTraceSerializer.deserializeResponse(new Uint8Array(response ?? Buffer.alloc(0)));
    expect(Number(decoded.partialSuccess?.rejectedSpans)).toBe(1);
    expect(decoded.partialSuccess?.errorMessage).toMatch(/invalid span_id/);
  });

  it('answers INVALID_ARGUMENT for bytes that are not an export request, storing nothing', async () => {
    const before = (await store.counts()).spans;
    const { error } = await exportRaw(receiver.address, TRACES, Buffer.from([0x0a, 0xff, 0xff, 0x01]));
    expect(error?.code).toBe(status.INVALID_ARGUMENT);
    expect(error?.details).toMatch(/cannot decode traces protobuf/);
    expect((await store.counts()).spans).toBe(before);
  });

  it('answers RESOURCE_EXHAUSTED without RetryInfo for a message over the size limit, even gzipped', async () => {
    const big = protobufTraces(await sdkSpans(6000, 'grpc-big'));
    expect(big.length).toBeGreaterThan(1024 * 1024);
    for (const gzip of [false, true]) {
      const { error } = await exportRaw(receiver.address, TRACES, big, { gzip });
      expect(error?.code).toBe(status.RESOURCE_EXHAUSTED);
      expect(error?.metadata.get('grpc-status-details-bin')).toEqual([]);
    }
  });

  it('answers RESOURCE_EXHAUSTED with RetryInfo when the store is saturated, UNAVAILABLE when it is down', async () => {
    const saturated: IngestSink = { write: () => Promise.reject(new StoreBusyError('ingest queue full (500000 rows waiting)')) };
    const down: IngestSink = { write: () => Promise.reject(new Error('database is closed')) };
    const body = protobufTraces(await sdkSpans(2));
    for (const [sink, code] of [[saturated, status.RESOURCE_EXHAUSTED], [down, status.UNAVAILABLE]] as const) {
      const r = await startGrpcReceiver({ sink, host: '127.0.0.1', port: 0, maxBodyBytes: 1024 * 1024 });
      const { error } = await exportRaw(r.address, TRACES, body);
      await r.close();
      expect(error?.code).toBe(code);
      const [details] = error?.metadata.get('grpc-status-details-bin') ?? [];
      if (code === status.RESOURCE_EXHAUSTED) {
        expect(retryDelay(details as Buffer)).toEqual({ code: status.RESOURCE_EXHAUSTED, retrySeconds: 1 });
      } else expect(details).toBeUndefined();
    }
  });

  it('requires the bearer token when the colony has one', async () => {
    const sink: IngestSink = { write: () => Promise.resolve() };
    const r = await startGrpcReceiver({ sink, host: '127.0.0.1', port: 0, maxBodyBytes: 1024 * 1024, token: 's3cret' });
    const body = protobufTraces(await sdkSpans(1));
    const without = await exportRaw(r.address, TRACES, body);
    const wrong = await exportRaw(r.address, TRACES, body, { token: 'nope' });
    const right = await exportRaw(r.address, TRACES, body, { token: 's3cret' });
    await r.close();
    expect(without.error?.code).toBe(status.UNAUTHENTICATED);
    expect(wrong.error?.code).toBe(status.UNAUTHENTICATED);
    expect(right.error).toBeUndefined();
  });

  it('says which port is taken', async () => {
    await expect(startGrpcReceiver({ sink: store, host: '127.0.0.1', port: receiver.port, maxBodyBytes: 1024 })).rejects.toThrow(/Cannot listen for OTLP\/gRPC on 127\.0\.0\.1:\d+/);
  });
});
