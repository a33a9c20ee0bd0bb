import { Metadata, Server, ServerCredentials, type ServerUnaryCall, type ServiceDefinition, type sendUnaryData, setLogVerbosity, logVerbosity, status } from '@grpc/grpc-js';
import { CoralError } from '../../core/errors.js';
import { carriesToken } from './auth.js';
import type { Signal } from './model.js';
import { rejectionMessage } from './normalize.js';
import { type IngestSink, IngestError, ingestExport } from './ingest.js';
import type { DecodePool } from './decode-pool.js';
import { DEFAULT_MAX_EXPORT_ITEMS } from './export-items.js';
import { BUDGET_RETRY_AFTER_S, BudgetHold, InflightBudget, overBudgetMessage } from './limits.js';
import { exportResponse } from './responses.js';
import { WireWriter } from './wire.js';

export const DEFAULT_OTLP_GRPC_PORT = 4317;

export interface GrpcReceiverOptions {
  sink: IngestSink;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Largest accepted message after decompression; larger ones get RESOURCE_EXHAUSTED (not retried). */
  maxBodyBytes: number;
  /** Items one export may hold (default DEFAULT_MAX_EXPORT_ITEMS); beyond, RESOURCE_EXHAUSTED without RetryInfo. */
  maxExportItems?: number;
  /**
   * Bytes of exports in flight, messages and decoded batches: the OTLP/HTTP receiver's, so that the
   * two transports together stay within it (default: a budget of its own, 64 MiB).
   */
  budget?: InflightBudget;
  /** When set, every export must carry `authorization: Bearer <token>` metadata. */
  token?: string;
  onExport?: (e: { signal: Signal; encoding: 'protobuf'; accepted: number; rejected: number }) => void;
  /** Decode workers to share (the OTLP/HTTP receiver's); without, exports decode on the main thread. */
  decoders?: DecodePool | null;
}

export interface RunningGrpcReceiver {
  /** host:port, as an exporter's endpoint takes it. */
  address: string;
  port: number;
  close(): Promise<void>;
}

/** The three OTLP collector services; each has one unary method, Export. */
const SERVICES: Record<Signal, string> = {
  traces: 'opentelemetry.proto.collector.trace.v1.TraceService',
  metrics: 'opentelemetry.proto.collector.metrics.v1.MetricsService',
  logs: 'opentelemetry.proto.collector.logs.v1.LogsService',
};

/** How long a client should wait before retrying into a saturated store or a full budget. */
const RETRY_DELAY_SECONDS = BUDGET_RETRY_AFTER_S;

const raw = (b: Buffer) => b;

/** Messages stay bytes: the same protobuf decoder as OTLP/HTTP reads them, no generated code. */
function definition(signal: Signal): ServiceDefinition {
  return {
    Export: {
      path: `/${SERVICES[signal]}/Export`,
      requestStream: false,
      responseStream: false,
      requestSerialize: raw,
      requestDeserialize: raw,
      responseSerialize: raw,
      responseDeserialize: raw,
    },
  };
}

/**
 * google.rpc.Status with a google.rpc.RetryInfo detail, for the `grpc-status-details-bin` trailer:
 * OTLP exporters retry RESOURCE_EXHAUSTED only when the server says when.
 */
export function retryStatusDetails(code: number, message: string, delaySeconds: number): Buffer {
  const retryInfo = new WireWriter().message(1, new WireWriter().uint(1, delaySeconds));
  const any = new WireWriter().string(1, 'type.googleapis.com/google.rpc.RetryInfo').message(2, retryInfo);
  return new WireWriter().uint(1, code).string(2, message).message(3, any).finish();
}

/** The gRPC status an ingest failure maps to (the OTLP/gRPC specification's codes). */
export function grpcFailure(err: unknown): { code: status; details: string; metadata?: Metadata } {
  if (err instanceof IngestError) {
    if (err.kind === 'invalid') return { code: status.INVALID_ARGUMENT, details: err.message };
    // Without RetryInfo: exporters drop it, as they should (the same export would be refused again).
    if (err.kind === 'too-large') return { code: status.RESOURCE_EXHAUSTED, details: err.message };
    if (err.kind === 'busy' || err.kind === 'over-budget') {
      const metadata = new Metadata();
      metadata.set('grpc-status-details-bin', retryStatusDetails(status.RESOURCE_EXHAUSTED, err.message, RETRY_DELAY_SECONDS));
      return { code: status.RESOURCE_EXHAUSTED, details: err.message, metadata };
    }
    return { code: status.UNAVAILABLE, details: err.message };
  }
  return { code: status.INTERNAL, details: `internal error: ${(err as Error).message}` };
}

/** The HTTP receivers' reading of the header (auth.ts), so that both transports admit the same values. */
function authorized(metadata: Metadata, token: string): boolean {
  const values = metadata.get('authorization');
  return values.every((v) => typeof v === 'string') && carriesToken(values as string[], token);
}

/** OTLP/gRPC: the collector's three Export services in front of the same ingest path as OTLP/HTTP. */
export function startGrpcReceiver(opts: GrpcReceiverOptions): Promise<RunningGrpcReceiver> {
  // grpc-js would also print its own line ("E No address added...") for failures reported below.
  setLogVerbosity(logVerbosity.NONE);
  const budget = opts.budget ?? new InflightBudget();
  const maxItems = opts.maxExportItems ?? DEFAULT_MAX_EXPORT_ITEMS;
  const server = new Server({
    // Checked by grpc-js after gzip/deflate decompression too, answering RESOURCE_EXHAUSTED.
    'grpc.max_receive_message_length': opts.maxBodyBytes,
    'grpc.max_send_message_length': 4 * 1024 * 1024,
  });
  for (const signal of Object.keys(SERVICES) as Signal[]) {
    server.addService(definition(signal), {
      Export: (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
        if (opts.token !== undefined && !authorized(call.metadata, opts.token)) {
          callback({ code: status.UNAUTHENTICATED, details: 'missing or wrong bearer token: send authorization: Bearer <token> metadata (the --token the colony was started with)' });
          return;
        }
        // grpc-js has read the whole message by now: it is held from here, as an HTTP body is once read.
        const hold = new BudgetHold(budget);
        if (!hold.tryAdd(call.request.length)) {
          callback(grpcFailure(new IngestError('over-budget', overBudgetMessage(budget))));
          return;
        }
        ingestExport(opts.sink, signal, 'protobuf', call.request, opts.decoders, { maxItems, hold }).then(
          (n) => {
            hold.releaseAll();
            opts.onExport?.({ signal, encoding: 'protobuf', accepted: n.accepted, rejected: n.rejected });
            callback(null, exportResponse(signal, 'protobuf', n.rejected, rejectionMessage(n)));
          },
          (err: unknown) => {
            hold.releaseAll();
            callback(grpcFailure(err));
          },
        );
      },
    });
  }
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return new Promise((resolve, reject) => {
    server.bindAsync(`${host}:${opts.port}`, ServerCredentials.createInsecure(), (err, port) => {
      if (err) {
        server.forceShutdown();
        reject(new CoralError(
          `Cannot listen for OTLP/gRPC on ${host}:${opts.port}: ${err.message}.`,
          'Another OTLP receiver (a Collector, another colony) may hold the port: pass --otlp-grpc-port N (0 picks a free port), or --no-otlp-grpc.',
        ));
        return;
      }
      resolve({
        address: `${host}:${port}`,
        port,
        close: () =>
          new Promise<void>((done) => {
            const force = setTimeout(() => server.forceShutdown(), 2000);
            server.tryShutdown(() => {
              clearTimeout(force);
              done();
            });
          }),
      });
    });
  });
}
