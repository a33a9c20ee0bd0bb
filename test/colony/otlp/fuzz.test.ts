import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeLogsJson, decodeMetricsJson, decodeTracesJson } from '../../../src/colony/otlp/decode-json.js';
import { decodeLogsProto, decodeMetricsProto, decodeTracesProto } from '../../../src/colony/otlp/decode-proto.js';
import { OtlpDecodeError, type Signal } from '../../../src/colony/otlp/model.js';
import { type Normalized, normalizeLogs, normalizeMetrics, normalizeTraces } from '../../../src/colony/otlp/normalize.js';
import { type RunningReceiver, startReceiver } from '../../../src/colony/otlp/receiver.js';
import { appendBatch, emptyBatch, type IngestBatch } from '../../../src/colony/store/rows.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { Random } from '../../../src/core/random.js';
import { SEC, T0, hexId, histogramBody, logsBody, sdkResource, tracesBody } from '../../support/otlp-json.js';
import { protobufTraces, sdkSpans } from '../../support/otel-sdk.js';
import { double, fixed64, int, len, str } from '../../support/otlp-proto.js';

/**
 * Hostile-input fuzzer: random bytes, mutated valid protobuf and JSON, and boundary numbers in every
 * numeric field, against both decoders (most cases, called directly: fast) and the HTTP receiver (a
 * sample). Invariants: a decoder throws nothing but OtlpDecodeError (a 400); whatever decodes
 * normalizes without throwing and is accepted by the real store; the receiver never answers 5xx for
 * bad data and stores nothing from a request it refuses. CORAL_FUZZ_SEED replays a run.
 */
const SEED = Number(process.env.CORAL_FUZZ_SEED ?? 20261126);
const DIRECT_CASES = 10_000;
const HTTP_CASES = 200;

const DECODE: Record<Signal, { json: (b: Buffer) => unknown; proto: (b: Buffer) => unknown; normalize: (r: never) => Normalized }> = {
  traces: { json: decodeTracesJson, proto: decodeTracesProto, normalize: normalizeTraces },
  metrics: { json: decodeMetricsJson, proto: decodeMetricsProto, normalize: normalizeMetrics },
  logs: { json: decodeLogsJson, proto: decodeLogsProto, normalize: normalizeLogs },
};

// --- the logs and metrics seeds, written with the shared protobuf writer (traces come from the real SDK) ---
const kv = (k: string, any: number[]) => len(1, [...str(1, k), ...len(2, any)]);
const resource = (service: string) => len(1, kv('service.name', str(1, service)));

function protoLogs(): Buffer {
  const rec = (i: number) => len(2, [
    ...fixed64(1, T0 + BigInt(i) * SEC), ...int(2, 9n), ...str(3, 'INFO'), ...len(5, str(1, `line ${i}`)),
    ...kv('http.response.status_code', int(3, 200n)), ...len(9, [...Buffer.alloc(16, i + 1)]), ...len(10, [...Buffer.alloc(8, i + 1)]), ...fixed64(11, T0),
  ]);
  return Buffer.from(len(1, [...len(1, resource('cart')), ...len(2, [...len(1, str(1, 'scope')), ...rec(0), ...rec(1)])]));
}

function protoMetrics(): Buffer {
  const point = [...fixed64(2, T0), ...fixed64(3, T0 + SEC), ...double(4, 3), ...len(7, kv('k', str(1, 'v')))];
  const hist = [...fixed64(2, T0), ...fixed64(3, T0 + SEC), ...fixed64(4, 3n), ...double(5, 7), ...len(6, [...fixed64(0, 1n).slice(1), ...fixed64(0, 2n).slice(1)]), ...double(7, 1)];
  const metrics = [
    ...len(2, [...str(1, 'g'), ...len(5, len(1, point))]),
    ...len(2, [...str(1, 's'), ...len(7, [...len(1, point), ...int(2, 2n), ...int(3, 1n)])]),
    ...len(2, [...str(1, 'h'), ...len(9, [...len(1, hist), ...int(2, 1n)])]),
  ];
  return Buffer.from(len(1, [...len(1, resource('cart')), ...len(2, [...len(1, str(1, 'scope')), ...metrics])]));
}

const NUMERIC_KEYS = ['startTimeUnixNano', 'endTimeUnixNano', 'timeUnixNano', 'observedTimeUnixNano', 'severityNumber', 'kind', 'code', 'intValue', 'doubleValue', 'asInt', 'asDouble', 'count', 'sum', 'min', 'max', 'aggregationTemporality'];
/** Raw JSON tokens, spliced in textually (JSON.stringify cannot write 1e400 or -0). */
const BOUNDARY = ['9223372036854775807', '"9223372036854775807"', '"9223372036854775808"', '"18446744073709551615"', '"99999999999999999999"', '18446744073709551616', '-1', '"-1"', '2.5', '"2.5"', '"NaN"', '"Infinity"', '"-Infinity"', '1e400', '-1e400', '1e12', '2147483648', '-2147483649', '0', '-0', '"abc"', 'null', 'true', '[]', '{}', '"\\ud800"', '"a\\u0000b"', '1e-400', '9007199254740993'];

function seeds(): Promise<Record<Signal, { json: unknown[]; proto: Buffer[] }>> {
  const spans = Array.from({ length: 4 }, (_, i) => ({ traceId: hexId(16, i), spanId: hexId(8, i), name: 'GET /x', startNs: T0 + BigInt(i) * SEC, durationMs: 5, attributes: { 'http.response.status_code': 200, 'rpc.grpc.status_code': 0, 'deep': 'x' } }));
  return sdkSpans(6).then((sdk) => ({
    traces: { json: [tracesBody(sdkResource('checkout'), 'scope', spans)], proto: [protobufTraces(sdk)] },
    metrics: { json: [histogramBody(sdkResource('checkout'), 's', { name: 'm', unit: 's' }, [{ attributes: { a: 1 }, startNs: T0, timeNs: T0 + SEC, bounds: [1, 2], counts: [1, 2, 3] }])], proto: [protoMetrics()] },
    logs: { json: [logsBody(sdkResource('checkout'), 's', [{ timeNs: T0, body: 'a', severityNumber: 17, attributes: { n: 1 } }, { timeNs: T0, body: 'b' }])], proto: [protoLogs()] },
  }));
}

function mutateBytes(rng: Random, buf: Buffer): Buffer {
  const b = Buffer.from(buf);
  const ops = 1 + rng.int(0, 3);
  let out = b;
  for (let i = 0; i < ops && out.length > 0; i++) {
    const at = rng.int(0, out.length - 1);
    switch (rng.int(0, 5)) {
      case 0: out[at] ^= 1 << rng.int(0, 7); break;
      case 1: out = out.subarray(0, at); break;
      case 2: out = Buffer.concat([out.subarray(0, at), Buffer.from(Array.from({ length: rng.int(1, 12) }, () => rng.int(0, 255))), out.subarray(at)]); break;
      case 3: out = Buffer.concat([out.subarray(0, at), out.subarray(Math.min(out.length, at + rng.int(1, 16)))]); break;
      case 4: out = Buffer.concat([out.subarray(0, at), Buffer.from(rng.pick([[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], [0x80], [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], [0, 0, 0, 0, 0, 0, 0xf0, 0x7f]])), out.subarray(at + 1)]); break;
      default: out[at] = rng.int(0, 255);
    }
  }
  return out;
}

/** Replaces one (or every) value of a numeric OTLP field with a boundary token, or a random node with a wrong type. */
function mutateJson(rng: Random, value: unknown): Buffer {
  let text = JSON.stringify(value);
  if (rng.chance(0.7)) {
    const key = rng.pick(NUMERIC_KEYS);
    const token = rng.pick(BOUNDARY);
    const re = new RegExp(`"${key}":("[^"]*"|[-\\d.eE+]+)`, 'g');
    const every = rng.chance(0.3);
    let hit = false;
    text = text.replace(re, (m) => {
      if (hit && !every) return m;
      hit = true;
      return `"${key}":${token}`;
    });
  } else {
    const keys = [...text.matchAll(/"(\w+)":/g)].map((m) => m[1]);
    const key = rng.pick(keys);
    text = text.replace(new RegExp(`"${key}":`), `"${key}":${rng.pick(BOUNDARY)},"_was":`);
  }
  return rng.chance(0.15) ? mutateBytes(rng, Buffer.from(text)) : Buffer.from(text);
}

interface Case {
  signal: Signal;
  encoding: 'json' | 'proto';
  body: Buffer;
}

function makeCase(rng: Random, corpus: Awaited<ReturnType<typeof seeds>>): Case {
  const signal = rng.pick(['traces', 'metrics', 'logs'] as const);
  const encoding = rng.chance(0.5) ? 'json' : 'proto';
  const roll = rng.next();
  if (roll < 0.1) return { signal, encoding, body: Buffer.from(Array.from({ length: rng.int(0, 64) }, () => rng.int(0, 255))) };
  if (encoding === 'json') return { signal, encoding, body: mutateJson(rng, rng.pick(corpus[signal].json)) };
  return { signal, encoding, body: mutateBytes(rng, rng.pick(corpus[signal].proto)) };
}

let store: ColonyStore;
let receiver: RunningReceiver;
const internal: unknown[] = [];
/** Batches handed to the store by the receiver: the only way anything gets stored. */
let sinkWrites = 0;

beforeAll(async () => {
  store = await ColonyStore.open({ path: ':memory:', threads: 2, memoryLimit: '2GB' });
  const sink = {
    write: (b: IngestBatch) => {
      sinkWrites++;
      return store.write(b);
    },
  };
  receiver = await startReceiver({ sink, port: 0, onError: (e) => internal.push(e) });
});
afterAll(async () => {
  await receiver.close();
  await store.close();
});

const describeCase = (c: Case, i: number) => `case ${i} (seed ${SEED}): ${c.signal} ${c.encoding} ${c.body.toString(c.encoding === 'json' ? 'utf8' : 'hex').slice(0, 400)}`;

describe(`OTLP fuzzer (seed ${SEED})`, () => {
  it(`${DIRECT_CASES} cases through both decoders and normalisation, every survivor stored by the real store`, async () => {
    const rng = new Random(SEED);
    const corpus = await seeds();
    const survivors: { c: Case; i: number; batch: IngestBatch }[] = [];
    let decodeErrors = 0;
    for (let i = 0; i < DIRECT_CASES; i++) {
      const c = makeCase(rng, corpus);
      const codec = DECODE[c.signal];
      let decoded: unknown;
      try {
        decoded = c.encoding === 'json' ? codec.json(c.body) : codec.proto(c.body);
      } catch (err) {
        if (!(err instanceof OtlpDecodeError)) throw new Error(`${describeCase(c, i)}\nthrew ${(err as Error).stack}`);
        decodeErrors++;
        continue;
      }
      try {
        survivors.push({ c, i, batch: codec.normalize(decoded as never).batch });
      } catch (err) {
        throw new Error(`${describeCase(c, i)}\nnormalize threw ${(err as Error).stack}`);
      }
    }
    // Both outcomes must occur, or the mutations are too weak (or too strong) to test anything.
    expect(decodeErrors).toBeGreaterThan(DIRECT_CASES / 20);
    expect(survivors.length).toBeGreaterThan(DIRECT_CASES / 4);
    // Stored in chunks (one commit each, fast); a failing chunk is retried case by case to name the culprit.
    for (let k = 0; k < survivors.length; k += 500) {
      const chunk = survivors.slice(k, k + 500);
      const merged = emptyBatch();
      for (const s of chunk) appendBatch(merged, s.batch);
      try {
        await store.write(merged);
      } catch {
        for (const s of chunk) {
          await store.write(s.batch).catch((err: unknown) => {
            throw new Error(`${describeCase(s.c, s.i)}\nthe store refused what normalisation accepted: ${(err as Error).message}`);
          });
        }
      }
    }
  }, 60_000);

  it(`${HTTP_CASES} cases through the HTTP receiver: never 5xx, nothing stored from a refused request`, async () => {
    const rng = new Random(SEED + 1);
    const corpus = await seeds();
    const statuses = new Map<number, number>();
    for (let i = 0; i < HTTP_CASES; i++) {
      const c = makeCase(rng, corpus);
      const before = sinkWrites;
      const r = await fetch(`${receiver.url}/v1/${c.signal}`, {
        method: 'POST',
        body: new Uint8Array(c.body),
        headers: { 'content-type': c.encoding === 'json' ? 'application/json' : 'application/x-protobuf' },
      });
      const text = Buffer.from(await r.arrayBuffer()).toString('utf8');
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      expect(r.status, `${describeCase(c, i)}\n-> ${r.status} ${text}`).toBeLessThan(500);
      if (r.status >= 400) expect(sinkWrites, describeCase(c, i)).toBe(before);
      expect(text).not.toMatch(/Error:|TransactionContext|Conversion|duckdb/i);
    }
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(statuses.get(400)).toBeGreaterThan(0);
    expect(internal).toEqual([]);
  }, 60_000);
});
