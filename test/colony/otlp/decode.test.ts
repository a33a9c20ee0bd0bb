import { describe, expect, it } from 'vitest';
import { decodeMetricsProto, decodeTracesProto } from '../../../src/colony/otlp/decode-proto.js';
import { decodeTracesJson, parseHexId } from '../../../src/colony/otlp/decode-json.js';
import { OtlpDecodeError } from '../../../src/colony/otlp/model.js';
import { normalizeLogs, eventKindOf, levelOf } from '../../../src/colony/otlp/normalize.js';
import { hotAttributes } from '../../../src/colony/otlp/semconv.js';
import { double as f64, fixed64 as u64, len, varint } from '../../support/otlp-proto.js';

describe('protobuf decoding', () => {
  it('rejects a nested message whose length overruns its parent', () => {
    // ResourceSpans(len 3) holding a ScopeSpans that claims 10 bytes.
    const buf = Buffer.from([...len(1, [(2 << 3) | 2, 10, 0])]);
    expect(() => decodeTracesProto(buf)).toThrow(OtlpDecodeError);
  });

  it('skips unknown fields of every wire type', () => {
    const unknown = [...varint((99 << 3) | 0), 5, ...varint((98 << 3) | 5), 1, 2, 3, 4, ...u64(15, 1), ...len(14, [1, 2])];
    const buf = Buffer.from([...unknown, ...len(1, [...unknown, ...len(2, [...unknown])])]);
    const req = decodeTracesProto(buf);
    expect(req).toHaveLength(1);
    expect(req[0].scopes[0].items).toEqual([]);
  });

  it('reads histogram buckets packed and unpacked alike', () => {
    const packedCounts = Buffer.alloc(16);
    packedCounts.writeBigUInt64LE(3n, 0);
    packedCounts.writeBigUInt64LE(4n, 8);
    const point = [...u64(3, 1_000), ...len(6, [...packedCounts]), ...f64(7, 0.5)];
    const unpacked = [...u64(3, 2_000), ...u64(6, 1), ...u64(6, 2), ...f64(7, 0.25)];
    const metric = (p: number[]) => len(2, [...len(1, [...Buffer.from('m')]), ...len(9, [...len(1, p), 16, 2])]);
    const buf = Buffer.from(len(1, len(2, [...metric(point), ...metric(unpacked)])));
    const [m1, m2] = decodeMetricsProto(buf)[0].scopes[0].items;
    expect(m1.data).toMatchObject({ type: 'histogram', temporality: 2, points: [{ bucketCounts: [3, 4], bounds: [0.5] }] });
    expect(m2.data).toMatchObject({ points: [{ bucketCounts: [1, 2], bounds: [0.25] }] });
  });
});

describe('JSON decoding', () => {
  it('parses hex ids by hand: wrong length, non-hex, base64 and all-zero ids are malformed', () => {
    expect(parseHexId('5B8EFFF798038103D269B633813FC60C', 16)).toBe('5b8efff798038103d269b633813fc60c');
    expect(parseHexId('', 8)).toBe('');
    expect(parseHexId(undefined, 8)).toBe('');
    expect(parseHexId('0000000000000001', 8)).toBe('0000000000000001');
    expect(parseHexId('00aB0000000000fF', 8)).toBe('00ab0000000000ff');
    for (const bad of ['abc', 'W4/3+JgDgQPSabYzgT/GDA==', '0000000000000000', 'zzzzzzzzzzzzzzzz', '000000000000000g', 'G000000000000000', '00000000000000:0', 12]) {
      expect(parseHexId(bad, 8)).toBeNull();
    }
  });

  it('accepts 64-bit integers as strings or numbers and ignores unknown fields', () => {
    const body = {
      resourceSpans: [{ futureField: 1, scopeSpans: [{ spans: [
        { traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), name: 'a', startTimeUnixNano: '1764671400123456789', endTimeUnixNano: 1764671400223456789, extra: {} },
      ] }] }],
    };
    const [span] = decodeTracesJson(Buffer.from(JSON.stringify(body)))[0].scopes[0].items;
    expect(span.startNs).toBe(1_764_671_400_123_456_789n);
    expect(span.endNs).toBeGreaterThan(span.startNs);
  });
});

describe('semantic-convention normalisation', () => {
  it('promotes old and new attribute names to the same columns', () => {
    const oldNames = hotAttributes({ 'http.method': 'GET', 'http.status_code': '503', 'db.system': 'postgresql', 'db.operation': 'SELECT', 'db.sql.table': 'orders', 'db.statement': 'SELECT 1', 'peer.service': 'pg' });
    const newNames = hotAttributes({ 'http.request.method': 'GET', 'http.response.status_code': 503, 'db.system.name': 'postgresql', 'db.operation.name': 'SELECT', 'db.collection.name': 'orders', 'db.query.text': 'SELECT 1', 'service.peer.name': 'pg' });
    expect(oldNames).toEqual(newNames);
  });

  it('splits Beyla rpc paths and reads gRPC status names', () => {
    expect(hotAttributes({ 'rpc.method': '/oteldemo.CartService/GetCart', 'rpc.response.status_code': 'UNAVAILABLE' })).toMatchObject({
      rpcService: 'oteldemo.CartService',
      rpcMethod: 'GetCart',
      rpcStatusCode: 14,
    });
  });
});

describe('logs', () => {
  it('maps severity numbers and text to levels', () => {
    expect([1, 5, 9, 13, 17, 21, 24].map((n) => levelOf(n, ''))).toEqual(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'fatal']);
    expect(levelOf(0, 'WARNING')).toBe('warn');
    expect(levelOf(0, '')).toBe('info');
  });

  it('recognises operational events by name, and keeps them as logs too', () => {
    expect(eventKindOf('deployment', {})).toBe('deploy');
    expect(eventKindOf('', { 'event.name': 'coral.config_change' })).toBe('config_change');
    expect(eventKindOf('user.login', {})).toBeNull();
    const n = normalizeLogs([{ resource: { attributes: { 'service.name': 'payment' } }, scopes: [{ scope: { name: '', version: '', attributes: {} }, items: [
      { timeNs: 5n, observedNs: 0n, severityNumber: 9, severityText: '', body: 'v2 out', attributes: {}, traceId: '', spanId: '', eventName: 'deploy' },
      { timeNs: 0n, observedNs: 0n, severityNumber: 9, severityText: '', body: 'no time', attributes: {}, traceId: '', spanId: '', eventName: '' },
    ] }] }]);
    expect(n.batch.logs).toHaveLength(1);
    expect(n.batch.events).toEqual([expect.objectContaining({ kind: 'deploy', title: 'v2 out', serviceName: 'payment' })]);
    expect(n.rejected).toBe(1);
  });
});
