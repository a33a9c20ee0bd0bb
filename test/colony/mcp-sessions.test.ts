/**
 * MCP sessions on the colony's port: a flood of initializes cannot evict sessions in use or another
 * client's, each local program has its own share, and pages from other sites are refused by their Origin.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { createConnection, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpHandler, createMcpHttpHandler, isAllowedOrigin, loopbackHosts } from '../../src/colony/mcp-http.js';
import { SessionTable, UNKNOWN_LOCAL, clientOf, localProcess } from '../../src/colony/mcp-sessions.js';
import { findSocket } from '../../src/colony/loopback-peer.js';
import { type RunningReceiver, startReceiver } from '../../src/colony/otlp/receiver.js';
import { createColonyServer } from '../../src/colony/server.js';
import { ColonyStore } from '../../src/colony/store/store.js';
import { T0 } from '../support/otlp-json.js';

describe('the session table', () => {
  const limits = { maxSessions: 4, maxPerClient: 2, busyMs: 1000 };
  const fill = (t: SessionTable<string>, client: string, ids: string[], now: number) => {
    for (const id of ids) {
      expect(t.admit(client, now)).toEqual({ ok: true, evicted: [] });
      t.add(id, client, id, now);
    }
  };

  it('refuses a newcomer rather than evict sessions in use; evicts the least recently used idle one', () => {
    const t = new SessionTable<string>(limits);
    fill(t, UNKNOWN_LOCAL, ['a', 'b', 'c', 'd'], 0);
    const refused = t.admit(UNKNOWN_LOCAL, 10);
    expect(refused.ok).toBe(false);
    expect(refused.ok ? '' : refused.message).toMatch(/Too many sessions: the colony already has 4 MCP sessions in use/);
    expect(t.size).toBe(4);
    // Used later than the others: b, c and d become the most recent; a is the idle one to go.
    for (const id of ['b', 'c', 'd']) t.begin(id, () => 500)();
    expect(t.admit(UNKNOWN_LOCAL, 1200)).toEqual({ ok: true, evicted: ['a'] });
  });

  it('never evicts a session with a request in flight (an open event stream), however old', () => {
    const t = new SessionTable<string>(limits);
    fill(t, UNKNOWN_LOCAL, ['stream', 'b', 'c', 'd'], 0);
    t.begin('stream', () => 0);
    for (const id of ['b', 'c', 'd']) t.begin(id, () => 100)();
    expect(t.admit(UNKNOWN_LOCAL, 10_000)).toEqual({ ok: true, evicted: ['b'] });
    expect(t.get('stream')).toBe('stream');
    expect(t.expire(Infinity)).toEqual(['c', 'd']);
    expect(t.get('stream')).toBe('stream');
  });

  it('a remote client over its quota replaces its own oldest idle session, never another client\'s', () => {
    const t = new SessionTable<string>(limits);
    fill(t, '10.0.0.1', ['x1', 'x2'], 0);
    fill(t, '10.0.0.2', ['y1', 'y2'], 0);
    expect(t.admit('10.0.0.1', 500)).toMatchObject({ ok: false, message: expect.stringMatching(/this client \(10\.0\.0\.1\) already has 2 MCP sessions/) });
    expect(t.admit('10.0.0.1', 5000)).toEqual({ ok: true, evicted: ['x1'] });
    t.add('x3', '10.0.0.1', 'x3', 5000);
    // The colony is full of others' sessions, all idle: a third client is refused, not let in over them.
    const third = t.admit('10.0.0.3', 99_000);
    expect(third.ok ? '' : third.message).toMatch(/the colony already has 4 MCP sessions in use \(the limit is 2 per client, 4 in all; held by 10\.0\.0\.1: 2, 10\.0\.0\.2: 2\)/);
    expect(t.values().sort()).toEqual(['x2', 'x3', 'y1', 'y2']);
  });

  it('counts initializes still in progress, so concurrent ones cannot overshoot', () => {
    const t = new SessionTable<string>({ maxSessions: 1, maxPerClient: 1, busyMs: 0 });
    expect(t.admit(UNKNOWN_LOCAL, 0).ok).toBe(true);
    expect(t.admit(UNKNOWN_LOCAL, 0).ok).toBe(false);
    t.release(UNKNOWN_LOCAL);
    expect(t.admit(UNKNOWN_LOCAL, 0).ok).toBe(true);
  });

  it('names a remote client by address; a local connection /proc cannot place is the shared unknown one', async () => {
    const ends = (remoteAddress: string | undefined) => ({ remoteAddress, remotePort: 40000, localAddress: '127.0.0.1', localPort: 1 });
    expect(await clientOf(ends('10.0.0.5'))).toBe('10.0.0.5');
    expect(await clientOf(ends('::ffff:10.0.0.5'))).toBe('10.0.0.5');
    // No such connection exists: nothing in /proc names it.
    for (const a of ['127.0.0.1', '::1', '::ffff:127.0.0.1', undefined]) expect(await clientOf(ends(a)), String(a)).toBe(UNKNOWN_LOCAL);
  });

  it('gives each local process its own quota; only unplaced local connections share the colony cap', () => {
    const t = new SessionTable<string>({ maxSessions: 6, maxPerClient: 2, busyMs: 1000 });
    fill(t, localProcess(7), ['a', 'b'], 0);
    const own = t.admit(localProcess(7), 10);
    expect(own.ok ? '' : own.message).toMatch(/^Too many sessions: this client \(local process 7\) already has 2 MCP sessions in use \(the limit is 2 per client, 6 in all\)/);
    fill(t, localProcess(8), ['c', 'd'], 10);
    fill(t, UNKNOWN_LOCAL, ['e', 'f'], 10);
    const full = t.admit(localProcess(9), 20);
    expect(full.ok ? '' : full.message).toMatch(/the colony already has 6 MCP sessions in use \(the limit is 2 per client, 6 in all; held by local process 7: 2, local process 8: 2, local programs: 2\)/);
    expect(t.clients()).toHaveLength(3);
  });

  it('finds the client end of a connection in /proc/net/tcp and tcp6 rows', () => {
    const v4 = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:10E6 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 111 1 0 100 0 0 10 0',
      '   1: 0100007F:9C40 0100007F:10E6 01 00000000:00000000 00:00000000 00000000  1001        0 222 1 0 20 4 30 10 -1',
      '   2: 0100007F:10E6 0100007F:9C40 01 00000000:00000000 00:00000000 00000000  1000        0 333 1 0 20 4 30 10 -1',
    ].join('\n');
    // Port 40000 (9C40) to the colony's 4326 (10E6): the client's row, not the colony's own end.
    expect(findSocket(v4, { address: '127.0.0.1', port: 40000 }, { address: '127.0.0.1', port: 4326 })).toEqual({ uid: 1001, inode: 222 });
    expect(findSocket(v4, { address: '::ffff:127.0.0.1', port: 40000 }, { address: '::ffff:127.0.0.1', port: 4326 })).toEqual({ uid: 1001, inode: 222 });
    expect(findSocket(v4, { address: '127.0.0.2', port: 40000 }, { address: '127.0.0.1', port: 4326 })).toBeNull();
    const v6 = [
      '  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 00000000000000000000000001000000:9C41 00000000000000000000000001000000:10E6 01 00000000:00000000 00:00000000 00000000     0        0 444 1 0 20 4 30 10 -1',
      '   1: 0000000000000000FFFF00000100007F:9C42 0000000000000000FFFF00000100007F:10E6 01 00000000:00000000 00:00000000 00000000     5        0 555 1 0 20 4 30 10 -1',
      'garbage line',
    ].join('\n');
    expect(findSocket(v6, { address: '::1', port: 40001 }, { address: '::1', port: 4326 })).toEqual({ uid: 0, inode: 444 });
    expect(findSocket(v6, { address: '::ffff:127.0.0.1', port: 40002 }, { address: '127.0.0.1', port: 4326 })).toEqual({ uid: 5, inode: 555 });
  });

  it.runIf(process.platform === 'linux')('names the local process at the other end of a real connection: this one, and a child', async () => {
    const accepted: import('node:net').Socket[] = [];
    const server = createServer((s) => accepted.push(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as import('node:net').AddressInfo).port;
    const next = () => new Promise<import('node:net').Socket>((r) => server.once('connection', r));
    try {
      const mine = next();
      const own = createConnection(port, '127.0.0.1');
      expect(await clientOf(await mine)).toBe(localProcess(process.pid));
      const theirs = next();
      const child = spawn(process.execPath, ['-e', `require('net').createConnection(${port}, '127.0.0.1'); setInterval(() => {}, 1000)`], { stdio: 'ignore' });
      try {
        expect(await clientOf(await theirs, [localProcess(process.pid)])).toBe(localProcess(child.pid as number));
      } finally {
        child.kill();
      }
      own.destroy();
    } finally {
      for (const s of accepted) s.destroy();
      server.close();
    }
  });

  it('admits no Origin (programs) and loopback origins; refuses other sites and opaque origins', () => {
    for (const o of [undefined, 'http://localhost:6274', 'http://127.0.0.1', 'https://[::1]:8443']) expect(isAllowedOrigin(o), String(o)).toBe(true);
    for (const o of ['http://evil.example', 'http://localhost.evil.example', 'null', 'file://', 'chrome-extension://abc', '']) expect(isAllowedOrigin(o), o).toBe(false);
  });
});

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });

describe('/mcp over HTTP', () => {
  let store: ColonyStore;
  let receiver: RunningReceiver;
  let mcp: McpHttpHandler;
  const hosts: string[] = [];

  beforeAll(async () => {
    store = await ColonyStore.open({ path: ':memory:', threads: 1, memoryLimit: '1GB' });
    const ctx = { store, now: () => T0, maxResponseChars: 16_000 };
    // The defaults: 64 sessions, a session used in the last minute is in use.
    mcp = createMcpHttpHandler(() => createColonyServer(ctx), { allowedHosts: hosts });
    receiver = await startReceiver({ sink: store, port: 0, decodeWorkers: 0, routes: { '/mcp': (req, res) => mcp.handle(req, res) } });
    hosts.push(...loopbackHosts(receiver.port));
  });
  afterAll(async () => {
    await mcp.close();
    await receiver.close();
    await store.close();
  });

  function post(body: string, headers: Record<string, string> = {}): Promise<{ status: number; session?: string; body: string }> {
    return new Promise((done, fail) => {
      const req = request(`${receiver.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => done({ status: res.statusCode ?? 0, session: res.headers['mcp-session-id'] as string | undefined, body: text }));
      });
      req.on('error', fail);
      req.end(body);
    });
  }

  it.runIf(process.platform === 'linux')('70 initializes from one local process: its first 16 sessions keep working, the rest get 429 naming it', async () => {
    const answers = [];
    for (let i = 0; i < 70; i++) answers.push(await post(INIT));
    expect(answers.slice(0, 16).every((a) => a.status === 200 && a.session)).toBe(true);
    expect(answers.slice(16).every((a) => a.status === 429)).toBe(true);
    expect(answers[16].body).toContain(`this client (local process ${process.pid}) already has 16 MCP sessions in use (the limit is 16 per client, 64 in all)`);
    expect(mcp.sessionCount).toBe(16);
    for (const a of answers.slice(0, 6)) {
      const r = await post(LIST, { 'mcp-session-id': a.session as string, 'mcp-protocol-version': '2025-03-26' });
      expect(r.status).toBe(200);
      expect(r.body).toMatch(/coral_query_summary/);
    }
  }, 60_000);

  it('refuses a request whose Origin is another site (403), admits a loopback one', async () => {
    const evil = await post(INIT, { origin: 'http://evil.example' });
    expect(evil.status).toBe(403);
    expect((JSON.parse(evil.body) as { error: { message: string } }).error.message).toMatch(/^Origin "http:\/\/evil\.example" is not allowed/);
    expect((await post(LIST, { origin: 'null' })).status).toBe(403);
    // This process's quota is reached by the test above: a loopback origin passes the Origin check and meets the quota.
    expect((await post(INIT, { origin: `http://localhost:${receiver.port}` })).status).toBe(429);
  });

  it('a session listening on its event stream is in use: a newcomer evicts an idle one instead', async () => {
    const small = createMcpHttpHandler(() => createColonyServer({ store, now: () => T0, maxResponseChars: 16_000 }), { allowedHosts: [], maxSessions: 2, busyMs: 0 });
    const r2 = await startReceiver({ sink: store, port: 0, decodeWorkers: 0, routes: { '/mcp': (req, res) => small.handle(req, res) } });
    const call = (method: string, body: string | null, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; session?: string; res: import('node:http').IncomingMessage }>((done, fail) => {
        const req = request(`${r2.url}/mcp`, { method, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
          done({ status: res.statusCode ?? 0, session: res.headers['mcp-session-id'] as string | undefined, res });
        });
        req.on('error', fail);
        req.end(body ?? undefined);
      });
    const sessionHeaders = (id: string) => ({ 'mcp-session-id': id, 'mcp-protocol-version': '2025-03-26' });
    try {
      const listening = (await call('POST', INIT)).session as string;
      const idle = (await call('POST', INIT)).session as string;
      // One session opens its stream and keeps it; the other is used after: the listener is the least recently used, but in use.
      const stream = await call('GET', null, sessionHeaders(listening));
      expect(stream.status).toBe(200);
      const used = await call('POST', LIST, sessionHeaders(idle));
      used.res.resume();
      expect(used.status).toBe(200);
      const newcomer = await call('POST', INIT);
      newcomer.res.resume();
      expect(newcomer.status).toBe(200);
      const stillThere = await call('POST', LIST, sessionHeaders(listening));
      stillThere.res.resume();
      expect(stillThere.status).toBe(200);
      const evicted = await call('POST', LIST, sessionHeaders(idle));
      evicted.res.resume();
      expect(evicted.status).toBe(404);
      stream.res.destroy();
    } finally {
      await small.close();
      await r2.close();
    }
  });
});
