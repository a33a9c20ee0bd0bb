import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { promisify } from 'node:util';
import { gunzip, inflate } from 'node:zlib';
import { CoralError } from '../../core/errors.js';
import { type AccessPolicy, checkAccess } from './auth.js';
import { DEFAULT_HTTP_LIMITS, type HttpLimits, applyHttpLimits, httpServerOptions } from './http-limits.js';
import { type IngestSink, IngestError, ingestExport } from './ingest.js';
import { DEFAULT_DECODE_WORKERS, DecodePool } from './decode-pool.js';
import { DEFAULT_MAX_EXPORT_ITEMS } from './export-items.js';
import { BUDGET_RETRY_AFTER_S, BudgetHold, InflightBudget, overBudgetMessage } from './limits.js';
import type { Signal } from './model.js';
import { rejectionMessage } from './normalize.js';
import {
  type Encoding,
  RPC_INTERNAL,
  RPC_INVALID_ARGUMENT,
  RPC_NOT_FOUND,
  RPC_PERMISSION_DENIED,
  RPC_RESOURCE_EXHAUSTED,
  RPC_UNAUTHENTICATED,
  RPC_UNAVAILABLE,
  RPC_UNIMPLEMENTED,
  exportResponse,
  statusBody,
} from './responses.js';

export const DEFAULT_OTLP_HOST = '127.0.0.1';
export const DEFAULT_OTLP_PORT = 4318;
/** Measured after decompression, as the OpenTelemetry Collector does. */
export const DEFAULT_MAX_BODY_BYTES = 20 * 1024 * 1024;

export type { IngestSink };

export interface ReceiverOptions {
  sink: IngestSink;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  maxBodyBytes?: number;
  /** Spans (with events and links), log records and data points one export may hold (default DEFAULT_MAX_EXPORT_ITEMS); beyond, 413. */
  maxExportItems?: number;
  /** Called after each export with what it stored and rejected. */
  onExport?: (e: ExportReport) => void;
  /** Host and bearer-token checks for the OTLP paths (the /mcp route applies its own). */
  access?: AccessPolicy;
  /** Bytes of exports in flight across requests, bodies and decoded batches (default 64 MiB); share one with other receivers. */
  budget?: InflightBudget;
  /** Called with an unexpected error (the sender only hears "internal error"); default: stderr. */
  onError?: (err: unknown) => void;
  /** Other endpoints served on the same port, by exact path (the colony's /mcp). */
  routes?: Record<string, (req: IncomingMessage, res: ServerResponse) => Promise<void>>;
  /**
   * Decode workers for a sink that takes columnar batches (default DEFAULT_DECODE_WORKERS; 0
   * decodes on the main thread). Started with the receiver and ended when it closes.
   */
  decodeWorkers?: number;
  /** Timeouts and the connection cap (DEFAULT_HTTP_LIMITS); tests make them small. */
  limits?: Partial<HttpLimits>;
}

export interface ExportReport {
  signal: Signal;
  encoding: Encoding;
  accepted: number;
  rejected: number;
}

export interface RunningReceiver {
  url: string;
  port: number;
  /** Its decode workers, which an OTLP/gRPC receiver beside it shares; null when it decodes on the main thread. */
  decoders: DecodePool | null;
  close(): Promise<void>;
}

const PATHS: Record<string, Signal> = { '/v1/traces': 'traces', '/v1/metrics': 'metrics', '/v1/logs': 'logs' };

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly rpcCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function mediaType(req: IncomingMessage): Encoding | null {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json') return 'json';
  if (type === 'application/x-protobuf' || type === 'application/protobuf') return 'protobuf';
  return null;
}

/**
 * 429 + Retry-After: the colony holds as many bodies as it may; the exporter retries the same data.
 * The connection stays open and the unread body is discarded as it arrives (Node dumps it once the
 * answer is sent): closing it under a sender still writing its body makes the kernel reset it, and
 * the sender sees a broken connection instead of the 429.
 */
function overBudget(budget: InflightBudget): HttpError {
  return retryLater(overBudgetMessage(budget));
}

function retryLater(message: string): HttpError {
  return new HttpError(429, RPC_RESOURCE_EXHAUSTED, message, { 'retry-after': String(BUDGET_RETRY_AFTER_S) });
}

function readBody(req: IncomingMessage, limit: number, hold: BudgetHold, budget: InflightBudget): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new HttpError(413, RPC_RESOURCE_EXHAUSTED, `request body of ${declared} bytes exceeds the ${limit}-byte limit`, { connection: 'close' }));
      return;
    }
    // The declared size is reserved before a byte is read: checked only, N concurrent requests
    // would all pass while nothing was held yet, then buffer N bodies' worth before any refusal.
    const reserved = Number.isFinite(declared) && declared > 0;
    if (reserved && !hold.tryAdd(declared)) {
      reject(overBudget(budget));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (err: HttpError) => {
      req.removeAllListeners('data');
      req.resume();
      reject(err);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stop(new HttpError(413, RPC_RESOURCE_EXHAUSTED, `request body exceeds the ${limit}-byte limit`, { connection: 'close' }));
        return;
      }
      // Node's parser never delivers more than a Content-Length: only a chunked body counts as it comes.
      if (!reserved && !hold.tryAdd(chunk.length)) {
        stop(overBudget(budget));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks, size)));
    req.on('error', () => reject(new ClientGone()));
  });
}

/** The sender went away, or its request timed out (408 sent by Node): nothing to answer, nothing to log. */
class ClientGone extends Error {}

/** The body decompressed; the budget then holds the decompressed size instead of the raw one. */
async function decompress(req: IncomingMessage, body: Buffer, limit: number, hold: BudgetHold, budget: InflightBudget): Promise<Buffer> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity' || encoding === '') return body;
  const inflater = encoding === 'gzip' ? gunzipAsync : encoding === 'deflate' ? inflateAsync : null;
  if (!inflater) {
    throw new HttpError(415, RPC_UNIMPLEMENTED, `unsupported Content-Encoding "${encoding}"; accepted: gzip, deflate, identity`);
  }
  // Inflated no further than the limit or what the budget has left: a bomb stops before it costs memory.
  const room = Math.min(limit, hold.room());
  let out: Buffer;
  try {
    out = await inflater(body, { maxOutputLength: room });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
      if (room < limit) throw overBudget(budget);
      throw new HttpError(413, RPC_RESOURCE_EXHAUSTED, `decompressed body exceeds the ${limit}-byte limit`);
    }
    throw new HttpError(400, RPC_INVALID_ARGUMENT, `body is not valid ${encoding}: ${(err as Error).message}`);
  }
  hold.releaseAll();
  if (!hold.tryAdd(out.length)) throw overBudget(budget);
  return out;
}

/** Handles one OTLP/HTTP export request; exported for tests that drive it without a socket. */
export async function handleExport(
  req: IncomingMessage,
  res: ServerResponse,
  opts: Required<Pick<ReceiverOptions, 'sink' | 'maxBodyBytes' | 'budget'>> & Pick<ReceiverOptions, 'maxExportItems' | 'onExport' | 'onError' | 'access'> & { decoders?: DecodePool | null },
): Promise<void> {
  const hold = new BudgetHold(opts.budget);
  const path = (req.url ?? '').split('?')[0];
  const signal = PATHS[path];
  const encoding = mediaType(req) ?? 'json';
  const send = (status: number, body: Buffer, headers: Record<string, string> = {}) => {
    res.writeHead(status, {
      'content-type': encoding === 'json' ? 'application/json' : 'application/x-protobuf',
      'content-length': String(body.length),
      ...headers,
    });
    res.end(body);
  };
  try {
    const denied = opts.access ? checkAccess(opts.access, req.headers.host, req.headers.authorization) : null;
    if (denied) throw new HttpError(denied.status, denied.status === 401 ? RPC_UNAUTHENTICATED : RPC_PERMISSION_DENIED, denied.message, { ...denied.headers, connection: 'close' });
    if (!signal) throw new HttpError(404, RPC_NOT_FOUND, `no OTLP endpoint at ${path}; use /v1/traces, /v1/metrics or /v1/logs`);
    if (req.method !== 'POST') throw new HttpError(405, RPC_UNIMPLEMENTED, `${req.method} is not supported; OTLP exports are POST`, { allow: 'POST' });
    if (mediaType(req) === null) {
      throw new HttpError(415, RPC_UNIMPLEMENTED, `unsupported Content-Type "${req.headers['content-type'] ?? ''}"; accepted: application/x-protobuf, application/json`);
    }
    const raw = await readBody(req, opts.maxBodyBytes, hold, opts.budget);
    const body = await decompress(req, raw, opts.maxBodyBytes, hold, opts.budget);
    let n;
    try {
      n = await ingestExport(opts.sink, signal, encoding, body, opts.decoders, { maxItems: opts.maxExportItems ?? DEFAULT_MAX_EXPORT_ITEMS, hold });
    } catch (err) {
      if (!(err instanceof IngestError)) throw err;
      if (err.kind === 'invalid') throw new HttpError(400, RPC_INVALID_ARGUMENT, err.message);
      if (err.kind === 'too-large') throw new HttpError(413, RPC_RESOURCE_EXHAUSTED, err.message);
      if (err.kind === 'over-budget') throw retryLater(err.message);
      // 503 means only "retry later" (the exporter keeps the data and sends it again); the
      // database's own words stay in the colony's log.
      if (err.cause !== undefined) (opts.onError ?? logInternalError)(err.cause);
      throw new HttpError(503, RPC_UNAVAILABLE, err.message, { 'retry-after': '1' });
    }
    opts.onExport?.({ signal, encoding, accepted: n.accepted, rejected: n.rejected });
    send(200, exportResponse(signal, encoding, n.rejected, rejectionMessage(n)));
  } catch (err) {
    if (err instanceof HttpError) {
      send(err.status, statusBody(encoding, err.rpcCode, err.message), err.headers);
      return;
    }
    if (err instanceof ClientGone) return;
    // The database's own words stay in the colony's log: they are no business of a sender.
    (opts.onError ?? logInternalError)(err);
    send(500, statusBody(encoding, RPC_INTERNAL, INTERNAL_ERROR));
  } finally {
    // Held until the batch is stored: the body, then the batch it decoded into.
    hold.releaseAll();
  }
}

const INTERNAL_ERROR = 'internal error in the colony (details are in its log)';

function logInternalError(err: unknown): void {
  process.stderr.write(`coral colony: internal error handling an export: ${(err as Error)?.stack ?? String(err)}\n`);
}

export function startReceiver(opts: ReceiverOptions): Promise<RunningReceiver> {
  const host = opts.host ?? DEFAULT_OTLP_HOST;
  const port = opts.port ?? DEFAULT_OTLP_PORT;
  const workers = opts.decodeWorkers ?? DEFAULT_DECODE_WORKERS;
  const decoders = opts.sink.writeColumnar && workers > 0 ? new DecodePool(workers, opts.onError) : null;
  const handlerOpts = { sink: opts.sink, maxBodyBytes: opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, maxExportItems: opts.maxExportItems, budget: opts.budget ?? new InflightBudget(), onExport: opts.onExport, onError: opts.onError, access: opts.access, decoders };
  const limits = { ...DEFAULT_HTTP_LIMITS, ...opts.limits };
  const server: Server = createServer(httpServerOptions(limits), (req, res) => {
    const route = opts.routes?.[(req.url ?? '').split('?')[0]];
    const handled = route ? route(req, res) : handleExport(req, res, handlerOpts);
    handled.catch((err: unknown) => {
      (opts.onError ?? logInternalError)(err);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(INTERNAL_ERROR);
    });
  });
  applyHttpLimits(server, limits);
  return new Promise<RunningReceiver>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') {
        reject(new CoralError(`Port ${port} on ${host} is already in use, so the OTLP receiver cannot listen there.`, 'Stop the other OTLP receiver (a Collector or another colony), or pass --otlp-port N (0 picks a free port).'));
      } else if (err.code === 'EACCES') {
        reject(new CoralError(`Not allowed to listen on ${host}:${port}.`, 'Use a port above 1024 with --otlp-port N.'));
      } else reject(err);
    });
    server.listen(port, host, () => {
      const addr = server.address();
      const actual = typeof addr === 'object' && addr ? addr.port : port;
      resolve({
        port: actual,
        url: `http://${host.includes(':') ? `[${host}]` : host}:${actual}`,
        decoders,
        close: async () => {
          await new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          });
          await decoders?.close();
        },
      });
    });
  }).catch(async (err: unknown) => {
    await decoders?.close();
    throw err;
  });
}
