import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { Client, Metadata, type ServiceError, credentials, status } from '@grpc/grpc-js';
import { CoralError } from '../core/errors.js';
import { WireReader } from '../colony/otlp/wire.js';
import { otlpJsonToProto } from './otlp-proto.js';

export type OtlpProtocol = 'http/json' | 'http/protobuf' | 'grpc';
export type Signal = 'traces' | 'metrics' | 'logs';

/** Sends one export; resolves null when accepted whole, else why not. Throws when nothing listens. */
export interface OtlpSender {
  describe: string;
  send(signal: Signal, body: Record<string, unknown>, abort?: AbortSignal): Promise<string | null>;
  close(): void;
}

const MAX_ATTEMPTS = 5;
const RETRYABLE = new Set<number>([status.CANCELLED, status.DEADLINE_EXCEEDED, status.ABORTED, status.OUT_OF_RANGE, status.UNAVAILABLE, status.DATA_LOSS]);
/** Per attempt; a busy colony may take seconds to commit a large batch. */
const GRPC_DEADLINE_MS = 30_000;
const GRPC_SERVICES: Record<Signal, string> = {
  traces: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
  metrics: '/opentelemetry.proto.collector.metrics.v1.MetricsService/Export',
  logs: '/opentelemetry.proto.collector.logs.v1.LogsService/Export',
};

/** OTEL_EXPORTER_OTLP_HEADERS: `key=value,key2=value2`, values URL-encoded (the OpenTelemetry SDK format). */
export function parseOtlpHeaders(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const i = pair.indexOf('=');
    if (i <= 0) continue;
    out[pair.slice(0, i).trim().toLowerCase()] = decodeURIComponent(pair.slice(i + 1).trim());
  }
  return out;
}

/** The partial_success error message of an Export*ServiceResponse in protobuf, if any. */
function protoPartial(body: Buffer): string | null {
  try {
    const r = new WireReader(body);
    while (r.pos < r.end) {
      const tag = r.varint();
      if (tag >> 3 !== 1 || (tag & 7) !== 2) {
        r.skip(tag & 7);
        continue;
      }
      const [s, e] = r.lengthDelimited();
      const p = new WireReader(body, s, e);
      let rejected = 0;
      let message = '';
      while (p.pos < p.end) {
        const t = p.varint();
        if (t >> 3 === 1 && (t & 7) === 0) rejected = p.varint();
        else if (t >> 3 === 2 && (t & 7) === 2) message = p.string();
        else p.skip(t & 7);
      }
      return rejected > 0 || message ? `partially rejected: ${message || `${rejected} items`}` : null;
    }
  } catch {
    return null;
  }
  return null;
}

function unreachable(where: string, err: unknown, protocol: OtlpProtocol): CoralError {
  const e = err as Error;
  const why = e.cause instanceof Error ? e.cause.message : e.message;
  return new CoralError(`Cannot reach the OTLP receiver at ${where}: ${why}.`, `Start one with \`coral colony serve\` (OTLP/HTTP 4318, OTLP/gRPC 4317), or pass --otlp URL${protocol === 'grpc' ? '' : ' (and --protocol grpc for port 4317)'}.`);
}

function httpSender(base: string, protocol: 'http/json' | 'http/protobuf', headers: Record<string, string>): OtlpSender {
  const root = base.replace(/\/+$/, '');
  const json = protocol === 'http/json';
  return {
    describe: `${root} (OTLP/HTTP ${json ? 'JSON' : 'protobuf'})`,
    async send(signal, body, abort) {
      const url = `${root}/v1/${signal}`;
      const payload = gzipSync(json ? JSON.stringify(body) : otlpJsonToProto(signal, body));
      for (let attempt = 1; ; attempt++) {
        let res: Response;
        try {
          res = await fetch(url, {
            method: 'POST',
            body: new Uint8Array(payload),
            headers: { ...headers, 'content-type': json ? 'application/json' : 'application/x-protobuf', 'content-encoding': 'gzip' },
            signal: abort,
          });
        } catch (err) {
          if (abort?.aborted) throw err;
          // Nothing listens there: every later export would fail the same way, so stop at once.
          if (attempt >= MAX_ATTEMPTS) throw unreachable(url, err, protocol);
          await sleep(100 * attempt);
          continue;
        }
        const bytes = Buffer.from(await res.arrayBuffer());
        if (res.ok) {
          if (!json) return protoPartial(bytes);
          const partial = bytes.length > 2 ? (JSON.parse(bytes.toString('utf8')) as { partialSuccess?: { errorMessage?: string } }).partialSuccess : undefined;
          return partial?.errorMessage ? `partially rejected: ${partial.errorMessage}` : null;
        }
        if ((res.status === 429 || res.status === 503) && attempt < MAX_ATTEMPTS) {
          const after = Number(res.headers.get('retry-after'));
          await sleep(Number.isFinite(after) && after > 0 ? after * 1000 : 250 * attempt);
          continue;
        }
        return `HTTP ${res.status}: ${bytes.toString('utf8').slice(0, 200)}`;
      }
    },
    close() {},
  };
}

function grpcSender(endpoint: string, headers: Record<string, string>): OtlpSender {
  const address = endpoint.replace(/^https?:\/\//, '').replace(/\/+$/, '');
  // gzip, as the Collector's otlp exporter sends by default.
  const client = new Client(address, credentials.createInsecure(), { 'grpc.default_compression_algorithm': 2 });
  const metadata = new Metadata();
  for (const [k, v] of Object.entries(headers)) metadata.set(k, v);
  const call = (signal: Signal, body: Buffer) =>
    new Promise<{ error: ServiceError | null; response?: Buffer }>((resolve) => {
      client.makeUnaryRequest(GRPC_SERVICES[signal], (b: Buffer) => b, (b: Buffer) => b, body, metadata, { deadline: Date.now() + GRPC_DEADLINE_MS }, (error, response) => resolve({ error, response }));
    });
  return {
    describe: `${address} (OTLP/gRPC)`,
    async send(signal, body) {
      const payload = otlpJsonToProto(signal, body);
      for (let attempt = 1; ; attempt++) {
        const { error, response } = await call(signal, payload);
        if (!error) return protoPartial(response ?? Buffer.alloc(0));
        // The OTLP/gRPC specification's retryable codes; RESOURCE_EXHAUSTED only when the server says when.
        const retryable = RETRYABLE.has(error.code) || (error.code === status.RESOURCE_EXHAUSTED && error.metadata?.get('grpc-status-details-bin').length > 0);
        if (error.code === status.UNAVAILABLE && attempt >= MAX_ATTEMPTS && /connect|No connection|ECONNREFUSED/i.test(error.details)) throw unreachable(address, new Error(error.details), 'grpc');
        if (retryable && attempt < MAX_ATTEMPTS) {
          await sleep(250 * attempt);
          continue;
        }
        return `gRPC ${status[error.code]}: ${error.details}`;
      }
    },
    close: () => client.close(),
  };
}

export function otlpSender(protocol: OtlpProtocol, endpoint: string, headers: Record<string, string> = {}): OtlpSender {
  return protocol === 'grpc' ? grpcSender(endpoint, headers) : httpSender(endpoint, protocol, headers);
}
