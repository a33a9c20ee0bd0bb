import { afterAll, describe, expect, it } from 'vitest';
import { BACKENDS, ask, ingestFixture, removeChdbDir } from './backends.js';
import { isErrorSpan } from '../../../src/colony/otlp/span-error.js';
import { decodeExport } from '../../../src/colony/otlp/ingest.js';

/**
 * One definition of "a span is an error" (otlp/span-error.ts), read alike by every reader on both
 * backends: an unset status defers to the protocol (HTTP 5xx; 4xx too on the client side; gRPC
 * server error codes on the server side, any code but OK on the client side), a set status decides.
 */
const T0 = 1_764_671_400_000_000_000n;
const SEC = 1_000_000_000n;
const MIN = 60n * SEC;

describe('isErrorSpan, the semantic conventions\' rule', () => {
  const span = (statusCode: string, kind: string, httpStatusCode: number | null, rpcStatusCode: number | null = null) => ({ statusCode, kind, httpStatusCode, rpcStatusCode });
  it('defers to HTTP and gRPC codes only when the status is unset', () => {
    expect(isErrorSpan(span('UNSET', 'SERVER', 500))).toBe(true);
    expect(isErrorSpan(span('UNSET', 'SERVER', 404))).toBe(false);
    expect(isErrorSpan(span('UNSET', 'CLIENT', 404))).toBe(true);
    expect(isErrorSpan(span('UNSET', 'CLIENT', 399))).toBe(false);
    expect(isErrorSpan(span('UNSET', 'SERVER', null, 13))).toBe(true);
    expect(isErrorSpan(span('UNSET', 'SERVER', null, 5))).toBe(false);
    expect(isErrorSpan(span('UNSET', 'CLIENT', null, 5))).toBe(true);
    expect(isErrorSpan(span('UNSET', 'CLIENT', null, 0))).toBe(false);
    expect(isErrorSpan(span('UNSET', 'INTERNAL', null))).toBe(false);
    expect(isErrorSpan(span('ERROR', 'SERVER', 200))).toBe(true);
    expect(isErrorSpan(span('OK', 'SERVER', 503))).toBe(false);
  });
});

/** Every combination of status, kind, HTTP code and gRPC code, one span per trace, as an SDK exports them. */
const STATUS = [0, 1, 2];
const KIND = [1, 2, 3];
const HTTP = [null, 200, 404, 500];
const RPC = [null, 0, 5, 13];
const STATUS_NAME = ['UNSET', 'OK', 'ERROR'];
const KIND_NAME = ['', 'INTERNAL', 'SERVER', 'CLIENT'];
interface Case { traceId: string; spanId: string; status: number; kind: number; http: number | null; rpc: number | null }
const CASES: Case[] = STATUS.flatMap((status) => KIND.flatMap((kind) => HTTP.flatMap((http) => RPC.map((rpc) => ({ status, kind, http, rpc })))))
  .map((c, i) => ({ ...c, traceId: (i + 1).toString(16).padStart(32, '0'), spanId: (i + 1).toString(16).padStart(16, '0') }));
const expected = (c: Case) => isErrorSpan({ statusCode: STATUS_NAME[c.status], kind: KIND_NAME[c.kind], httpStatusCode: c.http, rpcStatusCode: c.rpc });

function casesBody(): Buffer {
  const spans = CASES.map((c, i) => {
    const attributes = [{ key: 'http.request.method', value: { stringValue: 'GET' } }, { key: 'http.route', value: { stringValue: '/items' } }];
    if (c.http !== null) attributes.push({ key: 'http.response.status_code', value: { intValue: String(c.http) } } as never);
    if (c.rpc !== null) attributes.push({ key: 'rpc.system', value: { stringValue: 'grpc' } }, { key: 'rpc.grpc.status_code', value: { intValue: String(c.rpc) } } as never);
    const start = T0 + 40n * MIN + BigInt(i) * SEC;
    return { traceId: c.traceId, spanId: c.spanId, name: 'GET /items', kind: c.kind, startTimeUnixNano: String(start), endTimeUnixNano: String(start + 5_000_000n), attributes, status: c.status === 0 ? {} : { code: c.status } };
  });
  return Buffer.from(JSON.stringify({ resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'shop' } }, { key: 'telemetry.sdk.language', value: { stringValue: 'go' } }] }, scopeSpans: [{ scope: { name: 'go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp' }, spans }] }] }));
}

afterAll(removeChdbDir, 120_000);

describe.each(BACKENDS)('a span is an error alike for every reader ($name)', ({ open }) => {
  it('trace search, trace trees, health, minutes, operations and own-time calls agree with isErrorSpan', async () => {
    const store = await open();
    try {
      await store.write(decodeExport('traces', 'json', casesBody()).batch);
      const range = { fromNs: T0 + 30n * MIN, toNs: T0 + 60n * MIN };
      const failing = CASES.filter(expected);
      const servers = CASES.filter((c) => c.kind === 2);
      expect(failing.length).toBeGreaterThan(20);

      const found = await store.searchTraces({ range, errorsOnly: true, maxTraces: 1000 });
      expect(found.traces.map((t) => t.traceId).sort()).toEqual(failing.map((c) => c.traceId).sort());

      const all = await store.searchTraces({ range, maxTraces: 1000 });
      const byId = new Map(CASES.map((c) => [c.spanId, c]));
      for (const t of all.traces) for (const s of t.spans) expect(isErrorSpan(s)).toBe(expected(byId.get(s.spanId)!));

      const [health] = await store.serviceHealth(range, 'shop');
      expect(health.errors).toBe(servers.filter(expected).length);
      const minutes = await store.minuteSeries(range);
      expect(minutes.reduce((n, m) => n + m.errors, 0)).toBe(servers.filter(expected).length);
      const buckets = await store.operationSpanBuckets(range);
      expect(buckets.filter((b) => b.kind === 'server').reduce((n, b) => n + b.errors, 0)).toBe(servers.filter(expected).length);
      const calls = await store.callSpans(range, 1000);
      expect(calls.length).toBeGreaterThan(0);
      for (const c of calls) expect(c.error).toBe(expected(byId.get(c.spanId)!));

      const red = await store.redFromSpans({ service: 'shop', protocol: 'http', range });
      expect(red.reduce((n, r) => n + r.errors, 0)).toBe(servers.filter(expected).length);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('Envoy\'s ingress spans with http.status_code 500 and no status are errors in the summary, RED, trace search and trees', async () => {
    const store = await open();
    try {
      await ingestFixture(store, 'traces', 'envoy-ingress-unset-status.jsonl');
      const now = T0 + 60n * MIN;
      const summary = await ask(store, now, 'coral_query_summary', { time_range: '30m' });
      const proxy = (summary.structured.services as { service: string; errors: number; requests: number; signals: string[] }[]).find((c) => c.service === 'frontend-proxy');
      expect(proxy).toMatchObject({ requests: 60, errors: 20 });
      expect(proxy?.signals[0]).toBe('errors 0.0% -> 33.3%');
      expect((summary.structured.standOut as { service: string }[])[0]?.service).toBe('frontend-proxy');

      const red = await ask(store, now, 'coral_query_metrics', { service: 'frontend-proxy', time_range: '30m' });
      // Envoy names no route: the span name stands in.
      expect(red.text).toMatch(/Route: ingress \(POST\), Requests: 30, .*Errors: 66\.7%/);

      const traces = await ask(store, now, 'coral_query_traces', { service: 'frontend-proxy', time_range: '30m', max_traces: 3, order: 'errors' });
      const listed = traces.structured.traces as { traceId: string; errorCount: number }[];
      expect(listed.map((t) => t.errorCount)).toEqual([1, 1, 1]);
      const one = await ask(store, now, 'coral_get_trace_by_id', { trace_id: listed[0].traceId });
      expect((one.structured.traces as { roots: { error: boolean; httpStatusCode: number }[] }[])[0].roots[0]).toMatchObject({ error: true, httpStatusCode: 500 });
      const health = await ask(store, now, 'coral_get_service_health', { service: 'frontend-proxy', time_range: '30m' });
      expect(health.text).toMatch(/33\.3% errors/);
    } finally {
      await store.close();
    }
  }, 120_000);
});
