import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { HAVE_CHDB, SKIP_REASON } from './chdb.js';
import { startFakeClickHouse } from './fake-http.js';
import { type ChClient, openChClient } from '../../../src/colony/store/clickhouse/client.js';
import { ClickHouseStore } from '../../../src/colony/store/clickhouse/store.js';
import { type TableNames, createTableStatements, qualified } from '../../../src/colony/store/clickhouse/ddl.js';
import { type RunningReceiver, startReceiver } from '../../../src/colony/otlp/receiver.js';
import { ingestExport } from '../../../src/colony/otlp/ingest.js';
import { hrToNs, protobufTraces, sdkSpans } from '../../support/otel-sdk.js';

const DIR = join(tmpdir(), `coral-ch-${process.pid}`);
const WIDE = { fromNs: 0n, toNs: 4_000_000_000_000_000_000n };
const RENAMED: TableNames = { traces: 'spans_v2', logs: 'app_logs', gauge: 'm_gauge', sum: 'm_sum', histogram: 'm_hist' };

let ch: ChClient;
beforeAll(async () => {
  if (HAVE_CHDB) ch = await openChClient({ kind: 'chdb', dir: DIR, database: 'default' });
});
afterAll(async () => {
  await ch?.close();
  rmSync(DIR, { recursive: true, force: true });
});

describe.skipIf(!HAVE_CHDB)(`ClickHouse colony on the real engine${HAVE_CHDB ? '' : ` (skipped: ${SKIP_REASON})`}`, { timeout: 120_000 }, () => {
  it('interpolates span percentiles exactly as DuckDB quantile_cont does', async () => {
    const values = Array.from({ length: 997 }, (_, i) => Math.round(1e6 * (1 + Math.sin(i * 7.3) ** 2 * 40 + (i % 13))));
    const qs = [0.5, 0.95, 0.99, 0.999];
    const [c] = await ch.query<{ q: number[] }>(`SELECT quantilesExactInclusive(${qs.join(', ')})(x) AS q FROM (SELECT arrayJoin([${values.join(',')}]) AS x)`);
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    const d = (await duck.runAndReadAll(`SELECT quantile_cont(x, [${qs.join(', ')}]) AS q FROM (SELECT unnest([${values.join(',')}]::BIGINT[]) AS x)`)).getRowObjectsJS()[0].q as number[];
    duck.closeSync();
    qs.forEach((_, i) => expect(c.q[i]).toBeCloseTo(d[i], 6));
    // The default quantile is approximate: the reason for the exact variant.
    expect(c.q[0]).not.toBe(values.sort((a, b) => a - b)[0]);
  });

  it('answers from tables the Collector wrote: older spellings, Beyla resources, renamed tables in another database', async () => {
    for (const sql of createTableStatements('collector_db', RENAMED)) await ch.command(sql);
    const t0 = 1_764_671_400_000_000_000n;
    const beyla = `map('service.name', 'cart', 'telemetry.sdk.name', 'beyla', 'telemetry.sdk.language', 'dotnet')`;
    const sdk = `map('service.name', 'cart', 'telemetry.sdk.name', 'opentelemetry', 'telemetry.sdk.language', 'dotnet')`;
    const rows: string[] = [];
    for (let i = 0; i < 20; i++) {
      const ts = `fromUnixTimestamp64Nano(toInt64(${t0 + BigInt(i) * 1_000_000_000n}))`;
      const status = i % 4 === 0 ? '500' : '200';
      // As the exporter's older releases wrote them: SPAN_KIND_*/STATUS_CODE_*, every attribute a string.
      rows.push(`(${ts}, 'trace${String(i).padStart(27, '0')}', 'span${String(i).padStart(12, '0')}', '', 'GET /api/cart', 'SPAN_KIND_SERVER', 'cart', ${i % 2 ? beyla : sdk}, '', map('http.method', 'GET', 'http.route', '/api/cart', 'http.status_code', '${status}'), ${(i + 1) * 1_000_000}, '${status === '500' ? 'STATUS_CODE_ERROR' : 'STATUS_CODE_UNSET'}')`);
    }
    await ch.command(`INSERT INTO ${qualified('collector_db', RENAMED.traces)} (Timestamp, TraceId, SpanId, ParentSpanId, SpanName, SpanKind, ServiceName, ResourceAttributes, ScopeName, SpanAttributes, Duration, StatusCode) VALUES ${rows.join(', ')}`);
    const store = await ClickHouseStore.open({ target: { kind: 'chdb', dir: DIR, database: 'collector_db' }, tables: RENAMED });
    try {
      expect(await store.listServices()).toEqual([{ serviceName: 'cart', sources: ['ebpf', 'otlp'], firstSeenNs: t0, lastSeenNs: t0 + 19_000_000_000n + 20_000_000n }]);
      const red = await store.redFromSpans({ service: 'cart', protocol: 'http', range: WIDE, source: 'ebpf' });
      // Odd i: 10 Beyla spans, durations 2, 4, ... 20 ms; i = 1..19 odd never divisible by 4: no errors.
      expect(red).toEqual([expect.objectContaining({ source: 'ebpf', httpRoute: '/api/cart', httpMethod: 'GET', requests: 10, errors: 0, p50Ms: 11 })]);
      const sdkRed = await store.redFromSpans({ service: 'cart', protocol: 'http', range: WIDE, source: 'otlp' });
      expect(sdkRed[0]).toMatchObject({ requests: 10, errors: 5 });
      const trace = await store.getTrace(`trace${'0'.repeat(26)}4`);
      expect(trace).toEqual([expect.objectContaining({ kind: 'SERVER', statusCode: 'ERROR', httpStatusCode: 500, source: 'otlp', durationMs: 5 })]);
      const found = await store.searchTraces({ range: WIDE, service: 'cart', maxTraces: 3, order: 'errors' });
      expect(found.matchedTraces).toBe(20);
      expect(found.traces.map((t) => t.spans[0].statusCode)).toEqual(['ERROR', 'ERROR', 'ERROR']);
      // A small table is read without the trace-id lookup; a large one with it: the same spans either way.
      const bounded = await ClickHouseStore.open({ target: { kind: 'chdb', dir: DIR, database: 'collector_db' }, tables: RENAMED, traceBoundsMinRows: 0 });
      try {
        expect(await bounded.getTrace(`trace${'0'.repeat(26)}4`)).toEqual(trace);
        expect(await bounded.searchTraces({ range: WIDE, service: 'cart', maxTraces: 3, order: 'errors' })).toEqual(found);
      } finally {
        await bounded.close();
      }
    } finally {
      await store.close();
    }
  });

  describe('ingest from the official OTel exporters into renamed tables', () => {
    let store: ClickHouseStore;
    let receiver: RunningReceiver;
    const resource = resourceFromAttributes({ 'service.name': 'checkout', 'service.version': '1.2.3' });
    beforeAll(async () => {
      store = await ClickHouseStore.open({ target: { kind: 'chdb', dir: DIR, database: 'ingest_db' }, tables: RENAMED, create: true });
      receiver = await startReceiver({ sink: store, port: 0 });
    });
    afterAll(async () => {
      await receiver.close();
      await store.close();
    });

    it('stores spans, histograms and logs in the exporter schema, read back as sent', async () => {
      const recorded = new InMemorySpanExporter();
      const traces = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(recorded), new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${receiver.url}/v1/traces` }))] });
      const span = traces.getTracer('@opentelemetry/instrumentation-http').startSpan('POST /api/checkout', {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': 'POST', 'http.route': '/api/checkout', 'http.response.status_code': 500, 'app.items': 3 },
      });
      span.addEvent('retry', { attempt: 2 });
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' });
      span.end();
      await traces.forceFlush();
      const [sent] = recorded.getFinishedSpans();
      await traces.shutdown();

      const meters = new MeterProvider({ resource, readers: [new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter({ url: `${receiver.url}/v1/metrics` }), exportIntervalMillis: 3_600_000 })] });
      const h = meters.getMeter('m').createHistogram('http.server.request.duration', { unit: 's', advice: { explicitBucketBoundaries: [0.005, 0.01, 0.025] } });
      for (const v of [0.001, 0.007, 0.007, 0.02, 0.3]) h.record(v, { 'http.request.method': 'GET', 'http.route': '/api/cart', 'http.response.status_code': 200 });
      await meters.shutdown(); // exports once (a forceFlush first would send the cumulative point twice)

      const logs = new LoggerProvider({ resource, processors: [new SimpleLogRecordProcessor({ exporter: new OTLPLogExporter({ url: `${receiver.url}/v1/logs` }) })] });
      logs.getLogger('l').emit({ severityNumber: SeverityNumber.ERROR, severityText: 'ERROR', body: 'Charge failed', attributes: { 'app.user': 'u-1' } });
      logs.getLogger('l').emit({ severityNumber: SeverityNumber.INFO, body: 'payment 2.1.0 rolled out', eventName: 'deploy' });
      await logs.forceFlush();
      await logs.shutdown();

      const [stored] = await store.getTrace(sent.spanContext().traceId);
      expect(stored).toMatchObject({
        spanId: sent.spanContext().spanId, name: 'POST /api/checkout', kind: 'SERVER', serviceName: 'checkout', source: 'otlp',
        startNs: hrToNs(sent.startTime), endNs: hrToNs(sent.endTime), statusCode: 'ERROR', statusMessage: 'boom',
        httpMethod: 'POST', httpRoute: '/api/checkout', httpStatusCode: 500, scopeName: '@opentelemetry/instrumentation-http',
      });
      expect(stored.attributes).toEqual({ 'http.request.method': 'POST', 'http.route': '/api/checkout', 'http.response.status_code': '500', 'app.items': '3' });
      expect(stored.events).toEqual([expect.objectContaining({ name: 'retry', attributes: { attempt: '2' } })]);
      const [raw] = await ch.query<{ SpanKind: string; StatusCode: string }>(`SELECT SpanKind, StatusCode FROM ${qualified('ingest_db', RENAMED.traces)}`);
      expect(raw).toEqual({ SpanKind: 'Server', StatusCode: 'Error' });

      const red = await store.redFromHistograms({ service: 'checkout', protocol: 'http', range: WIDE });
      expect(red).toEqual([expect.objectContaining({ requests: 5, errors: 0, httpRoute: '/api/cart', httpMethod: 'GET', basis: 'histogram' })]);
      const found = await store.queryLogs({ range: WIDE, service: 'checkout', minLevel: 'error', limit: 10 });
      expect(found.logs).toEqual([expect.objectContaining({ level: 'error', body: 'Charge failed', attributes: { 'app.user': 'u-1' } })]);
      expect(await store.queryEvents({ range: WIDE, limit: 5 })).toEqual([expect.objectContaining({ kind: 'deploy', serviceName: 'checkout', title: 'payment 2.1.0 rolled out' })]);
      expect(await store.counts()).toEqual({ spans: 1, numberPoints: 0, histogramPoints: 1, logs: 2, events: 1, services: 1 });
    });
  });

  it('talks to a ClickHouse server through @clickhouse/client (HTTP interface, password sent)', async () => {
    const server = await startFakeClickHouse(ch, { user: 'coral', password: 's3cret' });
    try {
      const store = await ClickHouseStore.open({ target: { kind: 'http', url: server.url, username: 'coral', database: 'via_http' }, password: 's3cret', create: true });
      const spans = await sdkSpans(8, 'checkout');
      await ingestExport(store, 'traces', 'protobuf', protobufTraces(spans));
      const trace = await store.getTrace(spans[0].spanContext().traceId);
      expect(trace.map((s) => s.spanId).sort()).toEqual(spans.filter((s) => s.spanContext().traceId === spans[0].spanContext().traceId).map((s) => s.spanContext().spanId).sort());
      expect(trace[0].startNs).toBe(hrToNs(spans.find((s) => s.spanContext().spanId === trace[0].spanId)!.startTime));
      const red = await store.redFromSpans({ service: 'checkout', protocol: 'http', range: WIDE });
      expect(red[0]).toMatchObject({ requests: 2, httpRoute: '/api/checkout' });
      await store.close();
      expect(server.statements.some((s) => s.startsWith('INSERT INTO `via_http`.`otel_traces`'))).toBe(true);
      await expect(ClickHouseStore.open({ target: { kind: 'http', url: server.url, username: 'coral', database: 'via_http' }, password: 'wrong' })).rejects.toThrow(/Authentication failed/);
    } finally {
      await server.close();
    }
  });
});
