/**
 * OTLP/gRPC under the colony's limits: the item cap (RESOURCE_EXHAUSTED without RetryInfo, the
 * HTTP 413's words), and the in-flight budget it now shares with OTLP/HTTP (RESOURCE_EXHAUSTED
 * with RetryInfo, as the HTTP 429 + Retry-After).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client, Metadata, type ServiceError, credentials, status } from '@grpc/grpc-js';
import { type RunningGrpcReceiver, startGrpcReceiver } from '../../../src/colony/otlp/grpc.js';
import { InflightBudget } from '../../../src/colony/otlp/limits.js';
import { type RunningReceiver, startReceiver } from '../../../src/colony/otlp/receiver.js';
import type { IngestBatch } from '../../../src/colony/store/rows.js';
import { minimalSpansExport } from '../../support/minimal-spans.js';
import { T0, hexId, sdkResource, tracesBody } from '../../support/otlp-json.js';

const TRACES = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';
const MiB = 1024 * 1024;

function exportRaw(address: string, body: Buffer): Promise<ServiceError | null> {
  const client = new Client(address, credentials.createInsecure());
  return new Promise((resolve) => {
    client.makeUnaryRequest(TRACES, (b: Buffer) => b, (b: Buffer) => b, body, new Metadata(), (error) => {
      client.close();
      resolve(error);
    });
  });
}

/** A sink that holds every batch until opened, counting what it was given. */
function gatedSink() {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const written: IngestBatch[] = [];
  return { open, written, sink: { write: async (b: IngestBatch) => { written.push(b); await gate; } } };
}

let grpc: RunningGrpcReceiver | undefined;
let http: RunningReceiver | undefined;
afterEach(async () => {
  await grpc?.close();
  await http?.close();
  grpc = http = undefined;
});

describe('OTLP/gRPC limits', () => {
  it('refuses an export over the item cap with RESOURCE_EXHAUSTED and no RetryInfo, saying how to change the cap, storing nothing', async () => {
    const g = gatedSink();
    g.open();
    grpc = await startGrpcReceiver({ sink: g.sink, host: '127.0.0.1', port: 0, maxBodyBytes: MiB, maxExportItems: 10 });
    const over = await exportRaw(grpc.address, minimalSpansExport(11, 'svc', T0));
    expect(over?.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(over?.details).toMatch(/^this export holds 11 items \(spans with their events and links, log records, metric data points\), more than the 10 the colony takes in one export; .*--max-export-items N$/);
    // Not worth retrying: the same export would be refused again.
    expect(over?.metadata.get('grpc-status-details-bin')).toEqual([]);
    expect(g.written).toEqual([]);
    expect(await exportRaw(grpc.address, minimalSpansExport(10, 'svc', T0))).toBeNull();
    expect(g.written.map((b) => b.spans.length)).toEqual([10]);
  });

  it('shares the in-flight budget with OTLP/HTTP: a message that does not fit beside an HTTP export is refused with RetryInfo, then taken', async () => {
    const budget = new InflightBudget(MiB);
    const g = gatedSink();
    http = await startReceiver({ sink: g.sink, port: 0, maxBodyBytes: 4 * MiB, budget, decodeWorkers: 0 });
    grpc = await startGrpcReceiver({ sink: g.sink, host: '127.0.0.1', port: 0, maxBodyBytes: 4 * MiB, budget });
    const padded = JSON.stringify(tracesBody(sdkResource('http'), 'x', [{ traceId: hexId(16, 1), spanId: hexId(8, 1), name: 'GET /x', startNs: T0, durationMs: 1, attributes: { pad: 'p'.repeat(480 * 1024) } }]));
    const held = fetch(`${http.url}/v1/traces`, { method: 'POST', body: padded, headers: { 'content-type': 'application/json' } });
    await vi.waitFor(() => expect(g.written).toHaveLength(1));
    const inUse = budget.inUse;
    expect(inUse).toBeGreaterThan(900 * 1024);

    const body = minimalSpansExport(2048, 'grpc', T0);
    const refused = await exportRaw(grpc.address, body);
    expect(refused?.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(refused?.details).toBe(`the colony is already holding ${inUse} bytes of exports in flight (limit ${MiB}, --max-inflight-mb); retry after 1 s`);
    expect(refused?.metadata.get('grpc-status-details-bin')).toHaveLength(1);
    expect(budget.inUse).toBe(inUse);

    g.open();
    expect((await held).status).toBe(200);
    expect(await exportRaw(grpc.address, body)).toBeNull();
    expect(g.written.map((b) => b.spans.length)).toEqual([1, 2048]);
    expect(budget.inUse).toBe(0);
  });
});
