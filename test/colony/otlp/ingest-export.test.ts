import { describe, expect, it } from 'vitest';
import { IngestError, decodeExport, ingestExport } from '../../../src/colony/otlp/ingest.js';
import type { IngestBatch } from '../../../src/colony/store/rows.js';
import { StoreBusyError } from '../../../src/colony/store/busy.js';
import { T0, hexId, histogramBody, logsBody, sdkResource, tracesBody } from '../../support/otlp-json.js';
import { len, str } from '../../support/otlp-proto.js';

const json = (v: unknown) => Buffer.from(JSON.stringify(v));
const TRACES = json(tracesBody(sdkResource('checkout'), 'x', [{ traceId: hexId(16, 1), spanId: hexId(8, 1), name: 'GET /x', startNs: T0, durationMs: 5 }]));
const LOGS = json(logsBody(sdkResource('checkout'), 'x', [{ timeNs: T0, body: 'hello' }]));
const METRICS = json(histogramBody(sdkResource('checkout'), 'x', { name: 'http.server.request.duration', unit: 's' }, [{ attributes: {}, startNs: T0 - 1n, timeNs: T0, bounds: [0.1], counts: [1, 2] }]));
/** A protobuf logs export: one record with a time and a body. */
const PROTO_LOGS = Buffer.from(len(1, len(2, len(2, [(1 << 3) | 1, ...Buffer.from(new BigUint64Array([T0]).buffer), ...len(5, str(1, 'hi'))]))));

/** What `f` rejects with. */
async function rejection(f: () => Promise<unknown>): Promise<unknown> {
  try {
    await f();
  } catch (err) {
    return err;
  }
  throw new Error('did not reject');
}

describe('decodeExport', () => {
  it('decodes each signal with its own decoder, JSON or protobuf, and normalises it', () => {
    expect(decodeExport('traces', 'json', TRACES).batch.spans.map((s) => s.name)).toEqual(['GET /x']);
    expect(decodeExport('logs', 'json', LOGS).batch.logs.map((l) => l.body)).toEqual(['hello']);
    expect(decodeExport('metrics', 'json', METRICS).batch.histogramPoints.map((p) => p.metricName)).toEqual(['http.server.request.duration']);
    expect(decodeExport('logs', 'protobuf', PROTO_LOGS).batch.logs.map((l) => [l.body, l.timeNs])).toEqual([['hi', T0]]);
  });

  it('reads the body in the encoding it is told', () => {
    expect(() => decodeExport('logs', 'protobuf', LOGS)).toThrow(/protobuf/);
    expect(() => decodeExport('logs', 'json', PROTO_LOGS)).toThrow(/malformed JSON/);
  });
});

describe('ingestExport', () => {
  const sink = (write: (b: IngestBatch) => Promise<void>) => ({ write });

  it('writes the normalised batch to the sink and returns its counts', async () => {
    const written: IngestBatch[] = [];
    const n = await ingestExport(sink(async (b) => { written.push(b); }), 'traces', 'json', TRACES);
    expect(written).toEqual([decodeExport('traces', 'json', TRACES).batch]);
    expect(n.accepted).toBe(1);
  });

  it('refuses an undecodable body as invalid, naming the signal and encoding, and writes nothing', async () => {
    const written: IngestBatch[] = [];
    const err = await rejection(() => ingestExport(sink(async (b) => { written.push(b); }), 'metrics', 'json', Buffer.from('{')));
    expect(err).toBeInstanceOf(IngestError);
    expect((err as IngestError).kind).toBe('invalid');
    expect((err as IngestError).message).toMatch(/^cannot decode metrics json: malformed JSON: /);
    expect(written).toEqual([]);
  });

  it('answers a busy store as busy, with its message', async () => {
    const err = await rejection(() => ingestExport(sink(async () => { throw new StoreBusyError('queue full'); }), 'logs', 'json', LOGS));
    expect(err).toBeInstanceOf(IngestError);
    expect([(err as IngestError).kind, (err as IngestError).message]).toEqual(['busy', 'queue full']);
  });

  it('answers any other store failure as unavailable, keeping the cause for the log but not in the message', async () => {
    const cause = new Error('disk full at /var/colony');
    const err = await rejection(() => ingestExport(sink(async () => { throw cause; }), 'traces', 'json', TRACES));
    expect(err).toBeInstanceOf(IngestError);
    expect((err as IngestError).kind).toBe('unavailable');
    expect((err as IngestError).message).toBe('the store could not take this batch; retry later (details are in the colony log)');
    expect((err as IngestError).cause).toBe(cause);
  });
});
