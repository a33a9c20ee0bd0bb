import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { MIN, SEC, T0, beylaResource, ingest, logsBody, sdkResource, tracesBody } from '../../support/otlp-json.js';
import { WINDOW, fixtureStore } from './fixture.js';
import { normalizeLogs, normalizeTraces } from '../../../src/colony/otlp/normalize.js';
import { decodeLogsJson, decodeTracesJson } from '../../../src/colony/otlp/decode-json.js';

function normalizedSpans(service: string, n: number) {
  const body = tracesBody(sdkResource(service), 's', [{ traceId: (n + 1).toString(16).padStart(32, 'e'), spanId: (n + 1).toString(16).padStart(16, 'e'), name: 'x', startNs: T0 + SEC, durationMs: 1 }]);
  return normalizeTraces(decodeTracesJson(Buffer.from(JSON.stringify(body)))).batch;
}

let store: ColonyStore;
beforeAll(async () => {
  store = await fixtureStore();
});
afterAll(async () => store.close());

describe('ingest', () => {
  it('keeps (trace_id, span_id) unique when a batch is sent again', async () => {
    const before = (await store.counts()).spans;
    const body = tracesBody(sdkResource('checkout'), 's', [
      { traceId: 'cd'.repeat(16), spanId: '11'.repeat(8), name: 'x', startNs: T0 + SEC, durationMs: 1 },
      { traceId: 'cd'.repeat(16), spanId: '12'.repeat(8), name: 'y', startNs: T0 + SEC, durationMs: 1 },
    ]);
    await ingest(store, 'traces', body);
    await ingest(store, 'traces', body);
    await Promise.all([ingest(store, 'traces', body), ingest(store, 'traces', body)]);
    expect((await store.counts()).spans).toBe(before + 2);
  });

  it('re-sent batches spanning several tables land once each, old rows and new alike', async () => {
    const fresh = await ColonyStore.open({ path: ':memory:' });
    try {
      const traces = (spanIds: number[]) =>
        normalizeTraces(decodeTracesJson(Buffer.from(JSON.stringify(tracesBody(sdkResource('resend'), 's', spanIds.map((n) => ({ traceId: 'ab'.repeat(16), spanId: n.toString(16).padStart(16, '0'), name: `op${n}`, startNs: T0 + SEC, durationMs: 1 }))))))).batch;
      const logs = normalizeLogs(decodeLogsJson(Buffer.from(JSON.stringify(logsBody(sdkResource('resend'), 's', [
        { timeNs: T0, body: 'v2 rolled out', eventName: 'deploy' },
        { timeNs: T0 + SEC, body: 'a plain line' },
      ]))))).batch;
      const batch = (spanIds: number[]) => Object.assign(traces(spanIds), { logs: logs.logs, events: logs.events });
      await fresh.write(batch([1, 2]));
      // The span table's insert fails on the key seen before; the whole batch then goes the upsert way.
      await fresh.write(batch([1, 2, 3]));
      await Promise.all([fresh.write(batch([3, 4])), fresh.write(batch([4, 5]))]);
      expect(await fresh.counts()).toMatchObject({ spans: 5, logs: 2, events: 1 });
    } finally {
      await fresh.close();
    }
  });

  it('resolves every write, whether awaited one by one or many at once', async () => {
    const before = (await store.counts()).spans;
    const batch = (i: number) => normalizedSpans(`seq-${i}`, i);
    for (let i = 0; i < 20; i++) await store.write(batch(i));
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.write(batch(100 + i))));
    expect((await store.counts()).spans).toBe(before + 40);
  });

  it('tags rows with their source and registers services per source', async () => {
    const services = await store.listServices();
    const byName = Object.fromEntries(services.map((s) => [s.serviceName, s.sources]));
    expect(byName.checkout).toEqual(['ebpf', 'otlp']);
    expect(byName.frontend).toEqual(['ebpf', 'otlp']);
    expect(byName.payment).toEqual(['ebpf', 'otlp']);
  });
});

describe('RED metrics from spans (exact)', () => {
  it('groups HTTP by route and method per source, with exact percentiles', async () => {
    const rows = await store.redFromSpans({ service: 'checkout', protocol: 'http', range: WINDOW });
    const sdk = rows.find((r) => r.source === 'otlp' && r.httpRoute === '/api/checkout');
    expect(sdk).toMatchObject({ httpMethod: 'POST', requests: 10, errors: 2, errorRate: 0.2, basis: 'spans' });
    // quantile_cont over 10,20..100 ms
    expect(sdk?.p50Ms).toBeCloseTo(55, 6);
    expect(sdk?.p95Ms).toBeCloseTo(95.5, 6);
    expect(sdk?.p99Ms).toBeCloseTo(99.1, 6);
    const ebpf = rows.find((r) => r.source === 'ebpf' && r.httpRoute === '/api/cart');
    expect(ebpf).toMatchObject({ httpMethod: 'GET', requests: 5, errors: 0 });
    expect(ebpf?.p50Ms).toBeCloseTo(3, 6);
  });

  it('honours every HTTP filter', async () => {
    const q = { service: 'checkout', protocol: 'http' as const, range: WINDOW };
    expect((await store.redFromSpans({ ...q, httpRoute: '/api/cart' })).map((r) => r.httpRoute)).toEqual(['/api/cart']);
    expect((await store.redFromSpans({ ...q, httpMethod: 'get' })).map((r) => r.httpMethod)).toEqual(['GET']);
    const errors = await store.redFromSpans({ ...q, statusCodeRange: '5xx' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ requests: 2, errors: 2 });
    expect(await store.redFromSpans({ ...q, source: 'ebpf', httpRoute: '/api/checkout' })).toEqual([]);
  });

  it('groups gRPC by method across naming styles, with server error codes', async () => {
    const q = { service: 'payment', protocol: 'grpc' as const, range: WINDOW };
    const rows = await store.redFromSpans(q);
    expect(rows.map((r) => [r.source, r.rpcService, r.rpcMethod, r.requests, r.errors])).toEqual([
      ['otlp', 'oteldemo.PaymentService', 'Charge', 4, 1],
      ['ebpf', 'oteldemo.PaymentService', 'Charge', 2, 1],
    ]);
    for (const form of ['Charge', 'oteldemo.PaymentService/Charge', '/oteldemo.PaymentService/Charge']) {
      expect(await store.redFromSpans({ ...q, grpcMethod: form })).toHaveLength(2);
    }
    expect(await store.redFromSpans({ ...q, grpcMethod: 'Refund' })).toEqual([]);
    expect((await store.redFromSpans({ ...q, grpcStatusCode: 14 })).map((r) => r.source)).toEqual(['ebpf']);
  });

  it('groups SQL by operation and table, old and new attribute names alike', async () => {
    const q = { service: 'product-catalog', protocol: 'sql' as const, range: WINDOW };
    const rows = await store.redFromSpans({ ...q, sqlOperation: 'select', tableName: 'products' });
    expect(rows.map((r) => [r.source, r.dbSystem, r.dbOperation, r.dbTable, r.requests])).toEqual([
      ['otlp', 'postgresql', 'SELECT', 'products', 3],
      ['ebpf', 'postgresql', 'SELECT', 'products', 2],
    ]);
    expect(await store.redFromSpans({ ...q, tableName: 'orders' })).toEqual([]);
  });
});

describe('RED metrics from Beyla histograms', () => {
  const q = { service: 'frontend', protocol: 'http' as const, range: WINDOW };

  it('takes window deltas, handles the counter reset, and interpolates percentiles', async () => {
    const [row] = await store.redFromHistograms(q);
    // healthy series: +10 in (0.01,0.025] and +10 in (0.025,0.05]; error series restarted: 2 in (0.75,1].
    expect(row).toMatchObject({ source: 'ebpf', basis: 'histogram', httpRoute: '/api/products/*', httpMethod: 'GET', requests: 22, errors: 2 });
    expect(row.p50Ms).toBeCloseTo(27.5, 9);
    expect(row.p95Ms).toBeCloseTo(862.5, 9);
    expect(row.p99Ms).toBeCloseTo(972.5, 9);
    expect(row.percentilesAtLeast).toBe(false);
  });

  it('a window starting before the first exported point takes that point as the baseline, not the count since process start', async () => {
    // The healthy series started 10 min before T0: its 10 earlier observations are not in a window from T0-5min.
    const [row] = await store.redFromHistograms({ ...q, range: { fromNs: T0 - 5n * MIN, toNs: T0 + 10n * MIN } });
    expect(row).toMatchObject({ requests: 22, errors: 2 });
  });

  it('honours the status filter and an empty window', async () => {
    const [errors] = await store.redFromHistograms({ ...q, statusCodeRange: '5xx' });
    expect(errors).toMatchObject({ requests: 2, errors: 2 });
    expect(await store.redFromHistograms({ ...q, range: { fromNs: T0 + 6n * MIN, toNs: T0 + 10n * MIN } })).toEqual([]);
  });
});

describe('traces', () => {
  it('limits by traces and returns each trace whole, from both sources', async () => {
    const res = await store.searchTraces({ range: WINDOW, service: 'checkout', maxTraces: 1, order: 'slowest' });
    expect(res.matchedTraces).toBeGreaterThan(10);
    expect(res.traces).toHaveLength(1);
    const spans = res.traces[0].spans;
    expect(spans.map((s) => [s.serviceName, s.source, s.kind])).toEqual([
      ['frontend', 'otlp', 'SERVER'],
      ['frontend', 'otlp', 'CLIENT'],
      ['checkout', 'ebpf', 'SERVER'],
      ['checkout', 'otlp', 'SERVER'],
      ['checkout', 'otlp', 'CLIENT'],
    ]);
    // The duplicated request: eBPF and SDK server spans share the trace and the parent.
    expect(new Set(spans.filter((s) => s.serviceName === 'checkout' && s.kind === 'SERVER').map((s) => s.parentSpanId))).toEqual(new Set(['f2'.repeat(8)]));
  });

  it('filters by minimum duration and trace id, and finds whole traces by id', async () => {
    const slow = await store.searchTraces({ range: WINDOW, minDurationMs: 500, maxTraces: 10 });
    expect(slow.traces.map((t) => t.traceId)).toEqual(['ab'.repeat(16)]);
    const byId = await store.searchTraces({ range: WINDOW, traceId: 'AB'.repeat(16), maxTraces: 10 });
    expect(byId.traces[0].spans).toHaveLength(5);
    const trace = await store.getTrace('ab'.repeat(16));
    expect(trace[0]).toMatchObject({ name: 'POST /api/place-order', durationMs: 900, httpRoute: '/api/place-order' });
    expect(trace[0].resourceAttributes['service.name']).toBe('frontend');
    expect(await store.getTrace('00'.repeat(15) + '01')).toEqual([]);
  });
});

describe('logs and events', () => {
  it('filters by level, text (wildcards literal) and trace id', async () => {
    const errors = await store.queryLogs({ range: WINDOW, service: 'payment', minLevel: 'error', limit: 10 });
    expect(errors.logs.map((l) => l.body)).toEqual(['Charge failed: Invalid token (50% of retries used)']);
    expect((await store.queryLogs({ range: WINDOW, minLevel: 'warn', limit: 10 })).total).toBe(2);
    expect((await store.queryLogs({ range: WINDOW, text: '50%', limit: 10 })).total).toBe(1);
    expect((await store.queryLogs({ range: WINDOW, text: '5_%', limit: 10 })).total).toBe(0);
    expect((await store.queryLogs({ range: WINDOW, traceId: 'ab'.repeat(16), limit: 10 })).logs[0].level).toBe('error');
    const limited = await store.queryLogs({ range: WINDOW, limit: 1 });
    expect(limited.logs).toHaveLength(1);
    expect(limited.total).toBe(4);
  });

  it('records operational events sent as named log records', async () => {
    const events = await store.queryEvents({ range: WINDOW, limit: 10 });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ serviceName: 'payment', kind: 'deploy', title: 'payment v2.1.0 rolled out' });
    expect(await store.queryEvents({ range: WINDOW, kind: 'crash', limit: 10 })).toEqual([]);
  });
});

describe('service health and topology', () => {
  it('marks error-heavy services unhealthy and silent ones by how long they have been quiet', async () => {
    const health = await store.serviceHealth({ fromNs: T0, toNs: T0 + 5n * MIN + SEC });
    const checkout = health.find((h) => h.serviceName === 'checkout');
    expect(checkout?.status).toBe('unhealthy');
    expect(checkout?.reasons.join(' ')).toMatch(/errors/);
    const late = await store.serviceHealth({ fromNs: T0, toNs: T0 + 60n * MIN }, 'payment');
    expect(late).toHaveLength(1);
    expect(late[0].status).toBe('unhealthy');
    expect(late[0].reasons.join(' ')).toMatch(/no telemetry for/);
  });

  it('derives service edges from client->server spans and external ones from unanswered clients', async () => {
    const edges = await store.topology(WINDOW);
    expect(edges).toContainEqual({ from: 'frontend', to: 'checkout', kind: 'service', protocol: 'http', calls: 1, errors: 0, sources: ['otlp'] });
    expect(edges).toContainEqual(expect.objectContaining({ from: 'checkout', to: 'postgresql', kind: 'external', protocol: 'sql' }));
  });
});

describe('hostile input', () => {
  it('treats SQL fragments and huge strings as values, never as SQL', async () => {
    const before = await store.counts();
    for (const evil of [`checkout' OR '1'='1`, `x"; DROP TABLE otel_traces; --`, 'x'.repeat(10_000), '%', '\\']) {
      expect(await store.redFromSpans({ service: evil, protocol: 'http', range: WINDOW })).toEqual([]);
      expect((await store.searchTraces({ range: WINDOW, service: evil, maxTraces: 5 })).traces).toEqual([]);
      await store.queryLogs({ range: WINDOW, text: evil, limit: 5 });
    }
    expect(await store.counts()).toEqual(before);
  });
});

describe('service registry', () => {
  it('an event from a deploy tool (no telemetry.sdk.name) gives a Beyla-only service no SDK source', async () => {
    const own = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    try {
      await ingest(own, 'traces', tracesBody(beylaResource('quote'), '', [
        { traceId: 'aa'.repeat(16), spanId: 'a1'.repeat(8), name: 'POST /getquote', startNs: T0, durationMs: 3, attributes: { 'http.request.method': 'POST', 'http.route': '/getquote' } },
      ]));
      await ingest(own, 'logs', logsBody({ 'service.name': 'quote' }, 'deployer', [
        { timeNs: T0 + SEC, body: 'quote 1.2.0 rolled out', eventName: 'deploy', attributes: { 'service.version': '1.2.0' } },
      ]));
      expect((await own.queryEvents({ range: WINDOW, limit: 5 })).map((e) => e.title)).toEqual(['quote 1.2.0 rolled out']);
      expect((await own.listServices()).map((s) => s.sources)).toEqual([['ebpf']]);
      // A plain log record is telemetry the service sent itself: that does register an OTLP source.
      await ingest(own, 'logs', logsBody({ 'service.name': 'quote' }, 'app', [{ timeNs: T0 + 2n * SEC, body: 'a plain log line' }]));
      expect((await own.listServices()).map((s) => s.sources)).toEqual([['ebpf', 'otlp']]);
    } finally {
      await own.close();
    }
  });
});
