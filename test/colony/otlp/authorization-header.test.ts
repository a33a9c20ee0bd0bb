/**
 * One reading of the Authorization header for OTLP/HTTP (and /mcp, which shares checkAccess) and
 * OTLP/gRPC: the same values are admitted and refused over both transports.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Metadata, credentials, status } from '@grpc/grpc-js';
import { bearerToken, carriesToken, isSendableToken } from '../../../src/colony/otlp/auth.js';
import { type RunningGrpcReceiver, startGrpcReceiver } from '../../../src/colony/otlp/grpc.js';
import type { IngestSink } from '../../../src/colony/otlp/ingest.js';
import { type RunningReceiver, startReceiver } from '../../../src/colony/otlp/receiver.js';
import { protobufTraces, sdkSpans } from '../../support/otel-sdk.js';

const TOKEN = 's3cret.Tok_en-9';
const TRACES = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';
const sink: IngestSink = { write: () => Promise.resolve() };
let http: RunningReceiver;
let grpc: RunningGrpcReceiver;
let body: Buffer;

beforeAll(async () => {
  http = await startReceiver({ sink, port: 0, access: { allowedHosts: [], token: TOKEN }, decodeWorkers: 0 });
  grpc = await startGrpcReceiver({ sink, host: '127.0.0.1', port: 0, maxBodyBytes: 1024 * 1024, token: TOKEN });
  body = protobufTraces(await sdkSpans(1));
});
afterAll(async () => {
  await http.close();
  await grpc.close();
});

function overHttp(authorization: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${http.url}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/x-protobuf', authorization } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function overGrpc(authorization: string): Promise<number> {
  const client = new Client(grpc.address, credentials.createInsecure());
  const metadata = new Metadata();
  metadata.set('authorization', authorization);
  return new Promise((resolve) => {
    client.makeUnaryRequest(TRACES, (b: Buffer) => b, (b: Buffer) => b, body, metadata, (error) => {
      client.close();
      resolve(error ? error.code : status.OK);
    });
  });
}

// [value, admitted]. Blanks around a value are not part of it: HTTP/1.1 drops them before coral sees
// the header (RFC 9110 5.5), and HTTP/2 drops such a field as malformed (RFC 9113 8.2.1), so those
// two are sent over HTTP only; the parser itself trims them for both (first test).
const CASES: [string, boolean][] = [
  [`Bearer ${TOKEN}`, true],
  [`bearer ${TOKEN}`, true],
  [`BEARER ${TOKEN}`, true],
  [`bEaReR ${TOKEN}`, true],
  [`Bearer ${TOKEN} `, true],
  [` Bearer ${TOKEN}`, true],
  [`Bearer  ${TOKEN}`, false],
  [`Bearer ${TOKEN} x`, false],
  [`Bearer ${TOKEN}x`, false],
  [`Bearer ${TOKEN.slice(1)}`, false],
  [`Bearer ${TOKEN.toUpperCase()}`, false],
  [`Bearer`, false],
  [`Bearer `, false],
  [`Basic ${TOKEN}`, false],
  [`Bearer"${TOKEN}"`, false],
  [TOKEN, false],
];

describe('the Authorization header', () => {
  it('parses as RFC 7235 says: scheme in any case, one space, a visible-ASCII token', () => {
    expect(bearerToken('Bearer a.b/c+d=')).toBe('a.b/c+d=');
    expect(bearerToken(' \tbearer abc \t')).toBe('abc');
    for (const bad of ['Bearer\tabc', 'Bearer a b', 'Bearer \u00e9', 'Bearer abc\u0000', 'Bearerabc', 'x Bearer abc', '']) expect(bearerToken(bad), JSON.stringify(bad)).toBeNull();
    expect(carriesToken([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`], TOKEN)).toBe(false);
    expect(carriesToken(undefined, TOKEN)).toBe(false);
    // colony serve refuses a --token no client could send.
    expect(isSendableToken(TOKEN)).toBe(true);
    for (const bad of ['a b', 'tab\t', 'caf\u00e9', '']) expect(isSendableToken(bad), bad).toBe(false);
  });

  it('OTLP/HTTP and OTLP/gRPC admit and refuse the same values', async () => {
    const verdicts: string[] = [];
    for (const [value, admitted] of CASES) {
      const h = await overHttp(value);
      expect(h, `http ${value}`).toBe(admitted ? 200 : 401);
      if (value !== value.trim()) continue;
      const g = await overGrpc(value);
      verdicts.push(`${JSON.stringify(value)} http ${h} grpc ${g}`);
      expect(g, `grpc ${value}`).toBe(admitted ? status.OK : status.UNAUTHENTICATED);
    }
    expect(verdicts).toHaveLength(CASES.filter(([v]) => v === v.trim()).length);
  });
});
