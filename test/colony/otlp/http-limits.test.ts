/**
 * Slow clients cannot hold the colony's HTTP port (OTLP/HTTP and /mcp): headers and bodies that
 * trickle are answered 408 and closed, and connections beyond the cap are closed at once. The
 * limits are made small here; each test waits for the socket's close, never for a time.
 */
import { type Socket, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createMcpHttpHandler } from '../../../src/colony/mcp-http.js';
import type { IngestSink } from '../../../src/colony/otlp/ingest.js';
import { DEFAULT_HTTP_LIMITS } from '../../../src/colony/otlp/http-limits.js';
import { type RunningReceiver, startReceiver } from '../../../src/colony/otlp/receiver.js';

const sink: IngestSink = { write: () => Promise.resolve() };
const mcp = createMcpHttpHandler(() => new McpServer({ name: 't', version: '1' }), { allowedHosts: [] });
let receiver: RunningReceiver;

beforeAll(async () => {
  receiver = await startReceiver({
    sink,
    port: 0,
    decodeWorkers: 0,
    routes: { '/mcp': (req, res) => mcp.handle(req, res) },
    limits: { headersTimeoutMs: 200, requestTimeoutMs: 400, keepAliveTimeoutMs: 60_000, maxConnections: 4 },
  });
});
afterAll(async () => {
  await mcp.close();
  await receiver.close();
});

/** A connection that sends `bytes` and never more; resolves with what came back once it is closed. */
function hold(bytes: string | null): { socket: Socket; closed: Promise<string> } {
  const socket = connect(receiver.port, '127.0.0.1', () => {
    if (bytes !== null) socket.write(bytes);
  });
  let got = '';
  socket.on('data', (d: Buffer) => (got += d.toString()));
  socket.on('error', () => undefined);
  return { socket, closed: new Promise((resolve) => socket.once('close', () => resolve(got))) };
}

/** A kept-alive connection that has had one full answer: the server has accepted it. */
function accepted(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(receiver.port, '127.0.0.1', () => socket.write('GET /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'));
    let got = '';
    socket.on('data', (d: Buffer) => {
      got += d.toString();
      if (/\r\n\r\n[\s\S]*"/.test(got)) resolve(socket);
    });
    socket.once('close', () => reject(new Error(`closed before an answer: ${got}`)));
  });
}

describe('slow connections', () => {
  it('the defaults: headers within 10 s, a whole request within 30 s, at most 1024 connections', () => {
    expect(DEFAULT_HTTP_LIMITS).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 15_000, maxConnections: 1024 });
  });

  it('closes a connection whose headers trickle (slowloris), and one that sends nothing', async () => {
    const [partial, silent] = [hold('POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a'), hold(null)];
    expect(await partial.closed).toMatch(/^HTTP\/1\.1 408 /);
    expect(await silent.closed).toMatch(/^HTTP\/1\.1 408 /);
  }, 15_000);

  it('closes a connection whose body trickles, on the OTLP paths and on /mcp', async () => {
    const head = (path: string) => `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`;
    const [otlp, mcpBody] = [hold(head('/v1/traces')), hold(head('/mcp'))];
    expect(await otlp.closed).toMatch(/^HTTP\/1\.1 408 /);
    expect(await mcpBody.closed).toMatch(/^HTTP\/1\.1 408 /);
  }, 15_000);

  it('closes a connection beyond the cap at once, without an answer', async () => {
    const held = [await accepted(), await accepted(), await accepted(), await accepted()];
    try {
      expect(await hold('GET /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n').closed).toBe('');
    } finally {
      for (const s of held) s.destroy();
    }
  }, 15_000);
});
