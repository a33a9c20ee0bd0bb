import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { defaultColonyDbPath } from '../core/paths.js';
import { parseIntOption } from '../core/args.js';
import { CoralError } from '../core/errors.js';
import { formatCount } from '../core/format.js';
import { Gate } from '../core/gate.js';
import { InflightBudget } from '../colony/otlp/limits.js';
import { MAX_EXPORT_ITEMS_LIMIT } from '../colony/otlp/export-items.js';
import { SERVE_CHECKPOINT_THRESHOLD_MB } from '../colony/store/db.js';
import type { IngestTally } from '../colony/store/colony.js';
import { type ExportReport, startReceiver } from '../colony/otlp/receiver.js';
import { type RunningGrpcReceiver, startGrpcReceiver } from '../colony/otlp/grpc.js';
import { isSendableToken } from '../colony/otlp/auth.js';
import { type McpHttpHandler, createMcpHttpHandler, isLoopback, loopbackHosts } from '../colony/mcp-http.js';
import { createColonyServer } from '../colony/server.js';
import { createToolContext } from '../colony/tools/types.js';
import { newRuntimeNonce, writeRuntime } from '../colony/runtime.js';
import { RUNTIME_ROUTE, findRunningColony, runtimeRoute } from '../colony/runtime-probe.js';
import { configuredClickHouseUrl } from '../agent/clickhouse.js';
import { resolveDisabledTools } from '../agent/config.js';
import { listScenarios } from '../demo/files.js';
import { parseRetain, startServeRetention } from './colony-retain.js';
import { type StoreOptions, openColonyFromOptions } from './colony-open.js';

interface ServeOptions extends StoreOptions {
  otlpHost: string;
  otlpPort: string;
  otlpGrpcPort: string;
  /** false with --no-otlp-grpc. */
  otlpGrpc: boolean;
  maxBodyMb: string;
  maxExportItems: string;
  maxInflightMb: string;
  maxWalMb?: string;
  retain?: string;
  decodeWorkers?: string;
  token?: string;
  otlpAuth: string;
  mcp: boolean;
  maxMcpSessions: string;
  listDeprecatedTools?: boolean;
}

const REPORT_EVERY_MS = 10_000;
/**
 * MCP tool runs at once, and waiting beyond them: reads share two DuckDB connections (db.ts) and the
 * JS thread with ingest, so more at once only slows every one of them (issue 31).
 */
const TOOL_RUNS = 2;
const TOOL_RUNS_WAITING = 64;

/** Said at startup, so nobody believes OTLP is guarded when it is not. */
function otlpAuthWords(token: string | undefined, mode: string, loopback: boolean): string {
  const hosts = loopback ? '; only loopback Host headers accepted' : '';
  if (!token) return `none (no --token)${hosts}${loopback ? '' : '; anyone who can reach this address can send telemetry'}`;
  if (mode === 'none') return `none (--otlp-auth none; the token guards /mcp only)${hosts}`;
  return `bearer token required (the same --token as /mcp; exporters set OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer <token>")${hosts}`;
}

/**
 * `coral colony serve`: the OTLP/HTTP and OTLP/gRPC receivers in front of the colony store, and the
 * colony's MCP tools over Streamable HTTP at /mcp on the HTTP port, until Ctrl-C. Where it listens is
 * recorded next to the database, so that every other command uses it instead of the file.
 */
export async function colonyServe(opts: ServeOptions): Promise<void> {
  const port = parseIntOption('--otlp-port', opts.otlpPort, 0, 65535);
  const grpcPort = opts.otlpGrpc ? parseIntOption('--otlp-grpc-port', opts.otlpGrpcPort, 0, 65535) : null;
  const maxBodyBytes = parseIntOption('--max-body-mb', opts.maxBodyMb, 1, 1024) * 1024 * 1024;
  const maxExportItems = parseIntOption('--max-export-items', opts.maxExportItems, 1, MAX_EXPORT_ITEMS_LIMIT);
  const budget = new InflightBudget(parseIntOption('--max-inflight-mb', opts.maxInflightMb, 1, 65536) * 1024 * 1024);
  const walMb = opts.maxWalMb === undefined ? SERVE_CHECKPOINT_THRESHOLD_MB : parseIntOption('--max-wal-mb', opts.maxWalMb, 1, 65536);
  const retainNs = parseRetain(opts.retain);
  const maxSessions = parseIntOption('--max-mcp-sessions', opts.maxMcpSessions, 1, 4096);
  const decodeWorkers = opts.decodeWorkers === undefined ? undefined : parseIntOption('--decode-workers', opts.decodeWorkers, 0, 16);
  const token = opts.token ?? process.env.CORAL_COLONY_TOKEN;
  if (opts.otlpAuth !== 'token' && opts.otlpAuth !== 'none') throw new CoralError(`--otlp-auth ${opts.otlpAuth} is not a mode.`, 'Accepted: token (OTLP requires the --token too, the default) or none (OTLP open, /mcp still needs the token).');
  if (token && !isSendableToken(token)) {
    throw new CoralError('The colony token has characters no client can send in an Authorization header (spaces, controls or non-ASCII).', 'Use letters, digits and punctuation, e.g. the output of `openssl rand -hex 24`.');
  }
  if (opts.mcp && !isLoopback(opts.otlpHost) && !token) {
    throw new CoralError(
      `Listening on ${opts.otlpHost} would expose the colony's MCP tools to the network without authentication.`,
      'Pass --token-file PATH (or set CORAL_COLONY_TOKEN); clients then send Authorization: Bearer <token>. Or use --no-mcp.',
    );
  }
  // A ClickHouse colony is shared by design (Collectors write beside it): no one-server-per-file rule.
  const clickhouse = opts.clickhouse ?? (opts.db === undefined ? configuredClickHouseUrl() : undefined);
  if (clickhouse !== undefined && opts.maxWalMb !== undefined) {
    throw new CoralError('--max-wal-mb sets the write-ahead log of a DuckDB colony file; a ClickHouse colony has none of coral\'s.', 'Drop --max-wal-mb, or serve a --db FILE.');
  }
  const dbPath = clickhouse !== undefined || opts.db === ':memory:' ? ':memory:' : resolve(opts.db ?? defaultColonyDbPath());
  const running = dbPath === ':memory:' ? null : await findRunningColony(dbPath, { instead: 'this colony replaces it' });
  if (running) {
    throw new CoralError(`A colony is already serving ${dbPath} at ${running.rt.url} (pid ${running.rt.pid}).`, 'Every coral command uses it automatically; stop it first to start another, or pass a different --db FILE.');
  }
  const log = (line: string) => process.stderr.write(`coral colony: ${line}\n`);
  // The disk full (and back) is said as it happens.
  const store = await openColonyFromOptions(clickhouse !== undefined ? { ...opts, clickhouse } : { ...opts, db: dbPath }, { create: true, checkpointThreshold: `${walMb}MB`, checkpointBeside: true, onNotice: log });
  const totals = { accepted: 0, rejected: 0, exports: 0 };
  const count = (e: ExportReport) => {
    totals.accepted += e.accepted;
    totals.rejected += e.rejected;
    totals.exports++;
  };
  let mcp: McpHttpHandler | undefined;
  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => Promise<void>> = {};
  // Loopback Host names need the real port, known once listening (port 0 picks one).
  const allowedHosts: string[] = [];
  const scenarios = listScenarios();
  // Lets other commands prove a runtime record is this process before sending its token (runtime-probe.ts).
  const nonce = newRuntimeNonce();
  let listening = '';
  routes[RUNTIME_ROUTE] = runtimeRoute({ nonce, url: () => listening, token });
  if (opts.mcp) {
    const ctx = createToolContext(store);
    const gate = new Gate(TOOL_RUNS, TOOL_RUNS_WAITING);
    const disabledTools = resolveDisabledTools({ quiet: true });
    const handler = createMcpHttpHandler(() => createColonyServer(ctx, { listDeprecatedTools: opts.listDeprecatedTools, scenarios, gate, disabledTools }), { allowedHosts, token, maxSessions });
    mcp = handler;
    routes['/mcp'] = (req, res) => handler.handle(req, res);
  }
  let receiver;
  let grpc: RunningGrpcReceiver | null = null;
  try {
    const access = { allowedHosts, token: opts.otlpAuth === 'none' ? undefined : token };
    receiver = await startReceiver({ sink: store, host: opts.otlpHost, port, maxBodyBytes, maxExportItems, budget, routes, access, onExport: count, decodeWorkers });
    if (grpcPort !== null) {
      try {
        grpc = await startGrpcReceiver({ sink: store, host: opts.otlpHost, port: grpcPort, maxBodyBytes, maxExportItems, budget, token: access.token, onExport: count, decoders: receiver.decoders });
      } catch (err) {
        await receiver.close();
        throw err;
      }
    }
  } catch (err) {
    await store.close();
    throw err;
  }
  const retention = startServeRetention(store, retainNs);
  listening = receiver.url;
  if (isLoopback(opts.otlpHost)) allowedHosts.push(...loopbackHosts(receiver.port, opts.otlpHost));
  log(`colony ${store.path}`);
  log(`OTLP/HTTP listening on ${receiver.url} (/v1/traces, /v1/metrics, /v1/logs; JSON and protobuf, gzip)`);
  if (grpc) log(`OTLP/gRPC listening on ${grpc.address}`);
  log(`OTLP authentication: ${otlpAuthWords(token, opts.otlpAuth, isLoopback(opts.otlpHost))}`);
  if (mcp) log(`MCP (Streamable HTTP) on ${receiver.url}/mcp${token ? ', bearer token required' : ''}`);
  if (retention) log(`retention: data older than ${opts.retain} is dropped (checked every minute)`);
  // A :memory: colony has no file for others to find.
  const forget = dbPath === ':memory:' ? () => undefined : writeRuntime({ db: dbPath, url: receiver.url, mcp: Boolean(mcp), otlpGrpc: grpc?.address ?? null, nonce }, token);
  log('Ctrl-C to stop');
  let reported = { ...totals };
  const timer = setInterval(() => {
    if (totals.exports === reported.exports) return;
    log(
      `+${formatCount(totals.accepted - reported.accepted)} items in ${formatCount(totals.exports - reported.exports)} exports` +
        (totals.rejected > reported.rejected ? `, ${formatCount(totals.rejected - reported.rejected)} rejected` : '') +
        ` (total ${formatCount(totals.accepted)})`,
    );
    reported = { ...totals };
  }, REPORT_EVERY_MS);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  clearInterval(timer);
  forget();
  log('stopping: finishing pending writes');
  await mcp?.close();
  await grpc?.close();
  await receiver.close();
  await retention?.stop();
  await store.close();
  log(`stopped; ${stopTally(totals, store.ingestTally?.())}`);
}

/** Serve's last line: what the colony gained, not what was received (a re-sent batch is received twice, stored once). */
function stopTally(totals: { accepted: number; exports: number }, tally: IngestTally | undefined): string {
  const received = `${formatCount(totals.accepted)} items received in ${formatCount(totals.exports)} exports`;
  if (!tally) return `${received} this run`;
  return `${formatCount(tally.newSpans)} new spans stored this run (${received}; checkpoints ${formatCount(tally.checkpoints)})`;
}
