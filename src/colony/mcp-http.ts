import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { isLoopbackHost } from '../core/net.js';
import { SessionTable, clientOf } from './mcp-sessions.js';
import { type AccessPolicy, checkAccess } from './otlp/auth.js';

export interface McpHttpOptions extends AccessPolicy {
  maxBodyBytes?: number;
  /** A session unused this long is closed (coral's own clients never end theirs). Default 10 minutes. */
  idleMs?: number;
  /** Sessions kept at most. Default 64. */
  maxSessions?: number;
  /** Sessions one client (a remote address, a local process) may hold. Default 16. */
  maxSessionsPerClient?: number;
  /** A session used this recently is in use: never evicted to make room. Default 60 s. */
  busyMs?: number;
}

export const DEFAULT_SESSION_IDLE_MS = 10 * 60_000;
export const DEFAULT_MAX_SESSIONS = 64;
export const DEFAULT_MAX_SESSIONS_PER_CLIENT = 16;
export const DEFAULT_SESSION_BUSY_MS = 60_000;

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
}

/**
 * A browser page names itself in Origin; one on another site reaching the colony through DNS
 * rebinding or a loopback port is refused (the MCP transport specification's guidance). Programs
 * send no Origin.
 */
export function isAllowedOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    const u = new URL(origin);
    return (u.protocol === 'http:' || u.protocol === 'https:') && isLoopbackHost(u.hostname);
  } catch {
    return false;
  }
}

export interface McpHttpHandler {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Sessions open now (bounded by maxSessions, shrunk by the idle sweep). */
  readonly sessionCount: number;
  close(): Promise<void>;
}

function jsonRpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new Error(`request body exceeds ${limit} bytes`));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new Error('request body is not JSON'));
      }
    });
    req.on('error', reject);
  });
}

/**
 * The colony's MCP endpoint over Streamable HTTP: one session (transport + server) per client,
 * Host-header and Origin checks against DNS rebinding, an optional bearer token, and per-client
 * session quotas that never evict a session in use or another client's (mcp-sessions.ts).
 */
export function createMcpHttpHandler(makeServer: () => McpServer, opts: McpHttpOptions): McpHttpHandler {
  const sessions = new SessionTable<Session>({
    maxSessions: opts.maxSessions ?? DEFAULT_MAX_SESSIONS,
    maxPerClient: opts.maxSessionsPerClient ?? DEFAULT_MAX_SESSIONS_PER_CLIENT,
    busyMs: opts.busyMs ?? DEFAULT_SESSION_BUSY_MS,
  });
  const limit = opts.maxBodyBytes ?? 4 * 1024 * 1024;
  const idleMs = opts.idleMs ?? DEFAULT_SESSION_IDLE_MS;
  const closeSession = (s: Session) => void s.server.close().catch(() => undefined);
  const sweep = setInterval(() => {
    for (const s of sessions.expire(Date.now() - idleMs)) closeSession(s);
  }, Math.max(10, Math.min(idleMs / 2, 60_000)));
  sweep.unref();
  /**
   * A request on a session: in use until its answer is finished or its connection closes, which for
   * an event stream (GET) is as long as the client listens.
   */
  const within = (id: string, res: ServerResponse, run: () => Promise<void>) => {
    res.once('close', sessions.begin(id, Date.now));
    return run();
  };
  return {
    get sessionCount() {
      return sessions.size;
    },
    async handle(req, res) {
      const denied = checkAccess(opts, req.headers.host, req.headers.authorization);
      if (denied) {
        jsonRpcError(res, denied.status, denied.message, denied.headers);
        return;
      }
      if (!isAllowedOrigin(req.headers.origin)) {
        jsonRpcError(res, 403, `Origin "${req.headers.origin}" is not allowed: only pages on this machine (localhost, 127.0.0.1, [::1]) may use the colony's MCP endpoint (DNS-rebinding protection).`);
        return;
      }
      const sessionId = req.headers['mcp-session-id'];
      const id = typeof sessionId === 'string' ? sessionId : undefined;
      const existing = id !== undefined ? sessions.get(id) : undefined;
      if (req.method !== 'POST') {
        if (!existing || id === undefined) {
          jsonRpcError(res, sessionId !== undefined ? 404 : 400, sessionId !== undefined ? 'Unknown or expired MCP session; initialize a new one.' : 'No such MCP session; initialize first with a POST.');
          return;
        }
        await within(id, res, () => existing.transport.handleRequest(req, res));
        return;
      }
      let body: unknown;
      try {
        body = await readJson(req, limit);
      } catch (err) {
        jsonRpcError(res, 400, (err as Error).message);
        return;
      }
      if (existing && id !== undefined) {
        await within(id, res, () => existing.transport.handleRequest(req, res, body));
        return;
      }
      if (sessionId !== undefined || !isInitializeRequest(body)) {
        jsonRpcError(res, sessionId !== undefined ? 404 : 400, sessionId !== undefined ? 'Unknown or expired MCP session; initialize a new one.' : 'The first request of a session must be initialize.');
        return;
      }
      const client = await clientOf(req.socket, sessions.clients());
      const admitted = sessions.admit(client, Date.now());
      if (!admitted.ok) {
        jsonRpcError(res, 429, admitted.message, { 'retry-after': String(Math.ceil((opts.busyMs ?? DEFAULT_SESSION_BUSY_MS) / 1000)) });
        return;
      }
      for (const s of admitted.evicted) closeSession(s);
      let added = false;
      try {
        const server = makeServer();
        const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: true,
          onsessioninitialized: (newId) => {
            added = true;
            sessions.add(newId, client, { transport, server }, Date.now());
          },
        });
        transport.onclose = () => {
          if (transport.sessionId) sessions.delete(transport.sessionId);
        };
        await server.connect(transport);
        await transport.handleRequest(req, res, body);
      } finally {
        if (!added) sessions.release(client);
      }
    },
    async close() {
      clearInterval(sweep);
      await Promise.all(sessions.clear().map((s) => s.server.close()));
    },
  };
}

/** The Host values a loopback listener answers to, its own address included (e.g. 127.0.0.2). */
export function loopbackHosts(port: number, listenHost = '127.0.0.1'): string[] {
  const own = `${listenHost.includes(':') && !listenHost.startsWith('[') ? `[${listenHost}]` : listenHost}:${port}`;
  return [...new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, own])];
}

export function isLoopback(host: string): boolean {
  return isLoopbackHost(host);
}
