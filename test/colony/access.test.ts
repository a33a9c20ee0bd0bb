import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpHandler, createMcpHttpHandler, loopbackHosts } from '../../src/colony/mcp-http.js';
import { bearerToken, checkAccess } from '../../src/colony/otlp/auth.js';
import { type RunningReceiver, startReceiver } from '../../src/colony/otlp/receiver.js';
import { createColonyServer } from '../../src/colony/server.js';
import { ColonyStore } from '../../src/colony/store/store.js';
import { T0, hexId, sdkResource, tracesBody } from '../support/otlp-json.js';

/** A raw request, so the Host header can be anything (fetch will not let a test set it). */
function send(url: string, o: { path: string; host?: string; headers?: Record<string, string>; body?: string; method?: string }): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  const u = new URL(url);
  return new Promise((done, fail) => {
    const req = request({ hostname: u.hostname, port: u.port, path: o.path, method: o.method ?? 'POST', headers: { host: o.host ?? u.host, 'content-type': 'application/json', ...o.headers } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', fail);
    req.end(o.body ?? '');
  });
}

const exportBody = (n: number) => JSON.stringify(tracesBody(sdkResource('checkout'), 'x', [{ traceId: hexId(16, n, 55), spanId: hexId(8, n, 55), name: 'GET /x', startNs: T0, durationMs: 1 }]));
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };

describe('access checks', () => {
  it('reads the bearer scheme in any case, and compares Host case-insensitively', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('BEARER abc ')).toBe('abc');
    expect(bearerToken('BEARER   abc')).toBeNull();
    expect(bearerToken('Basic abc')).toBeNull();
    const policy = { allowedHosts: loopbackHosts(4318), token: 'tok' };
    expect(checkAccess(policy, 'LOCALHOST:4318', 'bearer tok')).toBeNull();
    expect(checkAccess(policy, 'evil.example:4318', 'Bearer tok')?.status).toBe(403);
    expect(checkAccess(policy, '127.0.0.1:4318', 'Bearer nope')?.status).toBe(401);
    expect(checkAccess(policy, undefined, 'Bearer tok')?.status).toBe(403);
  });

  it('accepts a loopback listener\'s own address (--otlp-host 127.0.0.2)', () => {
    expect(loopbackHosts(4318, '127.0.0.2')).toContain('127.0.0.2:4318');
    expect(checkAccess({ allowedHosts: loopbackHosts(4318, '127.0.0.2') }, '127.0.0.2:4318', undefined)).toBeNull();
    expect(loopbackHosts(4318, '::1')).toContain('[::1]:4318');
  });
});

describe('one port, one policy: OTLP and /mcp both need the token and a loopback Host', () => {
  let store: ColonyStore;
  let receiver: RunningReceiver;
  let mcp: McpHttpHandler;
  const hosts: string[] = [];
  const token = 'tok-123';

  beforeAll(async () => {
    store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    const ctx = { store, now: () => T0, maxResponseChars: 16_000 };
    mcp = createMcpHttpHandler(() => createColonyServer(ctx), { allowedHosts: hosts, token, idleMs: 300, maxSessions: 3, busyMs: 0 });
    receiver = await startReceiver({ sink: store, port: 0, access: { allowedHosts: hosts, token }, routes: { '/mcp': (req, res) => mcp.handle(req, res) } });
    hosts.push(...loopbackHosts(receiver.port));
  });
  afterAll(async () => {
    await mcp.close();
    await receiver.close();
    await store.close();
  });

  it('OTLP: 401 without the token, 403 for a foreign Host (DNS rebinding), 200 with `bearer` in lower case', async () => {
    expect((await send(receiver.url, { path: '/v1/traces', body: exportBody(1) })).status).toBe(401);
    const rebound = await send(receiver.url, { path: '/v1/traces', host: `attacker.example:${receiver.port}`, headers: { authorization: `Bearer ${token}` }, body: exportBody(2) });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatch(/DNS-rebinding/);
    expect((await store.counts()).spans).toBe(0);
    expect((await send(receiver.url, { path: '/v1/traces', headers: { authorization: `bearer ${token}` }, body: exportBody(3) })).status).toBe(200);
    expect((await store.counts()).spans).toBe(1);
  });

  it('/mcp: the bearer scheme in any case', async () => {
    const r = await send(receiver.url, { path: '/mcp', headers: { ...MCP_HEADERS, authorization: `BEARER ${token}` }, body: INIT });
    expect(r.status).toBe(200);
  });

  it('MCP sessions expire after the idle time and are capped, evicting the least recently used idle one', async () => {
    const open = async () => {
      const r = await send(receiver.url, { path: '/mcp', headers: { ...MCP_HEADERS, authorization: `Bearer ${token}` }, body: INIT });
      expect(r.status).toBe(200);
      return r.headers['mcp-session-id'] as string;
    };
    const ids = [await open(), await open(), await open(), await open(), await open()];
    expect(mcp.sessionCount).toBe(3);
    const list = (id: string) => send(receiver.url, { path: '/mcp', headers: { ...MCP_HEADERS, authorization: `Bearer ${token}`, 'mcp-session-id': id, 'mcp-protocol-version': '2025-03-26' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    expect((await list(ids[0])).status).toBe(404);
    expect((await list(ids[4])).status).toBe(200);
    // Idle: every session is gone within a few sweeps, and says so.
    const deadline = Date.now() + 5000;
    while (mcp.sessionCount > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(mcp.sessionCount).toBe(0);
    const expired = await list(ids[4]);
    expect(expired.status).toBe(404);
    expect(expired.body).toMatch(/Unknown or expired MCP session/);
  });
});

describe('coral colony serve states how OTLP is authenticated', () => {
  const serve: ChildProcess[] = [];
  afterAll(() => {
    for (const s of serve) s.kill('SIGINT');
  });
  async function start(args: string[]): Promise<{ url: string; log: string }> {
    const p = spawn(process.execPath, [resolve('dist/coral.js'), 'colony', 'serve', '--db', ':memory:', '--otlp-port', '0', '--otlp-grpc-port', '0', ...args]);
    serve.push(p);
    return new Promise((done, fail) => {
      let log = '';
      p.stderr?.on('data', (d: Buffer) => {
        log += d.toString();
        const m = /OTLP\/HTTP listening on (http:\/\/\S+)/.exec(log);
        if (m && log.includes('Ctrl-C')) done({ url: m[1], log });
      });
      p.on('exit', () => fail(new Error(log)));
    });
  }

  it('with --token, OTLP requires it; with --otlp-auth none, it says so and OTLP is open', async () => {
    const guarded = await start(['--token', 'tok-9']);
    expect(guarded.log).toMatch(/OTLP authentication: bearer token required/);
    expect((await send(guarded.url, { path: '/v1/traces', body: exportBody(7) })).status).toBe(401);
    expect((await send(guarded.url, { path: '/v1/traces', headers: { authorization: 'Bearer tok-9' }, body: exportBody(7) })).status).toBe(200);
    const open = await start(['--token', 'tok-9', '--otlp-auth', 'none']);
    expect(open.log).toMatch(/OTLP authentication: none \(--otlp-auth none; the token guards \/mcp only\)/);
    expect((await send(open.url, { path: '/v1/traces', body: exportBody(8) })).status).toBe(200);
    expect((await send(open.url, { path: '/mcp', headers: MCP_HEADERS, body: INIT })).status).toBe(401);
  }, 60_000);
});
