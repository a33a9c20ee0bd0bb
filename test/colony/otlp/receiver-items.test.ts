/** OTLP/HTTP and the item cap: 413 with a google.rpc.Status saying how many, the limit and how to change it; nothing stored. */
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningReceiver, startReceiver } from '../../../src/colony/otlp/receiver.js';
import type { IngestBatch } from '../../../src/colony/store/rows.js';
import { minimalSpansExport } from '../../support/minimal-spans.js';
import { T0, hexId, sdkResource, tracesBody } from '../../support/otlp-json.js';

let receiver: RunningReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

const spans = (n: number) => Array.from({ length: n }, (_, i) => ({ traceId: hexId(16, i + 1), spanId: hexId(8, i + 1), name: 'GET /x', startNs: T0, durationMs: 1 }));

describe('the item cap over OTLP/HTTP', () => {
  it('answers 413 to JSON and to gzipped protobuf over it (counted once decompressed), and takes an export at it', async () => {
    const written: IngestBatch[] = [];
    receiver = await startReceiver({ sink: { write: async (b) => { written.push(b); } }, port: 0, maxExportItems: 5, decodeWorkers: 0 });
    const post = (body: Buffer, headers: Record<string, string>) => fetch(`${receiver!.url}/v1/traces`, { method: 'POST', body: new Uint8Array(body), headers });

    const json = await post(Buffer.from(JSON.stringify(tracesBody(sdkResource('x'), 'x', spans(6)))), { 'content-type': 'application/json' });
    expect(json.status).toBe(413);
    expect(await json.json()).toEqual({
      code: 8,
      message: 'this export holds 6 items (spans with their events and links, log records, metric data points), more than the 5 the colony takes in one export;'
        + " send smaller batches (the Collector's batch processor: send_batch_max_size; SDKs: maxExportBatchSize), or start the colony with --max-export-items N",
      details: [],
    });
    const proto = await post(gzipSync(minimalSpansExport(7, 'x', T0)), { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' });
    expect(proto.status).toBe(413);
    expect(Buffer.from(await proto.arrayBuffer()).toString('utf8')).toContain('this export holds 7 items');
    expect(written).toEqual([]);

    const atCap = await post(Buffer.from(JSON.stringify(tracesBody(sdkResource('x'), 'x', spans(5)))), { 'content-type': 'application/json' });
    expect(atCap.status).toBe(200);
    expect(written.map((b) => b.spans.length)).toEqual([5]);
  });
});
