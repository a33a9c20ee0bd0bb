import { availableParallelism } from 'node:os';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DECODE_WORKER_YOUNG_GENERATION_MB, DecodePool } from '../../../src/colony/otlp/decode-pool.js';
import { IngestError, decodeExport } from '../../../src/colony/otlp/ingest.js';
import { OtlpDecodeError } from '../../../src/colony/otlp/model.js';
import { startReceiver } from '../../../src/colony/otlp/receiver.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { protobufTraces, sdkSpans } from '../../support/otel-sdk.js';

const body = protobufTraces(await sdkSpans(200, 'checkout'));
/** A copy owning all of its ArrayBuffer: what the receiver hands over. */
const owned = () => Buffer.from(new Uint8Array(body).buffer);
const tick = () => new Promise((r) => setImmediate(r));

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('did not reject');
}

describe('DecodePool', () => {
  const pools: DecodePool[] = [];
  const pool = (size = 1) => {
    const p = new DecodePool(size, () => undefined);
    pools.push(p);
    return p;
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.close()));
  });

  it('answers as decodeExport does: the counts, the reasons, and rows for every span', async () => {
    const d = await pool().decode('traces', 'protobuf', owned());
    const n = decodeExport('traces', 'protobuf', body);
    expect([d.accepted, d.rejected, [...d.reasons]]).toEqual([n.accepted, n.rejected, [...n.reasons]]);
    expect(d.batch.rows).toBe(200);
    expect(d.batch.segments.map((s) => [s.table, s.rows])).toEqual([['otel_traces', 200]]);
    expect(d.batch.spanKeys[0]).toHaveLength(400);
    expect(d.batch.sightings.map((s) => s.service)).toEqual(['checkout']);
  });

  it('refuses an undecodable body with the decoder\'s own words', async () => {
    const err = await rejection(pool().decode('logs', 'json', Buffer.from('{')));
    expect(err).toBeInstanceOf(OtlpDecodeError);
    expect(() => decodeExport('logs', 'json', Buffer.from('{'))).toThrow((err as Error).message);
  });

  it("gives its workers a young generation large enough for a big export's objects to die young", async () => {
    const p = pool();
    await p.decode('traces', 'protobuf', owned());
    expect(p.workers[0].resourceLimits?.maxYoungGenerationSizeMb).toBe(DECODE_WORKER_YOUNG_GENERATION_MB);
  });

  it('moves a body owning its memory, and copies one that shares it', async () => {
    const p = pool();
    const mine = owned();
    await p.decode('traces', 'protobuf', mine);
    expect(mine.buffer.byteLength).toBe(0);
    const shared = Buffer.concat([Buffer.from('prefix'), body]);
    const view = shared.subarray(6);
    expect((await p.decode('traces', 'protobuf', view)).accepted).toBe(200);
    expect(shared.subarray(6).equals(body)).toBe(true);
  });

  it('takes a stored batch\'s memory back to encode the next ones into', async () => {
    const p = pool();
    const d = await p.decode('traces', 'protobuf', owned());
    const data = d.batch.segments[0].data;
    expect(data.byteLength).toBeGreaterThan(0);
    p.recycle(d.batch);
    expect(data.byteLength).toBe(0);
    const next = await p.decode('traces', 'protobuf', owned());
    expect(next.batch.segments[0].data.byteLength).toBeGreaterThan(0);
    expect(next.accepted).toBe(200);
  });

  it('spreads exports over several workers, and with none decodes on this thread', async () => {
    const two = pool(2);
    expect(two.workers).toHaveLength(2);
    const both = [two.decode('traces', 'protobuf', owned()), two.decode('traces', 'protobuf', owned())];
    expect(two.inFlight).toBe(2);
    expect((await Promise.all(both)).map((d) => d.accepted)).toEqual([200, 200]);
    const none = pool(0);
    expect(none.workers).toHaveLength(0);
    expect((await none.decode('traces', 'protobuf', owned())).accepted).toBe(200);
  });

  it('a worker that stops fails the exports it held as unavailable, and a new worker takes the next ones', async () => {
    const p = pool();
    const first = p.workers[0];
    const held = [p.decode('traces', 'protobuf', owned()), p.decode('traces', 'protobuf', owned())];
    await first.terminate();
    for (const err of await Promise.all(held.map(rejection))) {
      expect(err).toBeInstanceOf(IngestError);
      expect([(err as IngestError).kind, (err as IngestError).message]).toEqual(['unavailable', "the colony's decode worker stopped; retry later (details are in the colony log)"]);
    }
    expect(p.inFlight).toBe(0);
    expect(p.workers[0]).not.toBe(first);
    expect((await p.decode('traces', 'protobuf', owned())).accepted).toBe(200);
  });
});

describe('the receiver with a decode worker', () => {
  let store: ColonyStore;
  afterAll(async () => {
    await store?.close();
  });

  it('starts as many workers as decodeWorkers says, and with 0 decodes on its own thread', async () => {
    store ??= await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    for (const [decodeWorkers, workers] of [[2, 2], [0, null]] as const) {
      const before = (await store.counts()).spans;
      const receiver = await startReceiver({ sink: store, port: 0, decodeWorkers, onError: () => undefined });
      try {
        expect(receiver.decoders?.workers.length ?? null).toBe(workers);
        const res = await fetch(`${receiver.url}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/x-protobuf' }, body: new Uint8Array(body) });
        expect(res.status).toBe(200);
        // The same spans each time: a re-send replaces them.
        expect((await store.counts()).spans).toBe(before === 0 ? 200 : before);
      } finally {
        await receiver.close();
      }
    }
  });

  it('decodes on two workers by default, one on a single core', async () => {
    const receiver = await startReceiver({ sink: store, port: 0 });
    try {
      expect(receiver.decoders?.workers).toHaveLength(availableParallelism() >= 2 ? 2 : 1);
    } finally {
      await receiver.close();
    }
  });

  it('answers 503 with Retry-After when its worker stops mid-export, stores nothing of it, then takes the re-send', async () => {
    await store?.close();
    store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    const receiver = await startReceiver({ sink: store, port: 0, decodeWorkers: 1, onError: () => undefined });
    try {
      expect(receiver.decoders?.workers).toHaveLength(1);
      const post = () => fetch(`${receiver.url}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/x-protobuf' }, body: new Uint8Array(body) });
      const pending = post();
      while (receiver.decoders?.inFlight === 0) await tick();
      await receiver.decoders?.workers[0].terminate();
      const res = await pending;
      expect([res.status, res.headers.get('retry-after')]).toEqual([503, '1']);
      // A google.rpc.Status in protobuf, as the request was: the message is in it as UTF-8.
      expect(Buffer.from(await res.arrayBuffer()).toString()).toMatch(/decode worker stopped; retry later/);
      expect((await store.counts()).spans).toBe(0);
      const again = await post();
      expect(again.status).toBe(200);
      expect((await store.counts()).spans).toBe(200);
    } finally {
      await receiver.close();
    }
  });
});
