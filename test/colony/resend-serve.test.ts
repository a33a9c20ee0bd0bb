/**
 * The OTLP retry contract against `coral colony serve` with its default flags: an exporter re-sends
 * a batch it saw no answer for. 16 senders (protobuf, JSON, gRPC) send 20 batches of 500 spans each,
 * every one acknowledged, then send them all again at once, while the checkpointer folds the log in
 * and retention drops an old backlog. Nothing acknowledged may go, nothing may be stored twice
 * (issue 39: checkpoints renumbered the rowids an upsert had read, which deleted other batches).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Client, Metadata, credentials } from '@grpc/grpc-js';
import { ColonyStore } from '../../src/colony/store/store.js';
import type { OtlpSpan } from '../../src/colony/otlp/model.js';
import { requestBytes, spanBytes } from '../support/otlp-proto.js';
import { jsonSpan } from '../support/otlp-json.js';
import { hex } from '../support/numbered-spans.js';
import { batchAt } from '../support/retention-rows.js';
import { startColonyServe, stopColonyServe } from '../support/colony-serve.js';

const SENDERS = 16;
const BATCHES = 20;
const SPANS = 500;
const HOUR = 3_600_000_000_000n;
const TRACES = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';

const home = mkdtempSync(join(tmpdir(), 'coral-resend-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

type Protocol = 'protobuf' | 'json' | 'grpc';
const protocolOf = (sender: number): Protocol => (['protobuf', 'json', 'grpc'] as const)[sender % 3];

/** Sender s's batch b: span ids unique across the run, one trace of four spans per four ids. */
function spansOf(sender: number, batch: number, startNs: bigint): OtlpSpan[] {
  // From 4: trace id 0 is invalid OTLP.
  const first = 4 + (sender * BATCHES + batch) * SPANS;
  return Array.from({ length: SPANS }, (_, i) => ({
    traceId: hex((first + i) >> 2, 32), spanId: hex(first + i + 1, 16), parentSpanId: '', traceState: '', name: `GET /r${i % 7}`, kind: 2,
    startNs: startNs + BigInt(i) * 1_000_000n, endNs: startNs + BigInt(i) * 1_000_000n + 4_000_000n,
    attributes: { 'http.route': `/r${i % 7}`, 'app.sender': sender, 'app.batch': batch }, events: [], links: [], statusCode: 0, statusMessage: '',
  }));
}

const resource = (sender: number) => ({ attributes: { 'service.name': `svc-${sender % 5}`, 'telemetry.sdk.name': 'opentelemetry' }, droppedAttributesCount: 0 });

function body(sender: number, spans: OtlpSpan[]): Buffer {
  if (protocolOf(sender) === 'json') {
    return Buffer.from(JSON.stringify({ resourceSpans: [{ resource: { attributes: Object.entries(resource(sender).attributes).map(([key, v]) => ({ key, value: { stringValue: v } })) },
      scopeSpans: [{ scope: { name: 'resend' }, spans: spans.map((s) => ({ ...jsonSpan({ traceId: s.traceId!, spanId: s.spanId!, name: s.name, startNs: s.startNs, durationMs: 4, attributes: s.attributes as Record<string, string | number> }) })) }] }] }));
  }
  return requestBytes([{ resource: resource(sender), scopes: [{ scope: { name: 'resend', version: '', attributes: {} }, items: spans }] }], spanBytes);
}

function postHttp(url: string, sender: number, payload: Buffer): Promise<number> {
  const contentType = protocolOf(sender) === 'json' ? 'application/json' : 'application/x-protobuf';
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/traces`, { method: 'POST', headers: { 'content-type': contentType, 'content-length': payload.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

function exportGrpc(client: Client, payload: Buffer): Promise<number> {
  return new Promise((resolve) => {
    client.makeUnaryRequest(TRACES, (b: Buffer) => b, (b: Buffer) => b, payload, new Metadata(), (error) => resolve(error ? error.code : 0));
  });
}

/** Each sender sends its batches one after another; each answer must be an acknowledgement. */
async function sendAll(url: string, grpcAddress: string, payloads: Buffer[][]): Promise<void> {
  await Promise.all(payloads.map(async (batches, sender) => {
    const client = protocolOf(sender) === 'grpc' ? new Client(grpcAddress, credentials.createInsecure()) : null;
    try {
      for (const payload of batches) {
        const answer = client ? await exportGrpc(client, payload) : await postHttp(url, sender, payload);
        expect(answer, `sender ${sender} (${protocolOf(sender)})`).toBe(client ? 0 : 200);
      }
    } finally {
      client?.close();
    }
  }));
}

it('16 mixed senders send, then re-send every acknowledged batch: 0 lost, 0 stored twice', async () => {
  const db = join(home, 'colony.duckdb');
  const nowNs = BigInt(Date.now()) * 1_000_000n;
  // A backlog past the retention, for serve's first pass to drop while the senders send.
  const old = await ColonyStore.open({ path: db, threads: 1, memoryLimit: '1GB' });
  await old.write(batchAt(10_000_000, 100_000, nowNs - 3n * HOUR, HOUR));
  await old.close();

  const payloads = Array.from({ length: SENDERS }, (_, s) => Array.from({ length: BATCHES }, (_, b) => body(s, spansOf(s, b, nowNs - 600_000_000_000n + BigInt(b) * 1_000_000_000n))));
  const serve = await startColonyServe(['--db', db, '--retain', '1h'], `${db}.serve.json`, { CORAL_HOME: home });
  try {
    await sendAll(serve.url, serve.grpc!, payloads);
    await sendAll(serve.url, serve.grpc!, payloads);
  } finally {
    await stopColonyServe(serve.child);
  }
  const sent = SENDERS * BATCHES * SPANS;
  // The checkpointer ran during the run (else this test shows nothing), and the stop line counts spans, not items received.
  expect(serve.log()).toMatch(/checkpoints? [1-9]/);
  expect(serve.log()).toContain(`${sent.toLocaleString('en-US')} new spans stored this run`);

  const store = await ColonyStore.open({ path: db, threads: 1, memoryLimit: '1GB' });
  try {
    const [row] = await store.db.query<{ rows: bigint; distinct_keys: bigint; batches: bigint }>(
      `SELECT count(*)::BIGINT AS rows, count(DISTINCT (trace_id, span_id))::BIGINT AS distinct_keys,
        count(DISTINCT (attributes->>'app.sender', attributes->>'app.batch'))::BIGINT AS batches
       FROM otel_traces WHERE scope_name = 'resend'`,
    );
    expect({ rows: Number(row.rows), distinct: Number(row.distinct_keys), batches: Number(row.batches) }).toEqual({ rows: sent, distinct: sent, batches: SENDERS * BATCHES });
  } finally {
    await store.close();
  }
}, 300_000);
