import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { isLoopbackHost } from '../core/net.js';
import { type AccessPolicy, checkAccess } from './otlp/auth.js';

export interface McpHttpOptions extends AccessPolicy {
  maxBodyBytes?: number;
  /** A session unused this long is closed (coral's own clients never end theirs). Default 10 minutes. */
  idleMs?: number;
  /** Sessions kept at most; a new one beyond evicts the least recently used. Default 64. */
  maxSessions?: number;
}

export const DEFAULT_SESSION_IDLE_MS = 10 * 60_000;
export const DEFAULT_MAX_SESSIONS = 64;

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  lastUsed: number;
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
 * Host-header checks against DNS rebinding, and an optional bearer token.
 */
export function createMcpHttpHandler(makeServer: () => McpServer, opts: McpHttpOptions): McpHttpHandler {
  const sessions = new Map<string, Session>();
  const limit = opts.maxBodyBytes ?? 4 * 1024 * 1024;
  const idleMs = opts.idleMs ?? DEFAULT_SESSION_IDLE_MS;
  const maxSessions = opts.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const end = (id: string) => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    void s.server.close().catch(() => undefined);
  };
  // Map order is insertion order and a used session is re-inserted: the first entries are the least recently used.
  const touch = (id: string, s: Session) => {
    s.lastUsed = Date.now();
    sessions.delete(id);
    sessions.set(id, s);
  };
  const sweep = setInterval(() => {
    const cutoff = Date.now() - idleMs;
    for (const [id, s] of sessions) if (s.lastUsed < cutoff) end(id);
  }, Math.max(10, Math.min(idleMs / 2, 60_000)));
  sweep.unref();
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
      const sessionId = req.headers['mcp-session-id'];
      const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (existing && typeof sessionId === 'string') touch(sessionId, existing);
      if (req.method !== 'POST') {
        if (!existing) {
          jsonRpcError(res, sessionId !== undefined ? 404 : 400, sessionId !== undefined ? 'Unknown or expired MCP session; initialize a new one.' : 'No such MCP session; initialize first with a POST.');
          return;
        }
        await existing.transport.handleRequest(req, res);
        return;
      }
      let body: unknown;
      try {
        body = await readJson(req, limit);
      } catch (err) {
        jsonRpcError(res, 400, (err as Error).message);
        return;
      }
      if (existing) {
        await existing.transport.handleRequest(req, res, body);
        return;
      }
      if (sessionId !== undefined || !isInitializeRequest(body)) {
        jsonRpcError(res, sessionId !== undefined ? 404 : 400, sessionId !== undefined ? 'Unknown or expired MCP session; initialize a new one.' : 'The first request of a session must be initialize.');
        return;
      }
      while (sessions.size >= maxSessions) end(sessions.keys().next().value as string);
      const server = makeServer();
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => {
          sessions.set(id, { transport, server, lastUsed: Date.now() });
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    },
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((s) => s.server.close()));
      sessions.clear();
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
