import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeLogsJson, decodeTracesJson } from '../../../src/colony/otlp/decode-json.js';
import { decodeLogsProto, decodeTracesProto } from '../../../src/colony/otlp/decode-proto.js';
import { MAX_ANY_VALUE_DEPTH, OtlpDecodeError } from '../../../src/colony/otlp/model.js';
import { normalizeLogs } from '../../../src/colony/otlp/normalize.js';
import { type RunningReceiver, startReceiver } from '../../../src/colony/otlp/receiver.js';
import { ColonyStore } from '../../../src/colony/store/store.js';
import { T0, logsBody, sdkResource } from '../../support/otlp-json.js';
import { len, varint } from '../../support/otlp-proto.js';

/** A logs request whose one record's body is an ArrayValue nested `depth` deep. */
function deepProtoLogs(depth: number): Buffer {
  // Built inside out by lengths alone: re-wrapping a growing array 10,000 times would be quadratic.
  const leaf = len(1, [...Buffer.from('leaf')]); // AnyValue{string_value}
  const levels: number[][] = [];
  let size = leaf.length;
  for (let i = 0; i < depth; i++) {
    const values = [(1 << 3) | 2, ...varint(size)]; // ArrayValue{values: [inner]}
    size += values.length;
    const array = [(5 << 3) | 2, ...varint(size)]; // AnyValue{array_value}
    size += array.length;
    levels.push([...array, ...values]);
  }
  const any = [...levels.reverse().flat(), ...leaf];
  return Buffer.from(len(1, len(2, len(2, len(5, any)))));
}

function deepJsonLogs(depth: number): string {
  let v = '{"stringValue":"leaf"}';
  for (let i = 0; i < depth; i++) v = `{"arrayValue":{"values":[${v}]}}`;
  return `{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"timeUnixNano":"${T0}","body":${v}}]}]}]}`;
}

describe('decoder edges', () => {
  it('bounds AnyValue nesting in both decoders with an error naming the depth', () => {
    expect(decodeLogsProto(deepProtoLogs(MAX_ANY_VALUE_DEPTH))[0].scopes[0].items).toHaveLength(1);
    expect(decodeLogsJson(Buffer.from(deepJsonLogs(MAX_ANY_VALUE_DEPTH)))[0].scopes[0].items).toHaveLength(1);
    for (const depth of [MAX_ANY_VALUE_DEPTH + 1, 10_000]) {
      expect(() => decodeLogsProto(deepProtoLogs(depth))).toThrow(new OtlpDecodeError(`AnyValue nested deeper than ${MAX_ANY_VALUE_DEPTH} levels (arrays and key-value lists)`));
      expect(() => decodeLogsJson(Buffer.from(deepJsonLogs(depth)))).toThrow(/AnyValue nested deeper than 64 levels/);
    }
    // The counter restarts per request: a failed deep request leaves no residue.
    expect(decodeLogsProto(deepProtoLogs(MAX_ANY_VALUE_DEPTH))[0].scopes[0].items).toHaveLength(1);
  });

  it('refuses a known field with the wrong wire type, naming it', () => {
    expect(() => decodeTracesProto(Buffer.from([(1 << 3) | 0, 5]))).toThrow(/resource_items \(field 1\) has wire type 0, expected 2/);
    // Span.start_time_unix_nano sent as a varint.
    const span = [...len(1, Array(16).fill(1)), (7 << 3) | 0, 1];
    expect(() => decodeTracesProto(Buffer.from(len(1, len(2, len(2, span)))))).toThrow(/Span\.start_time_unix_nano \(field 7\) has wire type 0, expected 1/);
    // Unknown fields of any wire type are still skipped.
    expect(decodeTracesProto(Buffer.from([(99 << 3) | 0, 1]))).toEqual([]);
  });

  it('keeps identical log records of one request apart, and a re-send still maps onto them', () => {
    const body = logsBody(sdkResource('checkout'), 'x', [{ timeNs: T0, body: 'retrying' }, { timeNs: T0, body: 'retrying' }, { timeNs: T0, body: 'retrying' }]);
    const once = normalizeLogs(decodeLogsJson(Buffer.from(JSON.stringify(body))));
    const again = normalizeLogs(decodeLogsJson(Buffer.from(JSON.stringify(body))));
    expect(new Set(once.batch.logs.map((l) => l.logId)).size).toBe(3);
    expect(again.batch.logs.map((l) => l.logId)).toEqual(once.batch.logs.map((l) => l.logId));
  });

  it('JSON with a wrong type where an array belongs is a decode error', () => {
    expect(() => decodeTracesJson(Buffer.from('{"resourceSpans":5}'))).toThrow(OtlpDecodeError);
  });
});

describe('decoder edges over HTTP', () => {
  let store: ColonyStore;
  let receiver: RunningReceiver;
  beforeAll(async () => {
    store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    receiver = await startReceiver({ sink: store, port: 0 });
  });
  afterAll(async () => {
    await receiver.close();
    await store.close();
  });
  const post = (path: string, body: Buffer | string, type: string) =>
    fetch(`${receiver.url}${path}`, { method: 'POST', body: typeof body === 'string' ? body : new Uint8Array(body), headers: { 'content-type': type } });

  it('answers 400 naming the depth for AnyValue nested 10,000 deep, in protobuf and JSON', async () => {
    for (const [body, type] of [[deepProtoLogs(10_000), 'application/x-protobuf'], [deepJsonLogs(10_000), 'application/json']] as const) {
      const r = await post('/v1/logs', body, type);
      expect(r.status).toBe(400);
      expect(Buffer.from(await r.arrayBuffer()).toString()).toMatch(/nested deeper than 64 levels/);
    }
    expect((await store.counts()).logs).toBe(0);
  });

  it('answers 400 for resource_spans with the wrong wire type', async () => {
    const r = await post('/v1/traces', Buffer.from([(1 << 3) | 0, 5]), 'application/x-protobuf');
    expect(r.status).toBe(400);
  });

  it('stores three identical log lines as three rows', async () => {
    const body = JSON.stringify(logsBody(sdkResource('checkout'), 'x', [{ timeNs: T0, body: 'dup' }, { timeNs: T0, body: 'dup' }, { timeNs: T0, body: 'dup' }]));
    expect((await post('/v1/logs', body, 'application/json')).status).toBe(200);
    expect((await post('/v1/logs', body, 'application/json')).status).toBe(200);
    expect((await store.counts()).logs).toBe(3);
  });
});

describe('strings DuckDB JSON would refuse', () => {
  it('replaces lone surrogates in JSON columns with U+FFFD, leaving pairs and escaped backslashes alone', () => {
    const body = `{"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"a\\ud800b"}}]},"scopeLogs":[{"logRecords":[{"timeUnixNano":"${T0}","body":{"stringValue":"x"},"attributes":[{"key":"k","value":{"stringValue":"\\udc00 \\ud83d\\ude00 \\\\ud800"}}]}]}]}]}`;
    const n = normalizeLogs(decodeLogsJson(Buffer.from(body)));
    expect(n.batch.logs[0].resourceAttributes).toBe('{"service.name":"a\ufffdb"}');
    expect(JSON.parse(n.batch.logs[0].attributes)).toEqual({ k: '\ufffd \u{1F600} \\ud800' });
  });
});
