import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

export interface McpHttpOptions {
  /** Host header values accepted (DNS-rebinding protection): host:port pairs. Empty accepts any (token required then). */
  allowedHosts: string[];
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string;
  maxBodyBytes?: number;
}

export interface McpHttpHandler {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

function jsonRpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
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
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>();
  const limit = opts.maxBodyBytes ?? 4 * 1024 * 1024;
  return {
    async handle(req, res) {
      const host = req.headers.host ?? '';
      if (opts.allowedHosts.length > 0 && !opts.allowedHosts.includes(host)) {
        jsonRpcError(res, 403, `Host "${host}" is not allowed (DNS-rebinding protection); connect to ${opts.allowedHosts[0]}.`);
        return;
      }
      if (opts.token !== undefined) {
        const auth = req.headers.authorization ?? '';
        if (!auth.startsWith('Bearer ') || !sameSecret(auth.slice(7), opts.token)) {
          jsonRpcError(res, 401, 'Missing or wrong bearer token: send Authorization: Bearer <token> (the --token the colony was started with).', { 'www-authenticate': 'Bearer' });
          return;
        }
      }
      const sessionId = req.headers['mcp-session-id'];
      const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (req.method !== 'POST') {
        if (!existing) {
          jsonRpcError(res, 400, 'No such MCP session; initialize first with a POST.');
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
        jsonRpcError(res, sessionId !== undefined ? 404 : 400, sessionId !== undefined ? 'Unknown MCP session; initialize a new one.' : 'The first request of a session must be initialize.');
        return;
      }
      const server = makeServer();
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => {
          sessions.set(id, { transport, server });
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    },
    async close() {
      await Promise.all([...sessions.values()].map((s) => s.server.close()));
      sessions.clear();
    },
  };
}

/** The Host values a loopback listener answers to. */
export function loopbackHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

export function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1' || host.startsWith('127.');
}
