import { gzipSync, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { type RunningReceiver, startReceiver } from '../../../src/colony/otlp/receiver.js';
import { SEC, T0, beylaResource, sdkResource, tracesBody } from '../../support/otlp-json.js';
import { protobufTraces, sdkSpans } from '../../support/otel-sdk.js';

let store: ColonyStore;
let receiver: RunningReceiver;
const LIMIT = 1024 * 1024;

beforeAll(async () => {
  store = await ColonyStore.open({ path: ':memory:', threads: 2, memoryLimit: '2GB' });
  receiver = await startReceiver({ sink: store, port: 0, maxBodyBytes: LIMIT });
});
afterAll(async () => {
  await receiver.close();
  await store.close();
});

let spansBefore = 0;
beforeEach(async () => {
  spansBefore = (await store.counts()).spans;
});
const storedSince = async () => (await store.counts()).spans - spansBefore;

function post(path: string, body: Buffer | string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${receiver.url}${path}`, { method: 'POST', body: typeof body === 'string' ? body : new Uint8Array(body), headers: { 'content-type': 'application/json', ...headers } });
}

/** Length-delimited protobuf field. */
function field(n: number, bytes: Buffer): Buffer {
  const len: number[] = [];
  for (let v = bytes.length; ; v >>>= 7) {
    if (v < 0x80) {
      len.push(v);
      break;
    }
    len.push((v & 0x7f) | 0x80);
  }
  return Buffer.concat([Buffer.from([(n << 3) | 2, ...len]), bytes]);
}

function fixed64(n: number, v: bigint): Buffer {
  const b = Buffer.alloc(9);
  b[0] = (n << 3) | 1;
  b.writeBigUInt64LE(v, 1);
  return b;
}

/** A Span message (field 2 of ScopeSpans): trace_id 1, span_id 2, name 5, start 7, end 8. */
function protoSpan(traceId: Buffer, spanId: Buffer): Buffer {
  return field(2, Buffer.concat([field(1, traceId), field(2, spanId), field(5, Buffer.from('GET /x')), fixed64(7, T0), fixed64(8, T0 + SEC)]));
}

let seq = 0;
function spanBatch(n: number, resource: Record<string, string | number | boolean> = sdkResource('checkout'), scope = '@opentelemetry/instrumentation-http') {
  const base = ++seq * 10_000;
  return tracesBody(resource, scope, Array.from({ length: n }, (_, i) => ({
    traceId: (base + i).toString(16).padStart(32, '0'),
    spanId: (base + i).toString(16).padStart(16, '0'),
    name: 'GET /x',
    startNs: T0 + BigInt(i) * SEC,
    durationMs: 5,
  })));
}

describe('OTLP/HTTP status codes', () => {
  it('stores a JSON export and answers {}', async () => {
    const res = await post('/v1/traces', JSON.stringify(spanBatch(3)));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    expect(await storedSince()).toBe(3);
  });

  it('answers 415 for other content types, 405 for non-POST, 404 for other paths', async () => {
    const r415 = await post('/v1/traces', 'x', { 'content-type': 'text/plain' });
    expect(r415.status).toBe(415);
    expect((await r415.json()).message).toMatch(/accepted: application\/x-protobuf, application\/json/);
    const r405 = await fetch(`${receiver.url}/v1/traces`);
    expect(r405.status).toBe(405);
    expect(r405.headers.get('allow')).toBe('POST');
    expect((await post('/v1/spans', '{}')).status).toBe(404);
    expect(await storedSince()).toBe(0);
  });

  it('answers 400 with a google.rpc.Status for malformed JSON and truncated protobuf, storing nothing', async () => {
    const bad = await post('/v1/traces', '{"resourceSpans": [');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 3, message: expect.stringMatching(/malformed JSON/) });
    const wrongShape = await post('/v1/traces', '{"resourceSpans": {"x": 1}}');
    expect(wrongShape.status).toBe(400);

    const proto = protobufTraces(await sdkSpans(8));
    const truncated = await post('/v1/traces', proto.subarray(0, proto.length - 7), { 'content-type': 'application/x-protobuf' });
    expect(truncated.status).toBe(400);
    expect(truncated.headers.get('content-type')).toBe('application/x-protobuf');
    expect(await storedSince()).toBe(0);
  });

  it('rejects only the spans with malformed ids, as a partial success', async () => {
    const body = spanBatch(4) as { resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[] };
    const spans = body.resourceSpans[0].scopeSpans[0].spans;
    spans[0].traceId = 'not-hex-'.repeat(4); // 32 chars, not hex
    spans[1].spanId = 'AAAAAAAAAAAAAAAAAAAAAA=='; // base64, the classic proto3 JSON mistake
    spans[2].traceId = '0'.repeat(32);
    const res = await post('/v1/traces', JSON.stringify(body));
    expect(res.status).toBe(200);
    const json = await res.json();
    expect(json.partialSuccess.rejectedSpans).toBe('3');
    expect(json.partialSuccess.errorMessage).toMatch(/invalid trace_id.*invalid span_id/);
    expect(await storedSince()).toBe(1);
  });

  it('answers partial success in protobuf for protobuf requests', async () => {
    const good = protoSpan(Buffer.alloc(16, 0xab), Buffer.alloc(8, 0x01));
    const shortId = protoSpan(Buffer.alloc(16, 0xab), Buffer.alloc(7, 0x02));
    const body = field(1, field(2, Buffer.concat([field(1, Buffer.from([])), good, shortId])));
    const res = await post('/v1/traces', body, { 'content-type': 'application/x-protobuf' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-protobuf');
    const decoded = ProtobufTraceSerializer.deserializeResponse(new Uint8Array(await res.arrayBuffer()));
    expect(Number(decoded.partialSuccess?.rejectedSpans)).toBe(1);
    expect(decoded.partialSuccess?.errorMessage).toMatch(/invalid span_id/);
    expect(await storedSince()).toBe(1);
  });

  it('answers {} in protobuf for a clean protobuf export from the SDK serializer', async () => {
    const res = await post('/v1/traces', protobufTraces(await sdkSpans(4)), { 'content-type': 'application/x-protobuf' });
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toHaveLength(0);
    expect(await storedSince()).toBe(4);
  });

  it('accepts gzip and deflate bodies', async () => {
    expect((await post('/v1/traces', gzipSync(JSON.stringify(spanBatch(2))), { 'content-encoding': 'gzip' })).status).toBe(200);
    expect((await post('/v1/traces', deflateSync(JSON.stringify(spanBatch(2))), { 'content-encoding': 'deflate' })).status).toBe(200);
    expect((await post('/v1/traces', 'x', { 'content-encoding': 'br' })).status).toBe(415);
    expect(await storedSince()).toBe(4);
  });

  it('answers 413 above the size limit, and for a gzip bomb before inflating it', async () => {
    const big = JSON.stringify({ resourceSpans: [], pad: 'x'.repeat(LIMIT + 10) });
    expect((await post('/v1/traces', big)).status).toBe(413);
    const bomb = gzipSync(Buffer.alloc(50 * LIMIT, 0x20)); // 50 MiB of spaces, ~50 KiB compressed
    expect(bomb.length).toBeLessThan(LIMIT);
    const res = await post('/v1/traces', bomb, { 'content-encoding': 'gzip' });
    expect(res.status).toBe(413);
    expect((await res.json()).message).toMatch(/decompressed body exceeds/);
    expect(await storedSince()).toBe(0);
  });
});

describe('idempotency and concurrency', () => {
  it('creates no duplicate when a batch is retried', async () => {
    const body = JSON.stringify(spanBatch(50));
    for (let i = 0; i < 3; i++) expect((await post('/v1/traces', body)).status).toBe(200);
    expect(await storedSince()).toBe(50);
  });

  it('loses nothing from 20 concurrent clients sending 200 batches each', async () => {
    const clients = Array.from({ length: 20 }, async () => {
      for (let b = 0; b < 200; b++) {
        const res = await post('/v1/traces', JSON.stringify(spanBatch(5)));
        expect(res.status).toBe(200);
      }
    });
    await Promise.all(clients);
    expect(await storedSince()).toBe(20 * 200 * 5);
  }, 120_000);
});

describe('source classification', () => {
  it.each([
    ['telemetry.sdk.name=beyla', beylaResource('cart'), ''],
    ['the OBI distro', { 'service.name': 'cart', 'telemetry.distro.name': 'opentelemetry-ebpf-instrumentation' }, ''],
    ['OBI naming itself the SDK', { 'service.name': 'cart', 'telemetry.sdk.name': 'opentelemetry-ebpf-instrumentation' }, ''],
    ['an OBI scope', { 'service.name': 'cart' }, 'go.opentelemetry.io/obi'],
    ['otel.scope.name on the resource', { 'service.name': 'cart', 'otel.scope.name': 'github.com/grafana/beyla' }, ''],
  ])('lands %s as ebpf', async (_label, resource, scope) => {
    await post('/v1/traces', JSON.stringify(spanBatch(1, resource as Record<string, string>, scope)));
    const [row] = await store.db.query<{ source: string }>(`SELECT source FROM otel_traces WHERE service_name = 'cart' ORDER BY start_ns DESC LIMIT 1`);
    expect(row.source).toBe('ebpf');
    await store.db.admin.run(`DELETE FROM otel_traces WHERE service_name = 'cart'`);
  });

  it('lands SDK payloads as otlp even when the language matches what Beyla would copy', async () => {
    await post('/v1/traces', JSON.stringify(spanBatch(1, sdkResource('cart', { 'telemetry.sdk.language': 'go' }))));
    const [row] = await store.db.query<{ source: string }>(`SELECT source FROM otel_traces WHERE service_name = 'cart'`);
    expect(row.source).toBe('otlp');
  });
});
